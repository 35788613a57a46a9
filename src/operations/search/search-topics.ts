/**
 * GET /search (docs/contract/reads.md#search). `type=all` is a fixed-size preview
 * mixing both kinds (no pagination); `type=prediction|poll` paginates.
 */
import { z } from 'zod';
import { mapTopicItem } from '../../../mappers/topics.ts';
import { topicItemVisible, withoutHidden } from '../../../mappers/visibility.ts';
import { TopicList } from '../../contract/topics.ts';
import { fromOffsetPage } from '../../pagination/page.ts';
import * as platform from '../../upstream/api/platform.api.ts';
import type { TopicItem } from '../../upstream/internal-api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { Paging } from '../params.ts';
import { MechanismParam, pricingModelOf } from '../topics/list-topics.ts';

/**
 * docs/contract/reads.md#search: with `type=all` (also the default) `cursor` and `limit` are ignored, so they
 * are dropped before validation rather than refused when out of range.
 */
function ignorePagingOfPreview(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const { type } = raw as { type?: unknown };
  if (type !== undefined && type !== 'all') return raw;
  const { cursor: _cursor, limit: _limit, ...rest } = raw as Record<string, unknown>;
  return rest;
}

/** Items of each kind in the `type=all` preview (so at most twice this in all). */
export const SEARCH_PREVIEW_PER_KIND = 5;

export const searchTopics = defineOperation({
  name: 'search_topics',
  title: 'Search topics',
  description:
    'Searches predictions and polls by keyword. `type=all` (default) returns a short preview of both kinds with no pagination; ' +
    '`type=prediction` or `poll` pages through one kind. Returns topic cards; get_topic gives the detail.',
  scope: 'read',
  kind: 'read',
  limit: 'search',
  localised: true,
  rest: { method: 'GET', path: '/search' },
  tag: 'Search',
  mcp: true,
  input: z.preprocess(
    ignorePagingOfPreview,
    z.strictObject({
      q: z.string().trim().min(1).max(100).meta({ description: 'Keywords, 1 to 100 characters (surrounding spaces are ignored).' }),
      type: z.enum(['all', 'prediction', 'poll']).default('all').meta({
        description:
          '`all` (default): a fixed-size preview of both kinds, without pagination; `prediction` or `poll`: one kind, paginated.',
      }),
      mechanism: MechanismParam,
      cursor: Paging.cursor.meta({ description: 'Opaque cursor from a previous `next_cursor`. Ignored with `type=all`.' }),
      limit: Paging.limit.meta({ description: 'Page size, 1 to 100 (default 20). Ignored with `type=all`.' }),
    }),
  ),
  output: TopicList,
  async execute(ctx, input) {
    const m = mapContextOf(ctx);
    const pricingModel = pricingModelOf(input.mechanism);
    if (input.type === 'all') {
      const [markets, polls] = await Promise.all(
        (['MARKET', 'POLL'] as const).map((kind) =>
          platform.search(ctx.upstream, { kw: input.q, kind, pricingModel, offset: 0, limit: SEARCH_PREVIEW_PER_KIND }),
        ),
      );
      const a = (markets?.items ?? []).filter(topicItemVisible);
      const b = (polls?.items ?? []).filter(topicItemVisible);
      const mixed: TopicItem[] = [];
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (a[i] !== undefined) mixed.push(a[i] as TopicItem);
        if (b[i] !== undefined) mixed.push(b[i] as TopicItem);
      }
      return { body: { data: mixed.map((i) => mapTopicItem(i, m)), next_cursor: null, has_more: false } };
    }
    const offset = ctx.cursors.offsetOf(input.cursor);
    const kind = input.type === 'prediction' ? 'MARKET' : 'POLL';
    const page = await platform.search(ctx.upstream, { kw: input.q, kind, pricingModel, offset, limit: input.limit });
    return { body: fromOffsetPage(ctx.cursors, withoutHidden(page, topicItemVisible), offset, (i) => mapTopicItem(i, m)) };
  },
});
