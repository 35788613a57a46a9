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
    'Returns one topic (prediction or poll) in full: the card fields plus description, images, category, attribution, ' +
    'and for predictions the mechanism, stake rules (min/max/default coins), ruby boost and each option\'s current ' +
    '`implied_price`. `topic_id` comes from list_topics, search_topics or a watchlist/position. Optional `type` ' +
    '(prediction or poll) is a hint of which kind to look up first.',
  scope: 'read',
  kind: 'read',
  localised: true,
  rest: { method: 'GET', path: '/topics/{topic_id}' },
  mcp: true,
  input: z.object({
    topic_id: TopicId,
    type: z.enum(['prediction', 'poll']).optional().meta({ description: 'Hint: which kind of topic to look up first.' }),
  }),
  pathParams: ['topic_id'],
  output: TopicDetail,
  async execute(ctx, input) {
    const topic = await resolveTopic(ctx.upstream, input.topic_id, input.type ?? 'prediction');
    const m = mapContextOf(ctx);
    return { body: topic.type === 'prediction' ? mapPredictionDetail(topic.market, m) : mapPollDetail(topic.poll, m) };
  },
});
