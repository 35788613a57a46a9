/**
 * POST /topics/{topic_id}/opinion-preview (MCP preview_opinion): docs/contract/writes.md#opinion-preview. Nothing is
 * charged. The side is resolved from the owner's position, never declared by the client; the
 * token binds the topic, the (trimmed) text, the opinion replied to, the side and the fee.
 */
import { z } from 'zod';
import { mapOpinionSummary } from '../../../mappers/previews.ts';
import { hasForbiddenCharacters } from '../../contract/common.ts';
import { OpinionPreview, OpinionPreviewRequest } from '../../contract/writes.ts';
import { ApiError } from '../../errors/api-error.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation, type OperationContext } from '../operation.ts';
import { TopicId } from '../params.ts';
import { resolvePrediction } from '../topics/resolve-topic.ts';
import { normaliseContent, opinionDecision } from './rules.ts';
import { CONFIRM_FLOW_NOTE, DecimalText, coinBalance, decimalText, holdingsOn, isClosed, issueToken, opinionOnTopic } from './shared.ts';

export const PreviewOpinionInput = z.strictObject({
  topic_id: TopicId,
  ...OpinionPreviewRequest.shape,
});

/** What the token of an opinion preview binds, besides user, key and action. */
export const OpinionTokenParams = z.object({
  topic_id: z.string(),
  /** The text exactly as it will be published (trimmed). */
  content: z.string(),
  reply_to_opinion_id: z.string().nullable(),
  /** The outcome of the owner's position at preview time. */
  side_option_id: z.string(),
  /** The market's opinion fee at preview time, exact decimal text. */
  fee: DecimalText,
});
export type OpinionTokenParams = z.infer<typeof OpinionTokenParams>;

export const previewOpinion = defineOperation({
  name: 'preview_opinion',
  title: 'Preview an opinion on a prediction',
  description:
    'Checks whether the key owner can publish an opinion on a prediction they hold a position on: `can_publish`, a `summary` ' +
    '(`fee_coins` charged on publishing, `balance_after`, `side_option_label` = their staked option, never chosen) and, when possible, a `confirm_token` for publish_opinion. ' +
    "`content`: the user's text, 1 to 500 characters, no control or bidirectional formatting characters; `reply_to_opinion_id`: optional, an opinion of the same topic. " +
    'Reasons: TOPIC_CLOSED, NO_POSITION, SIDE_REQUIRED, CONTENT_INVALID, INSUFFICIENT_BALANCE (the fee is above the balance). ' +
    CONFIRM_FLOW_NOTE,
  scope: 'write',
  kind: 'preview',
  localised: true,
  rest: { method: 'POST', path: '/topics/{topic_id}/opinion-preview' },
  tag: 'Opinions',
  // The opinion replied to is gone, hidden or on another topic.
  errors: ['OPINION_NOT_FOUND'],
  mcp: true,
  input: PreviewOpinionInput,
  output: OpinionPreview,
  async execute(ctx, input) {
    return { body: await preview(ctx, input) };
  },
});

async function preview(ctx: OperationContext, input: z.infer<typeof PreviewOpinionInput>): Promise<OpinionPreview> {
  const market = await resolvePrediction(ctx.upstream, input.topic_id);
  const replyToId = input.reply_to_opinion_id ?? null;
  const [replyTo, balance, holdings] = await Promise.all([
    replyToId === null
      ? Promise.resolve(null)
      : opinionOnTopic(ctx, replyToId, market.marketId, { active: true, notFound: opinionNotFound }),
    coinBalance(ctx),
    holdingsOn(ctx, market.marketId),
  ]);
  const content = normaliseContent(input.content);
  // Judged on the text as sent, so that no such character is ever silently dropped by the trim.
  const forbiddenCharacters = hasForbiddenCharacters(input.content);
  const { reason, sideOutcomeId } = opinionDecision({
    closed: isClosed(market.state, market.deadline, ctx.services.now()),
    holdings,
    outcomeIds: market.outcomes.map((o) => o.outcomeId),
    content,
    forbiddenCharacters,
    balance,
    fee: market.opinionFee,
  });
  const sideOutcome = market.outcomes.find((o) => o.outcomeId === sideOutcomeId) ?? null;
  const canPublish = reason === null;
  const shown = forbiddenCharacters ? defused(content) : content;
  const summary = mapOpinionSummary({ market, content: shown, sideOutcome, replyTo, balanceCoins: balance, canPublish }, mapContextOf(ctx));
  if (!canPublish) return { can_publish: false, summary, reason };
  if (sideOutcome === null) return { can_publish: false, summary, reason: 'SIDE_REQUIRED' };

  const params: OpinionTokenParams = {
    topic_id: market.marketId,
    content,
    reply_to_opinion_id: replyTo?.opinionId ?? null,
    side_option_id: sideOutcome.outcomeId,
    fee: decimalText(market.opinionFee),
  };
  return { can_publish: true, summary, ...issueToken(ctx, 'publish_opinion', params) };
}

function opinionNotFound(): ApiError {
  return new ApiError('OPINION_NOT_FOUND', {
    message: 'reply_to_opinion_id: no such opinion on this topic.',
    details: { field: 'reply_to_opinion_id' },
  });
}

/**
 * The text with each control or bidirectional formatting character replaced by U+FFFD, for
 * `content_preview`: the preview shows where the text is refused without echoing characters
 * that could reorder or restyle what the user reads.
 */
export function defused(text: string): string {
  return Array.from(text, (c) => (hasForbiddenCharacters(c) ? '\uFFFD' : c)).join('');
}
