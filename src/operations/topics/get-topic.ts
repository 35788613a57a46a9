import { z } from 'zod';
import { mapPollDetail, mapPredictionDetail } from '../../../mappers/topics.ts';
import { TopicDetail } from '../../contract/topics.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { TopicId } from '../params.ts';
import { resolveTopic } from './resolve-topic.ts';

export const getTopic = defineOperation({
  name: 'get_topic',
  title: 'Get a topic',
  description:
    'One topic in full: the card plus description, images, category and, for predictions, the mechanism, `stake_rules` ' +
    "(min/max/default coins), `ruby_boost` and each option's current `implied_price`. Read these before preview_order.",
  scope: 'read',
  kind: 'read',
  localised: true,
  rest: { method: 'GET', path: '/topics/{topic_id}' },
  tag: 'Topics',
  mcp: true,
  input: z.strictObject({
    topic_id: TopicId,
    type: z.enum(['prediction', 'poll']).optional().meta({ description: 'Hint: which kind of topic to look up first.' }),
  }),
  output: TopicDetail,
  async execute(ctx, input) {
    const topic = await resolveTopic(ctx.upstream, input.topic_id, input.type ?? 'prediction');
    const m = mapContextOf(ctx);
    return { body: topic.type === 'prediction' ? mapPredictionDetail(topic.market, m) : mapPollDetail(topic.poll, m) };
  },
});
