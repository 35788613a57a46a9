import { z } from 'zod';
import { mapPriceHistory } from '../../../mappers/history.ts';
import { PriceHistory } from '../../contract/history.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { defineOperation } from '../operation.ts';
import { TopicId } from '../params.ts';
import { resolvePrediction } from './resolve-topic.ts';

const RANGES = { '1d': 'DAY', '1w': 'WEEK', all: 'ALL' } as const;

export const getPriceHistory = defineOperation({
  name: 'get_topic_price_history',
  title: "Get a prediction's probability history",
  description:
    'Probability of each option over time for a prediction, oldest point first; `range` 1d, 1w or all (default). A poll id is not found.',
  scope: 'read',
  kind: 'read',
  localised: false,
  rest: { method: 'GET', path: '/topics/{topic_id}/price-history' },
  tag: 'Topics',
  mcp: false,
  input: z.strictObject({
    topic_id: TopicId,
    range: z.enum(['1d', '1w', 'all']).default('all').meta({ description: 'Time range: 1d, 1w or all (default).' }),
  }),
  output: PriceHistory,
  async execute(ctx, input) {
    const market = await resolvePrediction(ctx.upstream, input.topic_id);
    const history = await prediction.getPriceHistory(ctx.upstream, input.topic_id, RANGES[input.range]);
    return {
      body: mapPriceHistory(
        history,
        market.outcomes.map((o) => o.outcomeId),
      ),
    };
  },
});
