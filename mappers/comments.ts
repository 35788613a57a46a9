/**
 * Top-level comments of both services → contract comments (docs/contract/resources.md#comment, docs/contract/reads.md#comments-list).
 *
 * List mappers keep only top-level comments that moderation has not blocked, even if the
 * backend sent others: replies are never inlined and blocked content never leaks.
 */
import type { z } from 'zod';
import type { AuthorPositionLabel, Comment, CommentList } from '../src/contract/index.ts';
import { pickText } from '../src/i18n/text.ts';
import type { Opinion, OpinionPage, PollComment, PollCommentPage } from '../src/upstream/internal-api.ts';
import { urls, type MapContext } from './context.ts';
import { toList } from './lists.ts';
import { visibleToOthers } from './visibility.ts';
import { toTimestamp } from './time.ts';
import { mapUserRef } from './users.ts';

const STANCE_LABEL: Readonly<Record<NonNullable<Opinion['authorStance']>['kind'], AuthorPositionLabel>> = {
  HOLDER: 'holder',
  SOLD: 'sold',
  CREATOR: 'creator',
};

/** An opinion on a prediction. */
export function mapPredictionComment(opinion: Opinion, ctx: MapContext): Comment {
  const stance = opinion.authorStance;
  return {
    id: opinion.opinionId,
    author: mapUserRef(opinion.author, ctx),
    content: pickText(opinion.content, ctx.lang),
    created_at: toTimestamp(opinion.createdAt),
    like_count: opinion.likeCount,
    reply_count: opinion.replyCount,
    is_creator_comment: opinion.isCreator,
    author_position: stance === null ? null : { label: STANCE_LABEL[stance.kind], option_name: pickText(stance.outcomeLabel, ctx.lang) },
    url: urls.opinion(ctx, opinion.marketId, opinion.opinionId),
  };
}

/** A comment on a poll; poll comments do not carry their poll's id, so the caller passes it. */
export function mapPollComment(comment: PollComment, pollId: string, ctx: MapContext): Comment {
  const vote = comment.authorVote;
  return {
    id: comment.commentId,
    author: mapUserRef(comment.author, ctx),
    content: pickText(comment.text, ctx.lang),
    created_at: toTimestamp(comment.createTime),
    like_count: comment.likeNum,
    reply_count: comment.replyNum,
    is_creator_comment: comment.byCreator,
    author_position: vote === null ? null : { label: 'voter', option_name: pickText(vote.text, ctx.lang) },
    url: urls.pollComment(ctx, pollId, comment.commentId),
  };
}

export function mapPredictionCommentList(page: z.infer<typeof OpinionPage>, ctx: MapContext, nextCursor: string | null): CommentList {
  const shown = page.items.filter((o) => o.parentId === null && visibleToOthers(o));
  return {
    ...toList(
      shown.map((o) => mapPredictionComment(o, ctx)),
      nextCursor,
    ),
    gated: false,
  };
}

/** A vote-gated page is empty and final (`gated: true`), whatever items came with it. */
export function mapPollCommentList(
  page: z.infer<typeof PollCommentPage>,
  pollId: string,
  ctx: MapContext,
  nextCursor: string | null,
): CommentList {
  if (page.locked) return { ...toList([], null), gated: true };
  const shown = page.items.filter((c) => c.parentId === null);
  return {
    ...toList(
      shown.map((c) => mapPollComment(c, pollId, ctx)),
      nextCursor,
    ),
    gated: false,
  };
}
