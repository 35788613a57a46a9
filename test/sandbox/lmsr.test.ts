import { describe, expect, it } from 'vitest';
import { cost, floor4, logSumExp, openingShares, prices, quoteBuy, unitsForStake } from '../../sandbox/lmsr.ts';

const B = 10 / Math.LN2;

describe('LMSR engine', () => {
  it('buys 15.8496250072 units for 10 coins at even odds with b = 10/ln 2 (hand-worked)', () => {
    // x = 10 + b·ln(1.5) = 10 + 10·log2(1.5)
    const x = unitsForStake([0, 0], B, 0, 10);
    expect(x).toBeCloseTo(15.8496250072, 9);
    expect(quoteBuy([0, 0], B, 0, 10).units).toBe(15.8496);
  });

  it('charges exactly the stake: C(q after) − C(q before) = stake', () => {
    for (const [q, k, s] of [
      [[0, 0], 0, 10],
      [[12.5, -3], 1, 77],
      [[5, 40, -20, 0], 2, 250],
    ] as const) {
      const x = unitsForStake(q, B, k, s);
      const after = q.map((v, i) => (i === k ? v + x : v));
      expect(cost(after, B) - cost(q, B)).toBeCloseTo(s, 8);
    }
  });

  it('rounds units down, so the rounded fill never costs more than the stake', () => {
    const q = [3, 1, 0];
    const quote = quoteBuy(q, 50, 1, 37);
    expect(quote.units).toBeLessThanOrEqual(quote.exactUnits);
    expect(quote.exactUnits - quote.units).toBeLessThan(1e-4);
    expect(cost(quote.qAfter, 50) - cost(q, 50)).toBeLessThanOrEqual(37 + 1e-9);
    expect(Math.round(quote.units * 1e4)).toBe(quote.units * 1e4);
  });

  it('prices sum to 1 and follow the share vector', () => {
    for (const q of [
      [0, 0],
      [10, -4, 7],
      [1e3, 2e3, 0, -5e2],
    ]) {
      const p = prices(q, B);
      expect(p.reduce((a, x) => a + x, 0)).toBeCloseTo(1, 12);
      for (const x of p) expect(x).toBeGreaterThanOrEqual(0);
    }
    expect(prices([0, 0], B)).toEqual([0.5, 0.5]);
  });

  it('average price lies strictly between price before and price after', () => {
    const q = quoteBuy([0, 0], B, 0, 10);
    expect(q.priceBefore).toBe(0.5);
    expect(q.avgPrice).toBeGreaterThan(q.priceBefore);
    expect(q.avgPrice).toBeLessThan(q.priceAfter);
    const q3 = quoteBuy(openingShares([0.2, 0.5, 0.3], 150), 150, 2, 120);
    expect(q3.avgPrice).toBeGreaterThan(q3.priceBefore);
    expect(q3.avgPrice).toBeLessThan(q3.priceAfter);
  });

  it('stays finite for huge share vectors and stakes', () => {
    const q = [1e6, 1e6 - 5, -1e6];
    expect(Number.isFinite(cost(q, 1))).toBe(true);
    const p = prices(q, 1);
    expect(p.every(Number.isFinite)).toBe(true);
    expect(p.reduce((a, x) => a + x, 0)).toBeCloseTo(1, 12);
    const x = unitsForStake(q, 1, 2, 1e5);
    expect(Number.isFinite(x)).toBe(true);
    expect(x).toBeGreaterThan(0);
    expect(Number.isFinite(unitsForStake([0, 0], 0.01, 0, 1e9))).toBe(true);
    expect(logSumExp([1e308, 1e308])).toBeGreaterThan(1e307);
  });

  it('reproduces uneven opening probabilities', () => {
    const q = openingShares([0.7, 0.3], 100);
    const p = prices(q, 100);
    expect(p[0]).toBeCloseTo(0.7, 12);
    expect(p[1]).toBeCloseTo(0.3, 12);
    // Unnormalised weights are normalised first.
    expect(prices(openingShares([7, 3], 100), 100)[0]).toBeCloseTo(0.7, 12);
  });

  it('handles three or more outcomes', () => {
    const b = 150;
    const q = openingShares([0.4, 0.3, 0.2, 0.1], b);
    const before = prices(q, b);
    const quote = quoteBuy(q, b, 3, 25);
    const after = prices(quote.qAfter, b);
    expect(after[3]).toBeGreaterThan(before[3] ?? 1);
    for (const i of [0, 1, 2]) expect(after[i]).toBeLessThan(before[i] ?? 0);
    expect(
      cost(
        q.map((v, i) => (i === 3 ? v + quote.exactUnits : v)),
        b,
      ) - cost(q, b),
    ).toBeCloseTo(25, 8);
  });

  it('floor4 rounds down to 4 decimals without float noise', () => {
    expect(floor4(1.00039)).toBe(1.0003);
    expect(floor4(1.0003)).toBe(1.0003);
    expect(floor4(0.1 + 0.2)).toBe(0.3);
    expect(floor4(15.849625007)).toBe(15.8496);
  });

  it('refuses bad inputs', () => {
    expect(() => unitsForStake([0, 0], 0, 0, 1)).toThrow(RangeError);
    expect(() => unitsForStake([0, 0], B, 5, 1)).toThrow(RangeError);
    expect(() => unitsForStake([0, 0], B, 0, -1)).toThrow(RangeError);
    expect(() => openingShares([1, 0], B)).toThrow(RangeError);
    expect(unitsForStake([0, 0], B, 0, 0)).toBe(0);
  });
});
