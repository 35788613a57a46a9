/**
 * Rounding modes and signed zero of the decimal helpers (docs/contract/resources.md#decimals):
 * each mode on both signs and on exact halves, results that round to zero never printed as
 * "-0", and the payout figure that is always rounded down.
 */
import { describe, expect, it } from 'vitest';
import { decFixed, decProduct, decRatio, decDifference, guaranteedPayout, toBig } from '../../mappers/decimal.ts';

describe('decFixed: every mode, both signs', () => {
  it.each([
    // value, places, half-up, down, up, half-even
    ['2.5', 0, '3', '2', '3', '2'],
    ['3.5', 0, '4', '3', '4', '4'],
    ['-2.5', 0, '-3', '-2', '-3', '-2'],
    ['-3.5', 0, '-4', '-3', '-4', '-4'],
    ['2.4', 0, '2', '2', '3', '2'],
    ['-2.6', 0, '-3', '-2', '-3', '-3'],
    ['1.00005', 4, '1.0001', '1.0000', '1.0001', '1.0000'],
    ['1.00015', 4, '1.0002', '1.0001', '1.0002', '1.0002'],
    ['-1.00015', 4, '-1.0002', '-1.0001', '-1.0002', '-1.0002'],
    ['7', 2, '7.00', '7.00', '7.00', '7.00'],
  ] as const)('%s to %i places: half-up %s, down %s, up %s, half-even %s', (value, places, halfUp, down, up, halfEven) => {
    expect(decFixed(value, places, 'half-up')).toBe(halfUp);
    expect(decFixed(value, places, 'down')).toBe(down);
    expect(decFixed(value, places, 'up')).toBe(up);
    expect(decFixed(value, places, 'half-even')).toBe(halfEven);
  });
});

describe('signed zero', () => {
  it.each([
    [-0, 0, '0'],
    [-0, 2, '0.00'],
    ['-0', 4, '0.0000'],
    ['-0.4', 0, '0'],
    ['-0.00004', 4, '0.0000'],
    ['-0.000001', 2, '0.00'],
  ] as const)('%s to %i places prints %s, unsigned', (value, places, expected) => {
    expect(decFixed(value, places)).toBe(expected);
  });

  it('keeps the sign of anything that does not round to zero', () => {
    expect(decFixed('-0.00005', 4)).toBe('-0.0001');
    expect(decFixed('-0.5', 0)).toBe('-1');
    expect(decFixed('-10', 0)).toBe('-10');
    expect(decFixed('-10.00001', 4)).toBe('-10.0000');
    expect(decFixed('-100', 2)).toBe('-100.00');
    expect(decFixed('-0.01', 2)).toBe('-0.01');
    expect(decFixed('-0.00001', 4, 'up')).toBe('-0.0001');
  });

  it('rounds towards zero to an unsigned zero in mode down, and away from it in mode up', () => {
    expect(decFixed('-0.99', 0, 'down')).toBe('0');
    expect(decFixed('-0.01', 0, 'up')).toBe('-1');
    expect(decFixed('0.01', 0, 'up')).toBe('1');
    expect(decFixed('0.99', 0, 'down')).toBe('0');
  });
});

describe('products, differences and ratios', () => {
  it('guaranteedPayout multiplies exactly and rounds down, never up', () => {
    expect(guaranteedPayout(10.33339, 1)).toBe('10.3333');
    expect(guaranteedPayout(3, 1.33335)).toBe('4.0000'); // 4.00005
    expect(guaranteedPayout(0.1, 3)).toBe('0.3000');
    expect(guaranteedPayout('12.99999', '1')).toBe('12.9999');
  });

  it('decProduct rounds half away from zero by default and takes a mode and places', () => {
    expect(decProduct(3, 1.33335)).toBe('4.0001');
    expect(decProduct(-3, 1.33335)).toBe('-4.0001');
    expect(decProduct(3, 1.33335, 4, 'down')).toBe('4.0000');
    expect(decProduct(3, 1.33335, 2)).toBe('4.00');
    expect(decProduct(-0.00001, 2)).toBe('0.0000');
  });

  it('decDifference keeps four places by default and can take others', () => {
    expect(decDifference(1, 0.00005)).toBe('1.0000'); // 0.99995 rounds up to 1
    expect(decDifference(0.00005, 1)).toBe('-1.0000');
    expect(decDifference(1, 0.3, 1)).toBe('0.7');
    expect(decDifference(0.1, 0.10001)).toBe('0.0000');
  });

  it('decRatio truncates the quotient only past 30 places, then rounds once', () => {
    expect(decRatio(1, 3, 6)).toBe('0.333333');
    expect(decRatio(5, 9, 4)).toBe('0.5556');
    expect(decRatio(-5, 9, 4)).toBe('-0.5556');
    expect(decRatio(1, -8, 2)).toBe('-0.13');
    expect(decRatio(-1, 3000000, 4)).toBe('0.0000');
    expect(decRatio('1', '0.0', 4)).toBeNull();
    expect(decRatio(1, -0, 4)).toBeNull();
    // 2/3 to 29 places needs the 30th digit to round up; a shorter quotient would print ...666.
    expect(decRatio(2, 3, 29)).toBe(`0.${'6'.repeat(28)}7`);
  });

  it('toBig reads floats by their shortest round-trip form, strings and Bigs exactly', () => {
    expect(toBig(0.1 + 0.2).toString()).toBe('0.30000000000000004');
    expect(toBig('1.50').toFixed()).toBe('1.5');
    expect(toBig(toBig('2.25')).toString()).toBe('2.25');
  });
});
