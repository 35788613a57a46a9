/**
 * Authentication end to end (SPEC 5.1, DECISIONS.md sections 1 and 9): every way a key can be
 * wrong is 401 with the challenge; verdicts are shared through Redis and never outlive the
 * revocation window.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, USERS, startStack, type Stack } from '../helpers/stack.ts';
import { connectTestRedis } from '../helpers/redis.ts';

const PATH = '/open/v1/topic-categories';
const CHALLENGE = 'Bearer realm="open-api"';
const INVALID = 'Bearer realm="open-api", error="invalid_token"';

describe.each([
  ['in-memory stores', false],
  ['Redis', true],
])('authentication with %s', (_name, redis) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ redis, env: { KEY_CACHE_TTL_SECONDS: 1, KEY_CACHE_NEGATIVE_TTL_SECONDS: 1 } });
  });
  afterAll(async () => stack.close());

  it('lets a valid key through', async () => {
    const res = await stack.get(PATH, KEYS.aliceRead);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it.each([
    ['missing', undefined, CHALLENGE],
    ['empty', '', CHALLENGE],
    ['another scheme', 'Basic YWxpY2U6cHc=', INVALID],
    ['malformed', 'Bearer opk_test_short', INVALID],
    ['unknown prefix', 'Bearer sk_live_0000000000000000', INVALID],
    ['unknown key', 'Bearer opk_test_nobody_000000000000', INVALID],
    ['revoked', `Bearer ${KEYS.carolRevoked}`, INVALID],
    ['expired', `Bearer ${KEYS.daveExpired}`, INVALID],
  ])('refuses a %s key with 401 and the challenge', async (_case, header, challenge) => {
    const res = await stack.request('GET', PATH, { headers: header === undefined ? {} : { authorization: header } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    expect(res.body).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message']);
  });

  it('refuses two Authorization headers, even two valid keys, as one malformed credential', async () => {
    for (const second of [KEYS.aliceRead, KEYS.bobWrite]) {
      const res = await request(`${stack.url}${PATH}`, {
        headers: ['authorization', `Bearer ${KEYS.aliceRead}`, 'Authorization', `Bearer ${second}`],
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe(INVALID);
      expect(((await res.body.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    }
  });

  it('accepts the scheme name in any case', async () => {
    const res = await stack.request('GET', PATH, { headers: { authorization: `bearer ${KEYS.aliceRead}` } });
    expect(res.status).toBe(200);
  });

  it('stops accepting a revoked key within the cache window', async () => {
    const { key, keyId } = await stack.admin('POST', '/keys', { userId: USERS.alice, scopes: ['READ'] });
    expect((await stack.get(PATH, key)).status).toBe(200);
    await stack.admin('POST', `/keys/${keyId}/revoke`);
    await new Promise((r) => setTimeout(r, 1_100)); // KEY_CACHE_TTL_SECONDS=1 in this stack
    expect((await stack.get(PATH, key)).status).toBe(401);
  });

  it('refuses a key past its expiry even while its verdict is cached', async () => {
    const clock = await stack.admin('GET', '/clock');
    const expiresAt = (clock.now as number) + 600;
    const { key } = await stack.admin('POST', '/keys', { userId: USERS.alice, scopes: ['READ'], expiresAt });
    expect((await stack.get(PATH, key)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 700));
    expect((await stack.get(PATH, key)).status).toBe(401);
  });
});

describe('verdicts in Redis', () => {
  it('are stored under the key hash, never the raw key', async () => {
    const stack = await startStack({ redis: true });
    try {
      expect((await stack.get(PATH, KEYS.aliceRead)).status).toBe(200);
      const r = await connectTestRedis();
      const keys = await r.keys(`${stack.prefix}*`);
      const verdicts = keys.filter((k) => k.includes('key-verdict:'));
      expect(verdicts.length).toBeGreaterThan(0);
      const values = await Promise.all(verdicts.map((k) => r.get(k)));
      for (const text of [...keys, ...values]) expect(text ?? '').not.toContain('opk_');
      r.disconnect();
    } finally {
      await stack.close();
    }
  });
});

describe('cross-cutting HTTP behaviour', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => stack.close());

  it('answers liveness and readiness without a key, outside /open/v1', async () => {
    expect(await stack.get('/livez')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await stack.get('/readyz')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('marks every API answer, errors included, Cache-Control: no-store', async () => {
    const ok = await stack.get(PATH, KEYS.aliceRead);
    const refused = await stack.get(PATH);
    const invalid = await stack.get('/open/v1/topics?limit=0', KEYS.aliceRead);
    const mcp = await stack.request('POST', '/mcp', {
      key: KEYS.aliceRead,
      raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    expect([ok.status, refused.status, invalid.status, mcp.status]).toEqual([200, 401, 400, 200]);
    for (const res of [ok, refused, invalid, mcp]) expect(res.headers.get('cache-control')).toBe('no-store');
    // Answers no route gives, and faults met before routing, too.
    const unknown = await stack.get('/open/v1/no-such-thing', KEYS.aliceRead);
    const getMcp = await stack.request('GET', '/mcp', { key: KEYS.aliceRead });
    const badEncoding = await stack.get('/open/v1/topics/%zz', KEYS.aliceRead);
    expect([unknown.status, getMcp.status, badEncoding.status]).toEqual([404, 405, 400]);
    for (const res of [unknown, getMcp, badEncoding]) expect(res.headers.get('cache-control')).toBe('no-store');
    // Health answers are not the caller's data.
    expect((await stack.get('/livez')).headers.get('cache-control')).toBeNull();
  });

  it('answers an unknown route with 404 NOT_FOUND in the envelope', async () => {
    const res = await stack.get('/open/v1/no-such-thing', KEYS.aliceRead);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('echoes a sane caller request id and replaces an unsafe one', async () => {
    const kept = await stack.get(PATH, KEYS.aliceRead, { 'x-request-id': 'trace-abc.123' });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc.123');
    const replaced = await stack.get(PATH, KEYS.aliceRead, { 'x-request-id': 'bad id with spaces' });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unauth = await stack.get(PATH, undefined, { 'x-request-id': 'trace-401' });
    expect(unauth.headers.get('x-request-id')).toBe('trace-401');
  });

  it.each([
    ['bad JSON', '{"confirm_token":', 'application/json', 400, 'body'],
    ['an empty JSON body', '', 'application/json', 400, 'body'],
    ['a body over 16 KiB', JSON.stringify({ pad: 'x'.repeat(17 * 1024) }), 'application/json', 413, 'body'],
    ['a non-JSON media type', 'hello', 'text/plain', 400, 'content-type'],
    ['a form body', 'a=1', 'application/x-www-form-urlencoded', 400, 'content-type'],
  ])('refuses %s with the envelope', async (_n, raw, type, status, field) => {
    const res = await stack.request('POST', '/open/v1/orders', { key: KEYS.aliceWrite, raw, headers: { 'content-type': type } });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: { code: 'INVALID_ARGUMENT', message: expect.any(String), details: { field } } });
  });

  it.each([
    ['__proto__', '{"confirm_token":"x","__proto__":{"admin":true}}'],
    ['constructor.prototype', '{"confirm_token":"x","constructor":{"prototype":{"admin":true}}}'],
  ])('refuses a body that poisons the prototype through %s, as Fastify does', async (_n, raw) => {
    const res = await stack.request('POST', '/open/v1/orders', {
      key: KEYS.aliceWrite,
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'INVALID_ARGUMENT', message: expect.any(String), details: { field: 'body' } } });
  });

  it.each([
    ['bad JSON', '{"confirm_token":', 'application/json'],
    ['an empty JSON body', '', 'application/json'],
    ['a non-JSON media type', 'hello', 'text/plain'],
  ])('answers an unknown route with 404 whatever its body: %s', async (_n, raw, type) => {
    for (const key of [KEYS.aliceWrite, undefined]) {
      const res = await stack.request('POST', '/open/v1/orders/preview', { key, raw, headers: { 'content-type': type } });
      expect([res.status, res.body.error?.code]).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('answers bad JSON on /mcp with a JSON-RPC parse error (a protocol fault)', async () => {
    const res = await stack.request('POST', '/mcp', {
      key: KEYS.aliceRead,
      raw: '{"jsonrpc":',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
  });

  it('refuses an oversized or non-JSON body on /mcp with the envelope', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const big = await stack.request('POST', '/mcp', {
      key: KEYS.aliceRead,
      raw: JSON.stringify({ pad: 'x'.repeat(17 * 1024) }),
      headers: { ...headers, 'content-type': 'application/json' },
    });
    expect([big.status, big.body.error?.code]).toEqual([413, 'INVALID_ARGUMENT']);
    const text = await stack.request('POST', '/mcp', {
      key: KEYS.aliceRead,
      raw: 'hi',
      headers: { ...headers, 'content-type': 'text/plain' },
    });
    expect([text.status, text.body.error?.code]).toEqual([400, 'INVALID_ARGUMENT']);
  });

  it('authenticates before reading a body', async () => {
    const res = await stack.request('POST', '/mcp', { raw: '{"broken', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
  });
});
