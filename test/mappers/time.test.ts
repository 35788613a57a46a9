import { describe, expect, it } from 'vitest';
import { Timestamp } from '../../src/contract/index.ts';
import { toTimestamp } from '../../mappers/time.ts';

describe('toTimestamp', () => {
  it.each([
    [0, '1970-01-01T00:00:00.000Z'],
    [1767225600000, '2026-01-01T00:00:00.000Z'],
    [1767225600001, '2026-01-01T00:00:00.001Z'],
    [951782400000, '2000-02-29T00:00:00.000Z'], // a leap day of a year divisible by 400
    [4107542399999, '2100-02-28T23:59:59.999Z'], // 2100 is not a leap year: March follows
    [4107542400000, '2100-03-01T00:00:00.000Z'],
    [1.5, '1970-01-01T00:00:00.001Z'], // not whole milliseconds: Date's own rules
    [253402300799999, '9999-12-31T23:59:59.999Z'],
    [253402300800000, '9999-12-31T23:59:59.999Z'], // year 10000 is not RFC 3339: clamped
    [Number.MAX_SAFE_INTEGER, '9999-12-31T23:59:59.999Z'], // Date would throw: clamped
  ])('%i → %s', (ms, expected) => {
    const ts = toTimestamp(ms);
    expect(ts).toBe(expected);
    expect(Timestamp.safeParse(ts).success).toBe(true);
  });
});
