/**
 * POST /opinions/{opinion_id}/back-preview (MCP preview_back): docs/contract/writes.md#back-preview. Nothing is
 * charged. The token binds the opinion, its topic, and the seat and price the owner would take
 * now; back_opinion then buys that seat at that price or nothing.
 */
import { z } from 'zod';
import { mapBackSummary } from '../../../mappers/previews.ts';
import { BackPreview, BackPreviewRequest } from '../../contract/writes.ts';
import { ApiError } from '../../errors/api-error.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation, type OperationContext } from '../operation.ts';
import { OpinionId } from '../params.ts';
import { backReason } from './rules.ts';
import { CONFIRM_FLOW_NOTE, DecimalText, coinBalance, decimalText, isClosed, issueToken, opinionOnTopic } from './shared.ts';

export const PreviewBackInput = z.strictObject({
  opinion_id: OpinionId,
  ...BackPreviewRequest.shape,
});

/** What the token of a back preview binds, besides user, key and action. */
export const BackTokenParams = z.object({
  opinion_id: z.string(),
  topic_id: z.string(),
  /** The relay seat previewed (my_seq_if_now). */
  seq: z.int().positive(),
  /** Its price in coins, exact decimal text. */
  price: DecimalText,
});
export type BackTokenParams = z.infer<typeof BackTokenParams>;

export const previewBack = defineOperation({
  name: 'preview_back',
  title: 'Preview backing an opinion',
  description:
    "Checks whether the key owner can back another user's opinion (buy the next seat of its relay): `can_back`, a `summary` " +
    '(seat `my_seq_if_now`, `price_coins`, balances, `max_relay_payback_rubies` = the most this seat gets back if two more backers follow, nothing if none do) ' +
    'and, when possible, a `confirm_token` for back_opinion. `topic_id` is the topic of the opinion. ' +
    'Reasons: OPINION_INACTIVE, TOPIC_CLOSED, ALREADY_BACKED, OPINION_BACK_FULL, INSUFFICIENT_BALANCE. ' +
    CONFIRM_FLOW_NOTE,
  scope: 'write',
  kind: 'preview',
  localised: true,
  rest: { method: 'POST', path: '/opinions/{opinion_id}/back-preview' },
  tag: 'Backs',
  // The opinion is gone, inactive, hidden or on another topic.
  errors: ['OPINION_NOT_FOUND'],
  mcp: true,
  input: PreviewBackInput,
  output: BackPreview,
  async execute(ctx, input) {
    return { body: await preview(ctx, input) };
  },
});

async function preview(ctx: OperationContext, input: z.infer<typeof PreviewBackInput>): Promise<BackPreview> {
  const [opinion, balance] = await Promise.all([
    opinionOnTopic(ctx, input.opinion_id, input.topic_id, { active: false, notFound: () => new ApiError('OPINION_NOT_FOUND') }),
    coinBalance(ctx),
  ]);
  const relay = opinion.relay;
  const reason = backReason({
    inactive: !opinion.active || relay.broken,
    closed: isClosed(opinion.marketState, opinion.marketDeadline, ctx.services.now()),
    alreadyBacked: relay.viewerBacked || opinion.author.userId === ctx.caller.userId,
    full: relay.backerCount >= relay.seatsMax,
    balance,
    price: relay.nextPrice,
  });
  const canBack = reason === null;
  const summary = mapBackSummary({ opinion, balanceCoins: balance, canBack }, mapContextOf(ctx));
  if (!canBack) return { can_back: false, summary, reason };

  const params: BackTokenParams = {
    opinion_id: opinion.opinionId,
    topic_id: opinion.marketId,
    seq: relay.nextSeq,
    price: decimalText(relay.nextPrice),
  };
  return { can_back: true, summary, ...issueToken(ctx, 'back_opinion', params) };
}
