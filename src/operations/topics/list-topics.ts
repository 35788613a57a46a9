/**
 * GET /topics (docs/contract/reads.md#list-topics). Predictions and polls are separate
 * lists from separate services, never mixed. Poll-only misuse is refused, naming the parameter.
 */
import { z } from 'zod';
import { mapPollCard, mapPredictionCard } from '../../../mappers/topics.ts';
import { UuidInput } from '../../contract/common.ts';
import { TopicList } from '../../contract/topics.ts';
import { invalidArgument } from '../../errors/api-error.ts';
import { fromOffsetPage } from '../../pagination/page.ts';
import * as poll from '../../upstream/api/poll.api.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import type { MarketState, PricingModel } from '../../upstream/internal-api.ts';
import { visibleToOthers, withoutHidden } from '../../../mappers/visibility.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { Paging, TopicTypeParam } from '../params.ts';

const STATUS_TO_STATE: Record<'open' | 'closed' | 'resolved' | 'refunded', MarketState> = {
  open: 'ACTIVE',
  closed: 'EXPIRED',
  resolved: 'SETTLED',
  refunded: 'REFUNDED',
};
const SORTS = { trending: 'HOT', newest: 'NEW', ending_soon: 'ENDING' } as const;

export const MechanismParam = z.enum(['v21_lmsr', 'v2_share', 'all']).default('v21_lmsr').meta({
  description:
    'Trading mechanism of predictions: `v21_lmsr` (default, tradable), `v2_share` (legacy, read-only) or `all`. Polls have none.',
});

export function pricingModelOf(mechanism: z.infer<typeof MechanismParam>): PricingModel | undefined {
  return mechanism === 'all' ? undefined : mechanism === 'v21_lmsr' ? 'LMSR' : 'SHARE_POOL';
}

export const listTopics = defineOperation({
  name: 'list_topics',
  title: 'List topics',
  description:
    'Lists topic cards of one kind, predictions (default) or polls, never mixed, with a cursor for the next page. ' +
    'Browse, filter (status, sort, zone, category, mechanism) and then call get_topic with a card `id` for the detail.',
  scope: 'read',
  kind: 'read',
  localised: true,
  rest: { method: 'GET', path: '/topics' },
  tag: 'Topics',
  mcp: true,
  input: z.strictObject({
    type: TopicTypeParam,
    sort: z.enum(['trending', 'newest', 'ending_soon']).default('trending').meta({
      description: 'Order of the list. `ending_soon`: predictions only (400 with `type=poll`).',
    }),
    status: z.enum(['open', 'closed', 'resolved', 'refunded']).default('open').meta({
      description:
        'Topic status to list (default open). `resolving` is not filterable: omit status instead. Polls: `open` only (400 otherwise).',
    }),
    zone: z.string().min(1).max(64).optional().meta({
      description:
        'Zone slug, as in the `zone` field of prediction cards (REST also lists zones at GET /zones); predictions only (400 with `type=poll`).',
    }),
    category_id: UuidInput.optional().meta({ description: 'Category id from list_topic_categories.' }),
    mechanism: MechanismParam,
    ...Paging,
  }),
  output: TopicList,
  async execute(ctx, input) {
    const offset = ctx.cursors.offsetOf(input.cursor);
    const m = mapContextOf(ctx);
    if (input.type === 'poll') {
      if (input.sort === 'ending_soon') throw invalidArgument('sort', 'sort: ending_soon applies to predictions only.');
      if (input.zone !== undefined) throw invalidArgument('zone', 'zone: zones apply to predictions only.');
      if (input.status !== 'open') throw invalidArgument('status', 'status: polls can only be listed with status=open.');
      const page = await poll.listPolls(ctx.upstream, {
        state: 1,
        sort: input.sort === 'newest' ? 'NEW' : 'HOT',
        categoryId: input.category_id,
        offset,
        limit: input.limit,
      });
      return { body: fromOffsetPage(ctx.cursors, withoutHidden(page, visibleToOthers), offset, (p) => mapPollCard(p, m)) };
    }
    const page = await prediction.listMarkets(ctx.upstream, {
      state: STATUS_TO_STATE[input.status],
      sort: SORTS[input.sort],
      zone: input.zone,
      categoryId: input.category_id,
      pricingModel: pricingModelOf(input.mechanism),
      offset,
      limit: input.limit,
    });
    return { body: fromOffsetPage(ctx.cursors, withoutHidden(page, visibleToOthers), offset, (x) => mapPredictionCard(x, m)) };
  },
});
