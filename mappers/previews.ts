/**
 * Summaries of the three previews (docs/contract/writes.md#previews). Deciding whether an action is
 * possible, and which reason wins, is the preview operation's job; these only render the
 * figures once it has decided, so that every caller writes the same decimals the same way.
 */
import { withAliases } from '../src/contract/aliases.ts';
import type { BackSummary, OpinionSummary, OrderSummary } from '../src/contract/index.ts';
import { pickText } from '../src/i18n/text.ts';
import type { MarketDetail, Opinion, OpinionDetail, Quote } from '../src/upstream/internal-api.ts';
import type { MapContext } from './context.ts';
import { dec4, dec6, decDifference, guaranteedPayout } from './decimal.ts';
import { mechanism } from './enums.ts';
import { excerpt } from './text.ts';
import { toTimestamp } from './time.ts';
import { mapUserRef } from './users.ts';

export type OrderSummaryInput = {
  market: MarketDetail;
  outcome: MarketDetail['outcomes'][number];
  /** The requested amount, or the topic's default when omitted; never clamped. */
  stakeCoins: number;
  balanceCoins: number;
  /**
   * The backend's quote, or null where the fill figures are not meaningful
   * (STAKE_OUT_OF_RANGE, MECHANISM_UNSUPPORTED): they are then empty strings.
   */
  quote: Quote | null;
  /** Whether the order can be placed; when not, the balance is shown unchanged. */
  canPlace: boolean;
};

export function mapOrderSummary(input: OrderSummaryInput, ctx: MapContext): OrderSummary {
  const { market, outcome, quote } = input;
  const balanceBefore = dec4(input.balanceCoins);
  return {
    topic_title: pickText(market.title, ctx.lang),
    option_label: pickText(outcome.label, ctx.lang),
    stake_coins: dec4(input.stakeCoins),
    balance_before: balanceBefore,
    balance_after: input.canPlace ? decDifference(input.balanceCoins, input.stakeCoins) : balanceBefore,
    price_now: dec4(quote === null ? outcome.price : quote.priceBefore),
    price_after: quote === null ? '' : dec4(quote.priceAfter),
    payout_if_correct_rubies: quote === null ? '' : guaranteedPayout(quote.shares, quote.boostMultiplier),
    ruby_multiplier: quote === null ? '' : dec4(quote.boostMultiplier),
    avg_price: quote === null ? '' : dec6(quote.avgPrice),
    close_time: toTimestamp(market.deadline),
    mechanism: mechanism(market.pricingModel),
  };
}

export type OpinionSummaryInput = {
  market: MarketDetail;
  content: string;
  /** The option of the owner's position, or null without one. */
  sideOutcome: MarketDetail['outcomes'][number] | null;
  replyTo: Opinion | null;
  balanceCoins: number;
  canPublish: boolean;
};

export function mapOpinionSummary(input: OpinionSummaryInput, ctx: MapContext): OpinionSummary {
  const { market, replyTo } = input;
  return {
    topic_title: pickText(market.title, ctx.lang),
    fee_coins: dec4(market.opinionFee),
    balance_after: input.canPublish ? decDifference(input.balanceCoins, market.opinionFee) : dec4(input.balanceCoins),
    side_option_label: input.sideOutcome === null ? '' : pickText(input.sideOutcome.label, ctx.lang),
    content_preview: excerpt(input.content),
    reply_to: replyTo === null ? null : { id: replyTo.opinionId, excerpt: excerpt(pickText(replyTo.content, ctx.lang)) },
  };
}

export type BackSummaryInput = {
  opinion: OpinionDetail;
  balanceCoins: number;
  canBack: boolean;
};

export function mapBackSummary(input: BackSummaryInput, ctx: MapContext): BackSummary {
  const { opinion } = input;
  const relay = opinion.relay;
  const balanceBefore = dec4(input.balanceCoins);
  return withAliases({
    topic_title: pickText(opinion.marketTitle, ctx.lang),
    opinion_excerpt: excerpt(pickText(opinion.content, ctx.lang)),
    author: mapUserRef(opinion.author, ctx),
    backer_count: relay.backerCount,
    my_seq_if_now: relay.nextSeq,
    price_coins: dec4(relay.nextPrice),
    balance_before: balanceBefore,
    balance_after: input.canBack ? decDifference(input.balanceCoins, relay.nextPrice) : balanceBefore,
    max_relay_payback_rubies: dec4(relay.maxRelayPayback),
    close_time: toTimestamp(opinion.marketDeadline),
  });
}
