/**
 * Amounts arrive as binary floats; the contract wants exact decimal strings (docs/contract/resources.md#decimals).
 *
 * Rule: take the float's shortest round-trip decimal (what String(x) prints, which is what
 * `new Big(x)` reads), then round that decimal to the wanted places, half away from zero, in
 * decimal arithmetic. So 0.1 + 0.2 (0.30000000000000004) gives "0.3000", 0.00005 gives
 * "0.0001", and no float operation ever touches the value. Negative zero prints unsigned.
 */
import Big from 'big.js';

/** A private constructor, so that configuration changes elsewhere cannot alter our results. */
const Dec = Big();

export type RoundingMode = 'half-up' | 'down' | 'up' | 'half-even';

const MODES: Readonly<Record<RoundingMode, Big.RoundingMode>> = {
  'half-up': Dec.roundHalfUp, // halves away from zero: -0.00005 → -0.0001
  down: Dec.roundDown, // towards zero
  up: Dec.roundUp, // away from zero
  'half-even': Dec.roundHalfEven,
};

export type DecimalSource = Big | number | string;

/** An exact decimal from a float (its shortest round-trip form), a decimal string or a Big. */
export function toBig(value: DecimalSource): Big {
  return new Dec(value);
}

/**
 * A float whose shortest decimal already has at most `places` decimals (whole coins, 12.5,
 * 0.25) needs no rounding in any mode: its text padded with zeros is what big.js would print.
 * Most amounts are such floats, and skipping big.js for them pays on reads that carry many
 * (docs/performance.md, kept optimisations). Anything else, exponent notation included (1e21,
 * 1e-7), goes to big.js; so do values that are not finite, which big.js refuses.
 */
export function withoutRounding(value: number, places: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  if (text.includes('e')) return null;
  const dot = text.indexOf('.');
  const decimals = dot < 0 ? 0 : text.length - dot - 1;
  if (decimals > places) return null;
  if (places === 0) return text;
  return dot < 0 ? `${text}.${'0'.repeat(places)}` : `${text}${'0'.repeat(places - decimals)}`;
}

/** `value` rounded to exactly `places` decimals, as a string such as "-12.3400". */
export function decFixed(value: DecimalSource, places: number, mode: RoundingMode = 'half-up'): string {
  if (typeof value === 'number') {
    const plain = withoutRounding(value, places);
    if (plain !== null) return plain;
  }
  const text = toBig(value).toFixed(places, MODES[mode]);
  // big.js keeps the sign of a result that rounds to zero ("-0.0000"); the contract does not.
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/** Coins, gems, rubies, prices and probabilities: 4 places, half away from zero. */
export function dec4(value: DecimalSource): string {
  return decFixed(value, 4);
}

/** `avg_price` only: 6 places, half away from zero. */
export function dec6(value: DecimalSource): string {
  return decFixed(value, 6);
}

/** dec4, or null when the backend gave none. */
export function dec4OrNull(value: DecimalSource | null): string | null {
  return value === null ? null : dec4(value);
}

/** Division runs on its own constructor: 30 places truncated, then rounded once (see decRatio). */
const Quotient = Big();
Quotient.DP = 30;
Quotient.RM = Quotient.roundDown;

/**
 * numerator / denominator rounded to `places`, half away from zero; null when the denominator is
 * zero. Truncating the quotient to 30 places first cannot move it across a rounding boundary
 * that has at most 30 places, so the single rounding after it is exact.
 */
export function decRatio(numerator: DecimalSource, denominator: DecimalSource, places: number): string | null {
  const d = new Quotient(denominator);
  if (d.eq(0)) return null;
  return decFixed(new Quotient(numerator).div(d), places);
}

/** a × b rounded to `places` (half away from zero unless said); the product itself is exact. */
export function decProduct(a: DecimalSource, b: DecimalSource, places: number = 4, mode: RoundingMode = 'half-up'): string {
  return decFixed(toBig(a).times(toBig(b)), places, mode);
}

/**
 * A guaranteed minimum payout (units × multiplier, docs/contract/trading.md#payout): rounded down, so the
 * figure shown is never more than what will be paid.
 */
export function guaranteedPayout(units: DecimalSource, multiplier: DecimalSource): string {
  return decProduct(units, multiplier, 4, 'down');
}

/** a − b rounded to `places` (half away from zero); the difference itself is exact. */
export function decDifference(a: DecimalSource, b: DecimalSource, places: number = 4): string {
  return decFixed(toBig(a).minus(toBig(b)), places);
}
