/**
 * POST /backs (MCP back_opinion): buys the previewed relay seat, once. DECISIONS 4: 201 with
 * the Back on the first success, 200 with the same Back and `replayed: true` on a retry with the
 * same token. The backend buys the seat only if it is still the previewed seat at the previewed
 * price (otherwise 409 OPINION_BACK_PRICE_MOVED), and enforces every other rule atomically.
 */
import { mapBack } from '../../../mappers/writes.ts';
import { Back, ConfirmRequest } from '../../contract/writes.ts';
import { executeOnce } from '../../confirm/execute-once.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { BackTokenParams } from './preview-back.ts';
import { boundParams, confirmDeps, idempotencyKey } from './shared.ts';

export const backOpinion = defineOperation({
  name: 'back_opinion',
  title: 'Back a previewed opinion',
  description:
    'Backs the opinion shown by `preview_back`: buys the previewed relay seat at the previewed `price_coins` and returns the Back (seat `seq`, price, balance after, maximum relay payback). ' +
    'Call it only after the user has seen the preview summary and explicitly confirmed it, and with only the `confirm_token` from that preview (valid 5 minutes). ' +
    'If someone took the seat first, it answers 409 OPINION_BACK_PRICE_MOVED and charges nothing: preview again and ask the user again. ' +
    'Safe to retry with the same token after a network failure: a retry never backs twice and answers the same Back with `replayed: true`.',
  scope: 'write',
  kind: 'execute',
  localised: false,
  rest: { method: 'POST', path: '/backs' },
  mcp: true,
  input: ConfirmRequest,
  output: Back,
  async execute(ctx, input) {
    const done = await executeOnce(confirmDeps(ctx), 'back_opinion', input.confirm_token, ctx.caller, async (claims) => {
      const p = boundParams(BackTokenParams, claims);
      const placed = await prediction.backOpinion(
        ctx.upstream,
        p.opinion_id,
        { expectedSeq: p.seq, expectedPrice: Number(p.price) },
        idempotencyKey('back', claims),
      );
      return mapBack(placed, mapContextOf(ctx), false);
    });
    return { status: done.status, body: done.body };
  },
});
