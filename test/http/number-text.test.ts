/** numberText (src/http/number-text.ts): the text String() gives, for every finite number. */
import { describe, expect, it } from 'vitest';
import { numberText } from '../../src/http/number-text.ts';

describe('numberText', () => {
  it.each([
    0,
    -0,
    1,
    -1,
    42,
    999_999_999,
    2 ** 31,
    2 ** 53 + 2,
    1_795_577_746_088,
    0.5,
    2.17,
    0.1 + 0.2,
    25.602339999999913,
    1e21,
    1.5e-7,
    -3.25,
  ])('writes %s as String() does', (n) => {
    expect(numberText(n)).toBe(String(n));
  });
});
