/**
 * POST /backs (MCP back_opinion): buys the previewed relay seat, once. (docs/contract/writes.md#execution-results): 201 with
 * the Back on the first success, 200 with the same Back and `replayed: true` on a retry with the
 * same token. The backend buys the seat only if it is still the previewed seat at the previewed
 * price (otherwise 409 OPINION_BACK_PRICE_MOVED), and enforces every other rule atomically.
 */
import { mapBack } from '../../../mappers/writes.ts';
import { Back } from '../../contract/writes.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineExecution, performed } from './define-execution.ts';
import { BackTokenParams } from './preview-back.ts';
import { EXECUTION_NOTE, idempotencyKey } from './shared.ts';

export const backOpinion = defineExecution({
  name: 'back_opinion',
  title: 'Back a previewed opinion',
  description:
    'Backs the opinion previewed by preview_back: buys the previewed seat at its `price_coins` and returns the Back (`seq`, price, balance after, maximum relay payback). ' +
    EXECUTION_NOTE +
    'Seat taken first by someone else: 409 OPINION_BACK_PRICE_MOVED, nothing charged: preview and ask again. ' +
    'A retry with the same token never backs twice: it answers the same Back with `replayed: true`.',
  action: 'back_opinion',
  retry: 'replay',
  localised: false,
  path: '/backs',
  tag: 'Backs',
  errors: [
    'CONFIRM_TOKEN_INVALID',
    'OPINION_NOT_FOUND',
    'OPINION_ALREADY_BACKED',
    'OPINION_BACK_PRICE_MOVED',
    'OPINION_BACK_FULL',
    'OPINION_BACK_CHAIN_BROKEN',
    'TOPIC_CLOSED',
    'RETRY_IDEMPOTENCY_KEY',
    'INSUFFICIENT_BALANCE',
    'OPINION_BACK_RETRY',
    'CONFIRM_TOKEN_EXPIRED',
    'USER_PUNISHED',
  ],
  output: Back,
  params: BackTokenParams,
  audit: { targets: { topic_id: 'topic_id', opinion_id: 'opinion_id' }, coins: { price: 'price' }, reference: 'id' },
  async run(ctx, p, claims) {
    const placed = await prediction.backOpinion(
      ctx.upstream,
      p.opinion_id,
      { expectedSeq: p.seq, expectedPrice: Number(p.price) },
      idempotencyKey('back', claims),
    );
    return performed(mapBack(placed.data, mapContextOf(ctx), false), placed);
  },
});
