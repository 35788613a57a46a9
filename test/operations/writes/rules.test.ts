/**
 * The preview rules as pure functions (src/operations/writes/rules.ts): the precedence tables
 * of docs/contract/writes.md, the order figures and their rounding, the slippage bound.
 */
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import {
  OPINION_MAX_CHARS,
  backReason,
  codePoints,
  minShares,
  normaliseContent,
  opinionDecision,
  orderFigures,
  orderReason,
  type BackFacts,
  type OrderFacts,
} from '../../../src/operations/writes/rules.ts';

describe('orderReason: TOPIC_CLOSED, ALREADY_STAKED, MECHANISM_UNSUPPORTED, STAKE_OUT_OF_RANGE, INSUFFICIENT_BALANCE', () => {
  const ok: OrderFacts = { closed: false, staked: false, mechanismSupported: true, stake: 10, minStake: 1, maxStake: 100, balance: 50 };
  const all: OrderFacts = { closed: true, staked: true, mechanismSupported: false, stake: 500, minStake: 1, maxStake: 100, balance: 5 };

  it('possible when nothing stands in the way', () => {
    expect(orderReason(ok)).toBeNull();
    expect(orderReason({ ...ok, stake: 50 })).toBeNull(); // balance exactly the stake
    expect(orderReason({ ...ok, stake: 1 })).toBeNull();
    expect(orderReason({ ...ok, stake: 100, balance: 100 })).toBeNull();
  });

  it.each([
    ['everything at once', all, 'TOPIC_CLOSED'],
    ['staked, v2, out of range, short', { ...all, closed: false }, 'ALREADY_STAKED'],
    ['v2, out of range, short', { ...all, closed: false, staked: false }, 'MECHANISM_UNSUPPORTED'],
    ['out of range (above) and short', { ...all, closed: false, staked: false, mechanismSupported: true }, 'STAKE_OUT_OF_RANGE'],
    ['out of range (below) and short', { ...ok, stake: 1, minStake: 5, balance: 0 }, 'STAKE_OUT_OF_RANGE'],
    ['short only', { ...ok, balance: 9.9999 }, 'INSUFFICIENT_BALANCE'],
    ['closed only', { ...ok, closed: true }, 'TOPIC_CLOSED'],
    ['closed and staked', { ...ok, closed: true, staked: true }, 'TOPIC_CLOSED'],
    ['closed v2', { ...ok, closed: true, mechanismSupported: false }, 'TOPIC_CLOSED'],
    ['staked and out of range', { ...ok, staked: true, stake: 1000 }, 'ALREADY_STAKED'],
    ['v2 and short', { ...ok, mechanismSupported: false, balance: 0 }, 'MECHANISM_UNSUPPORTED'],
    ['legacy 100..100 asked 50', { ...ok, stake: 50, minStake: 100, maxStake: 100, balance: 1e6 }, 'STAKE_OUT_OF_RANGE'],
  ])('%s → %s', (_name, facts, reason) => {
    expect(orderReason(facts as OrderFacts)).toBe(reason);
  });

  it('compares the balance exactly (no float drift)', () => {
    expect(orderReason({ ...ok, stake: 3, balance: 0.1 + 0.2 + 2.7 })).toBeNull(); // 3.0000000000000004
    expect(orderReason({ ...ok, stake: 3, balance: 2.9999999999999996 })).toBe('INSUFFICIENT_BALANCE');
  });
});

describe('orderFigures', () => {
  const quote = { priceBefore: 0.5, priceAfter: 0.75, shares: 15.8496, avgPrice: 10 / 15.8496, boostMultiplier: 1 };

  it('formats a sound quote with directed rounding', () => {
    const f = orderFigures(quote, 10);
    expect(f).toEqual({
      price_now: '0.5000',
      price_after: '0.7500',
      avg_price: '0.630931', // 10 / 15.8496 = 0.6309307…
      payout_if_correct_rubies: '15.8496',
      ruby_multiplier: '1.0000',
    });
  });

  it('rounds price_now down and price_after up', () => {
    const f = orderFigures({ ...quote, priceBefore: 0.53339, priceAfter: 0.70771 }, 10);
    expect(f?.price_now).toBe('0.5333');
    expect(f?.price_after).toBe('0.7078');
  });

  it('payout is units × multiplier, rounded down (a guaranteed minimum)', () => {
    expect(orderFigures({ ...quote, boostMultiplier: 2 }, 10)?.payout_if_correct_rubies).toBe('31.6992');
    expect(orderFigures({ ...quote, shares: 15.8497, avgPrice: 10 / 15.8497, boostMultiplier: 1.5 }, 10)?.payout_if_correct_rubies).toBe(
      '23.7745',
    ); // 23.77455
    expect(orderFigures({ ...quote, boostMultiplier: 1.5 }, 10)?.ruby_multiplier).toBe('1.5000');
  });

  it.each([
    ['no units', { ...quote, shares: 0, avgPrice: 0 }],
    ['a multiplier below 1', { ...quote, boostMultiplier: 0.5 }],
    ['a price that falls when buying', { ...quote, priceAfter: 0.45 }],
    ['a price that stays', { ...quote, priceAfter: 0.5 }],
    ['a zero price', { ...quote, priceBefore: 0 }],
    ['avg below price_now', { ...quote, shares: 25, avgPrice: 0.4 }],
    ['avg above price_after', { ...quote, shares: 12, avgPrice: 10 / 12 }],
    ['an avgPrice disagreeing with stake ÷ units', { ...quote, avgPrice: 0.6 }],
  ])('refuses %s (null → 503 PREVIEW_UNAVAILABLE)', (_name, q) => {
    expect(orderFigures(q, 10)).toBeNull();
  });

  it('refuses a quote whose displayed figures would break the strict inequality', () => {
    // avg 0.50000004 is above 0.5 exactly, but shows as 0.500000 = price_now 0.5000.
    const units = new Big(10).div('0.50000004');
    const q = { priceBefore: 0.5, priceAfter: 0.5001, shares: Number(units), avgPrice: 0.50000004 };
    expect(orderFigures({ ...q, boostMultiplier: 1 }, 10)).toBeNull();
  });

  it('refuses an average price outside the quoted prices even when the rounded figures would hide it', () => {
    // The exact average is the bound of the check, not its display: each of these shows a sound
    // range once rounded (0.5000 < 0.500040, 0.599960 < 0.6000), but the fill lies outside it.
    const at = (avg: string, priceBefore: number, priceAfter: number) => {
      const units = Number(new Big(10).div(avg));
      return { priceBefore, priceAfter, shares: units, avgPrice: Number(avg), boostMultiplier: 1 };
    };
    expect(orderFigures(at('0.50004', 0.50005, 0.6), 10)).toBeNull(); // below price_now
    expect(orderFigures(at('0.59996', 0.5, 0.59995), 10)).toBeNull(); // above price_after
    // Just inside, the same figures are shown.
    expect(orderFigures(at('0.50004', 0.50003, 0.6), 10)).toMatchObject({ price_now: '0.5000', avg_price: '0.500040' });
    expect(orderFigures(at('0.59996', 0.5, 0.59997), 10)).toMatchObject({ price_after: '0.6000', avg_price: '0.599960' });
  });
});

describe('minShares: quoted units less 1%, rounded down to 4 places', () => {
  it.each([
    ['15.8496', 15.6911], // 15.691104
    ['100', 99],
    ['0.0001', 0],
    ['43.7934', 43.3554], // 43.355466
  ])('%s → %s', (units, expected) => {
    expect(minShares(units)).toBe(expected);
  });
  it('takes another tolerance', () => {
    expect(minShares('200', '0.05')).toBe(190);
    expect(minShares('200', '0')).toBe(200);
  });
});

describe('opinionDecision: TOPIC_CLOSED, NO_POSITION, SIDE_REQUIRED, CONTENT_INVALID, INSUFFICIENT_BALANCE', () => {
  const Y = 'y-outcome';
  const N = 'n-outcome';
  const base = {
    closed: false,
    holdings: [{ outcomeId: Y, sold: false }],
    outcomeIds: [Y, N],
    content: 'Fine.',
    forbiddenCharacters: false,
    balance: 10,
    fee: 10,
  };

  it('possible, with the side of the position', () => {
    expect(opinionDecision(base)).toEqual({ reason: null, sideOutcomeId: Y });
  });

  it.each([
    ['everything wrong', { ...base, closed: true, holdings: [], content: '', forbiddenCharacters: true, balance: 0 }, 'TOPIC_CLOSED'],
    ['closed with a position', { ...base, closed: true }, 'TOPIC_CLOSED'],
    ['no holding, empty text', { ...base, holdings: [], content: '' }, 'NO_POSITION'],
    ['only a sold holding', { ...base, holdings: [{ outcomeId: Y, sold: true }] }, 'NO_POSITION'],
    ['a holding on no outcome of the topic', { ...base, holdings: [{ outcomeId: 'x', sold: false }], content: '' }, 'SIDE_REQUIRED'],
    [
      'holdings on two outcomes',
      {
        ...base,
        holdings: [
          { outcomeId: Y, sold: false },
          { outcomeId: N, sold: false },
        ],
      },
      'SIDE_REQUIRED',
    ],
    ['empty text', { ...base, content: '' }, 'CONTENT_INVALID'],
    ['501 characters', { ...base, content: 'x'.repeat(501) }, 'CONTENT_INVALID'],
    ['forbidden characters', { ...base, forbiddenCharacters: true }, 'CONTENT_INVALID'],
    ['forbidden characters and a fee above the balance', { ...base, forbiddenCharacters: true, balance: 3 }, 'CONTENT_INVALID'],
    ['empty text and a fee above the balance', { ...base, content: '', balance: 3 }, 'CONTENT_INVALID'],
    ['no holding and a fee above the balance', { ...base, holdings: [], balance: 3 }, 'NO_POSITION'],
    ['a fee above the balance', { ...base, balance: 9.9999 }, 'INSUFFICIENT_BALANCE'],
    ['no coins at all', { ...base, balance: 0 }, 'INSUFFICIENT_BALANCE'],
  ])('%s → %s', (_name, facts, reason) => {
    expect(opinionDecision(facts).reason).toBe(reason);
  });

  it('a sold holding beside an unsold one on the same side still resolves', () => {
    expect(
      opinionDecision({
        ...base,
        holdings: [
          { outcomeId: Y, sold: true },
          { outcomeId: Y, sold: false },
        ],
      }),
    ).toEqual({ reason: null, sideOutcomeId: Y });
  });

  it('counts code points after trimming', () => {
    expect(OPINION_MAX_CHARS).toBe(500);
    expect(codePoints('😀'.repeat(500))).toBe(500);
    expect(opinionDecision({ ...base, content: normaliseContent(` ${'😀'.repeat(500)}\n`) }).reason).toBeNull();
    expect(opinionDecision({ ...base, content: normaliseContent('😀'.repeat(501)) }).reason).toBe('CONTENT_INVALID');
    expect(normaliseContent('  \t ')).toBe('');
  });

  it('takes a fee equal to the balance, and a free opinion with no coins, compared exactly', () => {
    expect(opinionDecision({ ...base, balance: 10, fee: 10 }).reason).toBeNull();
    expect(opinionDecision({ ...base, balance: 0, fee: 0 }).reason).toBeNull();
    expect(opinionDecision({ ...base, balance: 0.3, fee: 0.1 + 0.2 }).reason).toBe('INSUFFICIENT_BALANCE');
  });

  it('takes a one-character opinion, and refuses an empty one', () => {
    expect(opinionDecision({ ...base, content: 'y' }).reason).toBeNull();
    expect(opinionDecision({ ...base, content: '😀' }).reason).toBeNull();
    expect(opinionDecision({ ...base, content: '' }).reason).toBe('CONTENT_INVALID');
  });
});

describe('backReason: OPINION_INACTIVE, TOPIC_CLOSED, ALREADY_BACKED, OPINION_BACK_FULL, INSUFFICIENT_BALANCE', () => {
  const ok: BackFacts = { inactive: false, closed: false, alreadyBacked: false, full: false, balance: 20, price: 20 };
  const all: BackFacts = { inactive: true, closed: true, alreadyBacked: true, full: true, balance: 0, price: 20 };

  it('possible, the balance exactly the price included', () => {
    expect(backReason(ok)).toBeNull();
  });

  it.each([
    ['everything', all, 'OPINION_INACTIVE'],
    ['closed, backed, full, short', { ...all, inactive: false }, 'TOPIC_CLOSED'],
    ['backed, full, short', { ...all, inactive: false, closed: false }, 'ALREADY_BACKED'],
    ['full, short', { ...ok, full: true, balance: 0 }, 'OPINION_BACK_FULL'],
    ['short', { ...ok, balance: 19.9999 }, 'INSUFFICIENT_BALANCE'],
  ])('%s → %s', (_name, facts, reason) => {
    expect(backReason(facts)).toBe(reason);
  });
});
