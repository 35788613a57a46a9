/** What the log redaction rewrites, and what it leaves alone (src/http/logging.ts). */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { REDACTED, loggerOptions, redactText } from '../../src/http/logging.ts';

describe('redactText', () => {
  it.each([
    ['/open/v1/me?api_key=opk_live_abcdefghijklmnop1234', '/open/v1/me?api_key=[redacted]'],
    ['/x?limit=2&KEY=whatever&cursor=abc', '/x?limit=2&KEY=[redacted]&cursor=abc'],
    ['/x?token=t0k&access_token=a.b.c#frag', '/x?token=[redacted]&access_token=[redacted]#frag'],
    ['/open/v1/orders?confirm_token=ct1.k1.cGF5bG9hZA.bWFj', '/open/v1/orders?confirm_token=[redacted]'],
    ['Route GET:/open/v1/opk_test_alice_read_0000000000 not found', 'Route GET:/open/v1/[redacted] not found'],
    ['token ct1.k1.cGF5bG9hZA.bWFj was refused', 'token [redacted] was refused'],
    // Behind an encoding, another case or another spelling of the name.
    ['/open/v1/me?apikey=opk%5Ftest%5Fabcdefghijklmnop', '/open/v1/me?apikey=[redacted]'],
    ['/open/v1/topics/%6Fpk_test_abcdefghijklmnop/comments', '/open/v1/topics/[redacted]/comments'],
    ['/open/v1/topics/%256Fpk_test_abcdefghijklmnop', '/open/v1/topics/[redacted]'],
    ['/open/v1/orders?ct=ct1%2Elocal%2EcGF5bG9hZA%2EbWFj&limit=2', '/open/v1/orders?ct=[redacted]&limit=2'],
    ['/x?%61pi%5Fkey=anything&limit=2', '/x?%61pi%5Fkey=[redacted]&limit=2'],
    ['/x?Api-Key=anything', '/x?Api-Key=[redacted]'],
    ['/x?q=my+key+opk%5Ftest%5Fabcdefghijklmnop', '/x?q=[redacted]'],
    ['/x/OPK_TEST_ABCDEFGHIJKLMNOP', '/x/[redacted]'],
    ['host OPK_LIVE_ABCDEFGHIJKLMNOP:8080', 'host [redacted]:8080'],
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

describe('loggerOptions', () => {
  function logger() {
    const lines: string[] = [];
    const app = Fastify({ logger: loggerOptions({ LOG_LEVEL: 'trace' }, { write: (l: string) => void lines.push(l) }) });
    return { log: app.log, lines: () => lines.join('') };
  }

  it('redacts secret headers wherever a logged object carries them', () => {
    const { log, lines } = logger();
    const headers = {
      authorization: 'Bearer s1',
      cookie: 's2',
      'set-cookie': 's3',
      'x-service-token': 's4',
      'proxy-authorization': 's5',
      accept: 'json',
    };
    log.trace({ headers }, 'top');
    log.debug({ req: { headers } }, 'under req');
    log.info({ upstream: { headers } }, 'one level down');
    log.warn({ confirm_token: 's6', body: { confirm_token: 's7' } }, 'tokens');
    expect(lines()).not.toMatch(/s[1-7]\b/);
    expect(lines()).toContain('"accept":"json"');
  });

  it('censors copies and leaves the logged objects as they were', () => {
    const { log, lines } = logger();
    const headers = { authorization: 'Bearer s1', accept: 'json' };
    const body = { confirm_token: 's2', amount: '5' };
    const upstream = { headers: { 'X-Service-Token': 's3' }, path: '/internal/x' };
    log.info({ headers, body, upstream }, 'live objects');
    expect(lines()).not.toMatch(/s[1-3]\b/);
    expect(lines()).toContain('"path":"/internal/x"');
    expect(lines()).toContain('"amount":"5"');
    expect(headers.authorization).toBe('Bearer s1');
    expect(body.confirm_token).toBe('s2');
    expect(upstream.headers['X-Service-Token']).toBe('s3');
  });

  it('censors the headers an error carries, keeping its class and message', () => {
    const { log, lines } = logger();
    class HttpFailure extends Error {
      headers = { 'set-cookie': 'session=s1', 'content-type': 'text/plain' };
    }
    log.error({ err: new HttpFailure('backend said no') }, 'under err');
    log.error(new HttpFailure('backend said no again'));
    expect(lines()).not.toContain('session=s1');
    expect(lines()).toContain('"type":"HttpFailure"');
    expect(lines()).toContain('backend said no again');
    expect(lines()).toContain('"content-type":"text/plain"');
  });

  it('scrubs messages and logged errors, keeping the error class', () => {
    const { log, lines } = logger();
    class UrlError extends Error {}
    log.error({ err: new UrlError(`Route GET:/x?api_key=opk_live_${'a'.repeat(20)} not found`) }, 'seen /y?token=abc');
    log.error(new Error('ct1.k1.cGF5bG9hZA.bWFj refused'));
    expect(lines()).not.toMatch(/opk_|ct1\.|token=abc/);
    expect(lines()).toContain('"type":"UrlError"');
    expect(lines()).toContain('Route GET:/x?api_key=[redacted] not found');
  });

  it('redacts a key quoted in any string field, one level down too (a handle in a path, a backend message)', () => {
    const { log, lines } = logger();
    const key = 'opk_test_alice_write_000000000';
    log.warn(
      { upstream: { method: 'GET', path: `/internal/users/by-handle/${key}/created` }, errMsg: `user @${key} not found`, errCode: 60002 },
      'upstream error',
    );
    expect(lines()).not.toContain('opk_');
    expect(lines()).toContain('"path":"/internal/users/by-handle/[redacted]/created"');
    expect(lines()).toContain('"errMsg":"user @[redacted] not found"');
    expect(lines()).toContain('"errCode":60002');
  });
});
