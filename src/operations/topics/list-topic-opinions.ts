import { z } from 'zod';
import { mapPollCommentList, mapPredictionCommentList } from '../../../mappers/comments.ts';
import { CommentList } from '../../contract/comments.ts';
import { invalidArgument } from '../../errors/api-error.ts';
import { nextKeysetCursor } from '../../pagination/page.ts';
import * as poll from '../../upstream/api/poll.api.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { hasUpstreamCode } from '../../upstream/errors.ts';
import { UpstreamErrCode } from '../../upstream/internal-api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { Paging, TopicId } from '../params.ts';
import { resolveTopic } from './resolve-topic.ts';

export const listTopicOpinions = defineOperation({
  name: 'list_topic_opinions',
  title: 'List opinions on a topic',
  description:
    "Top-level opinions (comments) of a topic, newest first, with author, likes, reply count and the author's position. " +
    'A vote-gated poll answers empty `data` with `gated: true`. An opinion `id` is the `opinion_id` of preview_back.',
  scope: 'read',
  kind: 'read',
  localised: true,
  rest: { method: 'GET', path: '/topics/{topic_id}/comments' },
  tag: 'Topics',
  mcp: true,
  input: z.strictObject({ topic_id: TopicId, ...Paging }),
  output: CommentList,
  async execute(ctx, input) {
    const codec = ctx.cursors;
    const before = codec.beforeOf(input.cursor);
    const topic = await resolveTopic(ctx.upstream, input.topic_id);
    const m = mapContextOf(ctx);
    if (topic.type === 'prediction') {
      const page = await prediction
        .listMarketOpinions(ctx.upstream, input.topic_id, { before, limit: input.limit })
        .catch(staleCursor(before));
      return {
        body: mapPredictionCommentList(
          page,
          m,
          nextKeysetCursor(codec, page, (o) => o.opinionId),
        ),
      };
    }
    const page = await poll.listPollComments(ctx.upstream, input.topic_id, { before, limit: input.limit }).catch(staleCursor(before));
    return {
      body: mapPollCommentList(
        page,
        input.topic_id,
        m,
        nextKeysetCursor(codec, page, (c) => c.commentId),
      ),
    };
  },
});

/**
 * A keyset cursor names the last comment seen. The backend refuses (10001) a `before` that is
 * not in this topic's list: a cursor from another topic's comments, or one whose comment has
 * since gone. That is the caller's cursor at fault, so `400` on `cursor`, never a `500`.
 */
function staleCursor(before: string | undefined) {
  return (err: unknown): never => {
    if (before !== undefined && hasUpstreamCode(err, UpstreamErrCode.BAD_REQUEST)) {
      throw invalidArgument('cursor', "cursor: not a cursor of this topic's comments (use next_cursor as returned).");
    }
    throw err;
  };
}
