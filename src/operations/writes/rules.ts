/**
 * The preview rules (docs/contract/writes.md#previews), as pure functions: which reason wins, and the figures of an
 * order's fill. The operations gather the facts from the backend; these decide. docs/contract/writes.md
 * has the same tables in prose, and test/operations/writes/rules.test.ts holds them to it.
 */
import Big from 'big.js';
import type { BackPreviewReason, OpinionPreviewReason, OrderPreviewReason } from '../../contract/writes.ts';
import { dec4, decFixed, decRatio, toBig } from '../../../mappers/decimal.ts';
import type { Quote } from '../../upstream/internal-api.ts';

// ---------------------------------------------------------------------------------------------
// Orders

export interface OrderFacts {
  /** The market is not ACTIVE, or past its deadline. */
  closed: boolean;
  /** The owner has a holding on the market, sold ones included (docs/contract/trading.md#one-order). */
  staked: boolean;
  /** v2_share (SHARE_POOL) markets are readable only. */
  mechanismSupported: boolean;
  stake: number;
  minStake: number;
  maxStake: number;
  /** Coin balance, exact decimal text or float. */
  balance: number;
}

/**
 * The reason an order cannot be placed, or null when it can. Precedence (first wins):
 * TOPIC_CLOSED, ALREADY_STAKED, MECHANISM_UNSUPPORTED, STAKE_OUT_OF_RANGE, INSUFFICIENT_BALANCE.
 */
export function orderReason(f: OrderFacts): OrderPreviewReason | null {
  if (f.closed) return 'TOPIC_CLOSED';
  if (f.staked) return 'ALREADY_STAKED';
  if (!f.mechanismSupported) return 'MECHANISM_UNSUPPORTED';
  if (f.stake < f.minStake || f.stake > f.maxStake) return 'STAKE_OUT_OF_RANGE';
  if (toBig(f.balance).lt(f.stake)) return 'INSUFFICIENT_BALANCE';
  return null;
}

/** The fill figures of an order preview, as shown. */
export interface OrderFigures {
  price_now: string;
  price_after: string;
  avg_price: string;
  payout_if_correct_rubies: string;
  ruby_multiplier: string;
}

/** Exact ratio for the checks: 40 places, far beyond any figure compared. */
const Exact = Big();
Exact.DP = 40;

/** Relative disagreement tolerated between the backend's avgPrice float and stake ÷ units. */
const AVG_PRICE_TOLERANCE = '1e-9';

/**
 * The figures of a quote for `stake` coins, or null when the quote breaks the invariants an
 * order preview must show (the gateway then answers 503 PREVIEW_UNAVAILABLE rather than a wrong
 * preview):
 *
 * - units > 0, ruby multiplier >= 1, 0 < price_now < price_after <= 1;
 * - the backend's avgPrice agrees with stake ÷ units;
 * - price_now < stake ÷ units < price_after, exactly;
 * - and still strictly, once rounded for display.
 *
 * Rounding: price_now DOWN to 4 places and price_after UP to 4, so that the displayed range
 * always contains the true one; avg_price is stake ÷ units to 6 places, half away from zero, as
 * every avg_price of the contract (the Order's included), and would only fail the displayed
 * inequality if it lay within half a millionth of a 4-place bound (then 503, never a wrong
 * preview); payout_if_correct_rubies (units × multiplier, a guaranteed minimum) DOWN to 4.
 */
export function orderFigures(quote: Quote, stake: number): OrderFigures | null {
  const before = toBig(quote.priceBefore);
  const after = toBig(quote.priceAfter);
  const units = toBig(quote.shares);
  const multiplier = toBig(quote.boostMultiplier);
  if (units.lte(0) || multiplier.lt(1) || before.lte(0) || after.gt(1) || after.lte(before)) return null;

  const avg = new Exact(stake).div(new Exact(units.toString()));
  const reported = new Exact(toBig(quote.avgPrice).toString());
  if (reported.minus(avg).abs().gt(avg.times(AVG_PRICE_TOLERANCE))) return null;
  if (!(avg.gt(before) && avg.lt(after))) return null;

  const priceNow = decFixed(before, 4, 'down');
  const priceAfter = decFixed(after, 4, 'up');
  const avgPrice = decRatio(stake, units, 6) ?? '';
  if (!(toBig(avgPrice).gt(toBig(priceNow)) && toBig(avgPrice).lt(toBig(priceAfter)))) return null;

  return {
    price_now: priceNow,
    price_after: priceAfter,
    avg_price: avgPrice,
    payout_if_correct_rubies: decFixed(units.times(multiplier), 4, 'down'),
    ruby_multiplier: dec4(multiplier),
  };
}

/** Share of the quoted units an execution accepts to lose to price moves (1%). */
export const SLIPPAGE_TOLERANCE = '0.01';

/** The least units place_order accepts: quoted units × (1 − tolerance), rounded down to 4 places. */
export function minShares(quotedUnits: string, tolerance: string = SLIPPAGE_TOLERANCE): number {
  const one = toBig(1);
  return Number(decFixed(toBig(quotedUnits).times(one.minus(toBig(tolerance))), 4, 'down'));
}

// ---------------------------------------------------------------------------------------------
// Opinions

/** Longest opinion, in Unicode code points, after trimming surrounding white space. */
export const OPINION_MAX_CHARS = 500;

/** Opinion text as it will be published: trimmed (as the backend stores it). */
export function normaliseContent(content: string): string {
  return content.trim();
}

/** Length in Unicode code points (an emoji is one character, not two UTF-16 units). */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export interface OpinionFacts {
  closed: boolean;
  /** The owner's holdings on the market (sold ones included). */
  holdings: readonly { outcomeId: string; sold: boolean }[];
  /** The market's outcome ids. */
  outcomeIds: readonly string[];
  /** The normalised (trimmed) content. */
  content: string;
  /** The text holds control or bidirectional formatting characters (docs/contract/writes.md#text-rules). */
  forbiddenCharacters: boolean;
  /** Coin balance and the market's opinion fee, as the backend's floats. */
  balance: number;
  fee: number;
}

/**
 * The reason an opinion cannot be published (or null) and the side it would carry.
 * Precedence: TOPIC_CLOSED, NO_POSITION (no holding, or only one sold in the app: a sold
 * position is no longer held), SIDE_REQUIRED (holdings that name no single outcome of the
 * market), CONTENT_INVALID (empty or over 500 characters after trimming, or forbidden
 * characters), INSUFFICIENT_BALANCE (the fee is above the balance: no token for an opinion that
 * cannot be paid for). The balance comes last, as in the order and back previews: what the
 * user can fix only by writing or choosing differently is answered first.
 */
export function opinionDecision(f: OpinionFacts): { reason: OpinionPreviewReason | null; sideOutcomeId: string | null } {
  const held = f.holdings.filter((h) => !h.sold);
  const sides = [...new Set(held.map((h) => h.outcomeId))];
  const only = sides.length === 1 ? sides[0] : undefined;
  const side = only !== undefined && f.outcomeIds.includes(only) ? only : null;
  const length = codePoints(f.content);
  let reason: OpinionPreviewReason | null = null;
  if (f.closed) reason = 'TOPIC_CLOSED';
  else if (held.length === 0) reason = 'NO_POSITION';
  else if (side === null) reason = 'SIDE_REQUIRED';
  else if (f.forbiddenCharacters || length < 1 || length > OPINION_MAX_CHARS) reason = 'CONTENT_INVALID';
  else if (toBig(f.balance).lt(toBig(f.fee))) reason = 'INSUFFICIENT_BALANCE';
  return { reason, sideOutcomeId: side };
}

// ---------------------------------------------------------------------------------------------
// Backs

export interface BackFacts {
  /** The opinion was deleted by its author, or its relay was broken. */
  inactive: boolean;
  closed: boolean;
  /** The owner is already in the relay, or is the opinion's author. */
  alreadyBacked: boolean;
  full: boolean;
  balance: number;
  price: number;
}

/**
 * The reason a back cannot be placed, or null. Precedence: OPINION_INACTIVE, TOPIC_CLOSED,
 * ALREADY_BACKED, OPINION_BACK_FULL, INSUFFICIENT_BALANCE.
 */
export function backReason(f: BackFacts): BackPreviewReason | null {
  if (f.inactive) return 'OPINION_INACTIVE';
  if (f.closed) return 'TOPIC_CLOSED';
  if (f.alreadyBacked) return 'ALREADY_BACKED';
  if (f.full) return 'OPINION_BACK_FULL';
  if (toBig(f.balance).lt(toBig(f.price))) return 'INSUFFICIENT_BALANCE';
  return null;
}
