/**
 * GET /search (SPEC 4.2 rule 7; DECISIONS.md section 1). `type=all` is a fixed-size preview
 * mixing both kinds (no pagination); `type=prediction|poll` paginates.
 */
import { z } from 'zod';
import { mapTopicItem } from '../../../mappers/topics.ts';
import { topicItemVisible } from '../../../mappers/visibility.ts';
import { TopicList } from '../../contract/topics.ts';
import { fromOffsetPage } from '../../pagination/page.ts';
import * as platform from '../../upstream/api/platform.api.ts';
import type { TopicItem } from '../../upstream/internal-api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { Paging } from '../params.ts';
import { MechanismParam, pricingModelOf } from '../topics/list-topics.ts';

/** Items of each kind in the `type=all` preview (so at most twice this in all). */
export const SEARCH_PREVIEW_PER_KIND = 5;

export const searchTopics = defineOperation({
  name: 'search_topics',
  title: 'Search topics',
  description:
    'Searches predictions and polls by keyword (`q`, 1–100 characters). With `type=all` (default) it returns a fixed-size ' +
    `preview mixing both kinds (up to ${SEARCH_PREVIEW_PER_KIND} of each; no pagination: cursor and limit are ignored). ` +
    'Use `type=prediction` or `type=poll` to page through one kind. Predictions default to the tradable v21_lmsr ' +
    'mechanism (`mechanism` to change). Returns topic cards; use get_topic with an `id` for detail.',
  scope: 'read',
  kind: 'read',
  localised: true,
  rest: { method: 'GET', path: '/search' },
  mcp: true,
  input: z.object({
    q: z
      .string()
      .trim()
      .min(1, 'required: 1 to 100 characters')
      .max(100, 'at most 100 characters')
      .meta({ description: 'Keywords, 1 to 100 characters.' }),
    type: z.enum(['all', 'prediction', 'poll']).default('all').meta({ description: '`all` (default preview), `prediction` or `poll`.' }),
    mechanism: MechanismParam,
    ...Paging,
  }),
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
    const offset = ctx.services.cursors.offsetOf(input.cursor);
    const kind = input.type === 'prediction' ? 'MARKET' : 'POLL';
    const page = await platform.search(ctx.upstream, { kw: input.q, kind, pricingModel, offset, limit: input.limit });
    const items = page.items.filter(topicItemVisible);
    return { body: fromOffsetPage(ctx.services.cursors, { items, total: page.total, seen: page.items.length }, offset, (i) => mapTopicItem(i, m)) };
  },
});
