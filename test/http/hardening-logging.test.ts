/** What the log redaction rewrites, and what it leaves alone (src/http/logging.ts). */
import { describe, expect, it } from 'vitest';
import { REDACTED, redactText } from '../../src/http/logging.ts';

describe('redactText', () => {
  it.each([
    ['/open/v1/me?api_key=opk_live_abcdefghijklmnop1234', '/open/v1/me?api_key=[redacted]'],
    ['/x?limit=2&KEY=whatever&cursor=abc', '/x?limit=2&KEY=[redacted]&cursor=abc'],
    ['/x?token=t0k&access_token=a.b.c#frag', '/x?token=[redacted]&access_token=[redacted]#frag'],
    ['/open/v1/orders?confirm_token=ct1.k1.cGF5bG9hZA.bWFj', '/open/v1/orders?confirm_token=[redacted]'],
    ['Route GET:/open/v1/opk_test_alice_read_0000000000 not found', 'Route GET:/open/v1/[redacted] not found'],
    ['token ct1.k1.cGF5bG9hZA.bWFj was refused', 'token [redacted] was refused'],
  ])('%s', (input, output) => {
    expect(redactText(input)).toBe(output);
  });

  it('leaves other parameters and plain text as they are, the same string', () => {
    for (const text of [
      '/open/v1/topics?limit=2&cursor=abc&monkey=1&tokens=3',
      'incoming request',
      '/open/v1/topics/00000000-0000-4000-8000-0000000b0001',
    ]) {
      expect(redactText(text)).toBe(text);
    }
    const plain = 'request completed';
    expect(Object.is(redactText(plain), plain)).toBe(true);
    expect(REDACTED).toBe('[redacted]');
  });
});
