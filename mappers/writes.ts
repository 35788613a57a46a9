/**
 * Results of the executing operations (docs/contract/writes.md#execution-results). `replayed` is the caller's knowledge (a
 * retry answered from the confirm claim store, or a write the backend marked `Idempotent-Replayed`;
 * src/confirm/execute-once.ts decides), so it is passed in.
 */
import { withAliases } from '../src/contract/aliases.ts';
import type { Back, Order, OwnerOpinion } from '../src/contract/index.ts';
import { pickText } from '../src/i18n/text.ts';
import type { PlacedBack, PlacedOrder, PublishedOpinion } from '../src/upstream/internal-api.ts';
import { urls, type MapContext } from './context.ts';
import { dec4, dec6, guaranteedPayout } from './decimal.ts';
import { mapOwnerOpinion } from './owner.ts';
import { toTimestamp } from './time.ts';

export function mapOrder(order: PlacedOrder, ctx: MapContext, replayed: boolean): Order {
  return {
    id: order.orderId,
    topic_id: order.marketId,
    option_id: order.outcomeId,
    option_label: pickText(order.outcomeLabel, ctx.lang),
    stake_coins: dec4(order.stake),
    units: dec4(order.shares),
    avg_price: dec6(order.avgPrice),
    ruby_multiplier: dec4(order.boostMultiplier),
    payout_if_correct_rubies: guaranteedPayout(order.shares, order.boostMultiplier),
    balance_after: dec4(order.coinBalance),
    created_at: toTimestamp(order.createdAt),
    url: urls.position(ctx, order.marketId),
    replayed,
  };
}

/** The back's url is the backed opinion's page. */
export function mapBack(back: PlacedBack, ctx: MapContext, replayed: boolean): Back {
  return withAliases({
    id: back.backId,
    opinion_id: back.opinionId,
    topic_id: back.marketId,
    seq: back.seq,
    price_coins: dec4(back.price),
    balance_after: dec4(back.coinBalance),
    max_relay_payback_rubies: dec4(back.maxRelayPayback),
    created_at: toTimestamp(back.createdAt),
    url: urls.opinion(ctx, back.marketId, back.opinionId),
    replayed,
  });
}

/** POST /opinions answers the owner's Opinion (docs/contract/writes.md#execution-results); fee and balance stay internal. */
export function mapPublishedOpinion(opinion: PublishedOpinion, ctx: MapContext): OwnerOpinion {
  return mapOwnerOpinion(opinion, ctx);
}
