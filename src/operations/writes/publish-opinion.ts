/**
 * POST /opinions (MCP publish_opinion): publishes a previewed opinion. Strictly single use
 * (SPEC 1.2): any second presentation of the token is 409 CONFIRM_TOKEN_USED. The answer is
 * the owner's Opinion of DECISIONS 3 with `replayed: false` (DECISIONS 4: the first success
 * carries it; there is never a replay).
 */
import { mapPublishedOpinion } from '../../../mappers/writes.ts';
import { ConfirmRequest, PublishedOpinion } from '../../contract/writes.ts';
import { executeOnce } from '../../confirm/execute-once.ts';
import { ApiError } from '../../errors/api-error.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { OpinionTokenParams } from './preview-opinion.ts';
import { boundParams, confirmDeps, decimalText, idempotencyKey } from './shared.ts';

export const publishOpinion = defineOperation({
  name: 'publish_opinion',
  title: 'Publish a previewed opinion',
  description:
    'Publishes the opinion shown by `preview_opinion`, charging the previewed `fee_coins`, and returns the published opinion (id, topic, content, side, reply_to, url). ' +
    'Call it only after the user has seen the preview summary and explicitly confirmed it, and with only the `confirm_token` from that preview (valid 5 minutes; the text cannot be changed here: preview again instead). ' +
    'The token is strictly single use: a second call with it answers 409 CONFIRM_TOKEN_USED even if the first call\'s answer was lost, so check `list_my_opinions` before publishing again. ' +
    'If the user\'s position changed since the preview it answers 400 OPINION_SIDE_REQUIRED or OPINION_SIDE_INVALID.',
  scope: 'write',
  kind: 'execute',
  localised: true,
  rest: { method: 'POST', path: '/opinions' },
  mcp: true,
  input: ConfirmRequest,
  output: PublishedOpinion,
  async execute(ctx, input) {
    const done = await executeOnce(confirmDeps(ctx), 'publish_opinion', input.confirm_token, ctx.caller, async (claims) => {
      const p = boundParams(OpinionTokenParams, claims);
      const [holdings, market] = await Promise.all([
        prediction.listHoldings(ctx.upstream, ctx.caller.userId, { marketId: p.topic_id, offset: 0, limit: 10 }),
        prediction.getMarket(ctx.upstream, p.topic_id),
      ]);
      // The side bound at preview must still be the owner's position (the backend checks it too).
      const held = holdings.items.filter((h) => h.marketId === p.topic_id && !h.sold);
      if (held.length === 0) throw new ApiError('OPINION_SIDE_REQUIRED');
      if (!held.every((h) => h.outcomeId === p.side_option_id)) throw new ApiError('OPINION_SIDE_INVALID');
      // The fee previewed is the fee charged; a fee changed since then needs a new preview.
      if (decimalText(market.opinionFee) !== p.fee) {
        throw new ApiError('TOPIC_QUOTE_INVALID', { message: 'The opinion fee changed since the preview; preview the opinion again.' });
      }
      const published = await prediction.publishOpinion(
        ctx.upstream,
        p.topic_id,
        { content: p.content, replyToOpinionId: p.reply_to_opinion_id, sideOutcomeId: p.side_option_id },
        idempotencyKey('opinion', claims),
      );
      return mapPublishedOpinion(published, mapContextOf(ctx));
    });
    return { status: done.status, body: { ...done.body, replayed: false as const } };
  },
});
