import { describe, expect, it } from 'vitest';
import Big from 'big.js';
import fc from 'fast-check';
import { dec4, dec4OrNull, dec6, decDifference, decFixed, decProduct, decRatio, withoutRounding } from '../../mappers/decimal.ts';

describe('dec4: shortest round-trip decimal, then half away from zero', () => {
  const cases: Array<[number | string, string]> = [
    [0.1 + 0.2, '0.3000'],
    [0.30000000000000004, '0.3000'],
    [0.00005, '0.0001'],
    [0.00004999, '0.0000'],
    [1e-7, '0.0000'],
    [-0.00005, '-0.0001'],
    [-0.00004, '0.0000'], // rounds to zero: no "-0.0000"
    [-0, '0.0000'],
    [0, '0.0000'],
    [1e21, '1000000000000000000000.0000'],
    [1.5e300, `15${'0'.repeat(299)}.0000`],
    [123456789.12345, '123456789.1235'],
    [1.23455, '1.2346'], // the float is 1.23454999…, but its shortest decimal is 1.23455
    [2.00005, '2.0001'],
    [0.6180339887498949, '0.6180'],
    [9950.000000000002, '9950.0000'],
    [-12.34565, '-12.3457'],
    [10000, '10000.0000'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991.0000'],
    [5e-324, '0.0000'],
    ['0.00015', '0.0002'],
  ];
  it.each(cases)('%s → %s', (input, expected) => {
    expect(dec4(input)).toBe(expected);
  });
});

describe('dec6', () => {
  it.each([
    [0.63192035, '0.631920'],
    [0.6319203500001, '0.631920'],
    [0.0000005, '0.000001'],
    [-0.0000005, '-0.000001'],
    [1e-7, '0.000000'],
    [0.1 + 0.2, '0.300000'],
  ] as const)('%s → %s', (input, expected) => {
    expect(dec6(input)).toBe(expected);
  });
});

describe('decFixed', () => {
  it.each([
    [new Big('1.23455'), 4, 'half-up', '1.2346'],
    ['1.23455', 4, 'down', '1.2345'],
    ['-1.23451', 4, 'up', '-1.2346'],
    ['1.23445', 4, 'half-even', '1.2344'],
    ['1.23455', 4, 'half-even', '1.2346'],
    [-0.4, 0, 'half-up', '0'],
    [2.5, 0, 'half-up', '3'],
    [-2.5, 0, 'half-up', '-3'],
    [0.1 + 0.2, 2, 'half-up', '0.30'],
  ] as const)('%s to %i places %s → %s', (value, places, mode, expected) => {
    expect(decFixed(value, places, mode)).toBe(expected);
  });
  it('defaults to half-up', () => {
    expect(decFixed('0.125', 2)).toBe('0.13');
  });
  it('is immune to the global Big configuration', () => {
    const saved = Big.RM;
    Big.RM = Big.roundDown;
    try {
      expect(dec4(0.00005)).toBe('0.0001');
    } finally {
      Big.RM = saved;
    }
  });
});

describe('exact arithmetic helpers', () => {
  it('decProduct multiplies the decimals, not the floats', () => {
    expect(decProduct(0.00005, 1.5)).toBe('0.0001'); // 0.000075
    expect(decProduct(79.12345678, 1.5)).toBe('118.6852'); // 118.68518517
    expect(decProduct(0.1, 3)).toBe('0.3000');
    expect(decProduct(1.0005, 1, 3)).toBe('1.001');
  });
  it('decDifference subtracts exactly', () => {
    expect(decDifference(10000, 0.1 + 0.2)).toBe('9999.7000');
    expect(decDifference(0.3, 0.1)).toBe('0.2000');
    expect(decDifference(1, 1)).toBe('0.0000');
  });
  it('decRatio rounds the exact quotient once', () => {
    expect(decRatio(1, 3, 4)).toBe('0.3333');
    expect(decRatio(2, 3, 4)).toBe('0.6667');
    expect(decRatio(1, 8, 2)).toBe('0.13'); // exactly 0.125
    expect(decRatio(1, 20000, 4)).toBe('0.0001'); // exactly 0.00005
    expect(decRatio(0, 5, 4)).toBe('0.0000');
    expect(decRatio(1, 0, 4)).toBeNull();
  });
  it('dec4OrNull keeps null', () => {
    expect(dec4OrNull(null)).toBeNull();
    expect(dec4OrNull(0.00005)).toBe('0.0001');
  });
});

describe('floats that need no rounding take a shortcut around big.js, with the same answers', () => {
  // The reference: big.js on the float's shortest decimal, negative zero unsigned.
  const Ref = Big();
  const modes = { 'half-up': 1, down: 0, up: 3, 'half-even': 2 } as const;
  const reference = (x: number, places: number, mode: keyof typeof modes): string => {
    const text = new Ref(x).toFixed(places, modes[mode]);
    return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
  };
  const mode = fc.constantFrom(...(Object.keys(modes) as (keyof typeof modes)[]));
  const places = fc.integer({ min: 0, max: 8 });
  // Amounts as the backend sends them: cents, quarter coins, whole numbers, and any double.
  const floats = fc.oneof(
    fc.integer({ min: -1e12, max: 1e12 }).map((n) => n / 100),
    fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 4),
    fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -0, 1e21, -1e21, 1e-7, 5e-324, 0.1 + 0.2, 123456.5, 99999999.99999),
  );

  it('agrees with big.js on every float, number of places and rounding mode', () => {
    fc.assert(
      fc.property(floats, places, mode, (x, p, m) => {
        expect(decFixed(x, p, m)).toBe(reference(x, p, m));
      }),
      { numRuns: 20_000, seed: 20261123 },
    );
  });

  it('pads whole and short amounts, and leaves exponent forms to big.js', () => {
    expect(dec4(12)).toBe('12.0000');
    expect(dec4(-12.5)).toBe('-12.5000');
    expect(dec4(0.1234)).toBe('0.1234');
    expect(decFixed(7, 0)).toBe('7');
    expect(decFixed(2.5, 0)).toBe('3');
    expect(dec4(1e21)).toBe('1000000000000000000000.0000');
    expect(dec4(1e-7)).toBe('0.0000');
  });

  it('takes the shortcut exactly for floats with few enough decimals in plain notation', () => {
    const cases: Array<[number, number, string | null]> = [
      [12, 4, '12.0000'],
      [12, 1, '12.0'],
      [12, 0, '12'],
      [-12.5, 4, '-12.5000'],
      [0.25, 2, '0.25'],
      [0.25, 1, null], // needs rounding
      [10000, 4, '10000.0000'],
      [1e21, 4, null], // "1e+21"
      [1e-7, 8, null], // "1e-7"
      [Number.NaN, 4, null],
      [Number.POSITIVE_INFINITY, 4, null],
      [Number.NEGATIVE_INFINITY, 4, null],
    ];
    for (const [x, p, expected] of cases) expect(withoutRounding(x, p), `${x} to ${p}`).toBe(expected);
  });

  it('still refuses what is not a finite number', () => {
    expect(() => dec4(Number.NaN)).toThrow();
    expect(() => dec4(Number.POSITIVE_INFINITY)).toThrow();
  });
});
