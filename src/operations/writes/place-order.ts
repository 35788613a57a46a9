/**
 * POST /orders (MCP place_order): executes a previewed order, once. (docs/contract/writes.md#execution-results): 201 with the
 * Order on the first success, 200 with the same Order and `replayed: true` on a retry with the
 * same token. The backend enforces the order rules atomically (closed, already staked, range,
 * balance), so nothing is re-checked here; the slippage bound travels as `minShares`.
 */
import { mapOrder } from '../../../mappers/writes.ts';
import { Order } from '../../contract/writes.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineExecution, performed } from './define-execution.ts';
import { OrderTokenParams } from './preview-order.ts';
import { minShares } from './rules.ts';
import { EXECUTION_NOTE, idempotencyKey } from './shared.ts';

export const placeOrder = defineExecution({
  name: 'place_order',
  title: 'Place a previewed order',
  description:
    'Places the order previewed by preview_order, spending exactly its `stake_coins`, and returns the Order (units, average price, ruby multiplier, payout if correct, balance after). ' +
    EXECUTION_NOTE +
    'Market moved more than 1% of the units since the quote: 409 TOPIC_QUOTE_EXPIRED, nothing charged: preview and ask again. ' +
    'A retry with the same token never orders twice: it answers the same Order with `replayed: true`. ' +
    'The option is named in the language of the preview, which the token carries.',
  action: 'place_order',
  retry: 'replay',
  localised: 'preview',
  path: '/orders',
  tag: 'Orders',
  errors: [
    'CONFIRM_TOKEN_INVALID',
    'TOPIC_ALREADY_STAKED',
    'TOPIC_CLOSED',
    'MECHANISM_UNSUPPORTED',
    'TOPIC_MECHANISM_MISMATCH',
    'TOPIC_QUOTE_EXPIRED',
    'TOPIC_QUOTE_INVALID',
    'RETRY_IDEMPOTENCY_KEY',
    'STAKE_OUT_OF_RANGE',
    'INSUFFICIENT_BALANCE',
    'CONFIRM_TOKEN_EXPIRED',
    'USER_PUNISHED',
  ],
  output: Order,
  params: OrderTokenParams,
  audit: { targets: { topic_id: 'topic_id', option_id: 'option_id' }, coins: { stake: 'stake' }, reference: 'id' },
  async run(ctx, p, claims) {
    const placed = await prediction.placeOrder(
      ctx.upstream,
      { marketId: p.topic_id, outcomeId: p.option_id, stake: p.stake, minShares: minShares(p.units) },
      idempotencyKey('order', claims),
    );
    // The Order names the option in the language of the preview the user confirmed.
    return performed(mapOrder(placed.data, mapContextOf(ctx, p.lang), false), placed);
  },
});
