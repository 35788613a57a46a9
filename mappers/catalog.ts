/** Category channels, zones and contests (docs/contract/resources.md#catalog). */
import type { z } from 'zod';
import type { Category, CategoryList, Contest, Zone, ZoneList } from '../src/contract/index.ts';
import { pickText } from '../src/i18n/text.ts';
import type {
  Category as UpstreamCategory,
  CategoryList as UpstreamCategoryList,
  Contest as UpstreamContest,
  Zone as UpstreamZone,
  ZoneList as UpstreamZoneList,
} from '../src/upstream/internal-api.ts';
import { urls, type MapContext } from './context.ts';
import { contestStatus } from './enums.ts';
import { externalUrl } from './links.ts';
import { toFullList } from './lists.ts';
import { toTimestamp } from './time.ts';

export function mapCategory(category: UpstreamCategory, ctx: MapContext): Category {
  return {
    id: category.categoryId,
    name: pickText(category.name, ctx.lang),
    description: pickText(category.intro, ctx.lang),
    url: urls.category(ctx, category.categoryId),
  };
}

export function mapCategoryList(list: z.infer<typeof UpstreamCategoryList>, ctx: MapContext): CategoryList {
  return toFullList(list.items.map((c) => mapCategory(c, ctx)));
}

export function mapZone(zone: UpstreamZone, ctx: MapContext): Zone {
  return {
    slug: zone.slug,
    name: zone.title,
    cover_image_url: externalUrl(zone.coverUrl, ctx),
    members_count: zone.memberNum,
    topics_count: zone.topicNum,
    active_users_count: zone.activeNum,
    url: urls.zone(ctx, zone.slug),
  };
}

export function mapZoneList(list: z.infer<typeof UpstreamZoneList>, ctx: MapContext): ZoneList {
  return toFullList(list.items.map((z) => mapZone(z, ctx)));
}

/**
 * The contest detail. `settled_at` appears once settled and `void_reason` once voided, each
 * only in that status; an option's `is_correct` is false until the backend marks it.
 */
export function mapContest(contest: UpstreamContest, ctx: MapContext): Contest {
  const status = contestStatus(contest.phase);
  return {
    id: contest.contestId,
    title: contest.title,
    description: contest.intro,
    status,
    start_time: toTimestamp(contest.startAt),
    deadline: toTimestamp(contest.deadline),
    options: contest.choices.map((c) => ({
      id: c.choiceId,
      title: c.title,
      entries_count: c.entryNum,
      is_correct: c.correct === true,
    })),
    entries_count: contest.entryNum,
    url: urls.contest(ctx, contest.contestId),
    ...(status === 'settled' && contest.settledAt !== null ? { settled_at: toTimestamp(contest.settledAt) } : {}),
    ...(status === 'voided' && contest.voidReason !== null ? { void_reason: contest.voidReason } : {}),
  };
}
