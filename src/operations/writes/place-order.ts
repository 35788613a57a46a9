/**
 * POST /orders (MCP place_order): executes a previewed order, once. DECISIONS 4: 201 with the
 * Order on the first success, 200 with the same Order and `replayed: true` on a retry with the
 * same token. The backend enforces the order rules atomically (closed, already staked, range,
 * balance), so nothing is re-checked here; the slippage bound travels as `minShares`.
 */
import { mapOrder } from '../../../mappers/writes.ts';
import { ConfirmRequest, Order } from '../../contract/writes.ts';
import { executeOnce } from '../../confirm/execute-once.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { defineOperation } from '../operation.ts';
import { OrderTokenParams } from './preview-order.ts';
import { minShares } from './rules.ts';
import { boundParams, confirmDeps, idempotencyKey } from './shared.ts';

export const placeOrder = defineOperation({
  name: 'place_order',
  title: 'Place a previewed order',
  description:
    'Places the order shown by `preview_order`, spending exactly the previewed `stake_coins`, and returns the Order (units bought, average price, ruby multiplier, guaranteed payout if correct, balance after). ' +
    'Call it only after the user has seen the preview summary and explicitly confirmed it, and with only the `confirm_token` from that preview (valid 5 minutes; the stake and option cannot be changed here: preview again instead). ' +
    'If the market moved against the quote by more than 1% of the units, it answers 409 TOPIC_QUOTE_EXPIRED and charges nothing: preview again and ask the user again. ' +
    'Safe to retry with the same token after a network failure: a retry never places a second order and answers the same Order with `replayed: true`.',
  scope: 'write',
  kind: 'execute',
  localised: false,
  rest: { method: 'POST', path: '/orders' },
  mcp: true,
  input: ConfirmRequest,
  output: Order,
  async execute(ctx, input) {
    const done = await executeOnce(confirmDeps(ctx), 'place_order', input.confirm_token, ctx.caller, async (claims) => {
      const p = boundParams(OrderTokenParams, claims);
      const placed = await prediction.placeOrder(
        ctx.upstream,
        { marketId: p.topic_id, outcomeId: p.option_id, stake: p.stake, minShares: minShares(p.units) },
        idempotencyKey('order', claims),
      );
      // The Order names the option in the language of the preview the user confirmed.
      return mapOrder(placed, { lang: p.lang, webBaseUrl: ctx.services.config.PUBLIC_WEB_URL }, false);
    });
    return { status: done.status, body: done.body };
  },
});

