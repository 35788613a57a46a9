/**
 * Bounded retries: GETs only, on connection errors and 502/503/504, a few times, with a small
 * jittered backoff, all inside the call's one deadline. POSTs (quotes, writes) never.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs, isRetryableError } from '../../src/upstream/resilience/retry.ts';
import { BASE, OK, Thing, failure, json, makeClient, realServer, recorder, recordingMetrics, refusedPort } from './helpers.ts';

const rec = recorder();
const ctx = { requestId: 'req-retry', actingUser: '00000000-0000-4000-8000-0000000a0001', log: rec.log };

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  rec.lines.length = 0;
});
afterAll(() => nock.enableNetConnect());

describe('GET retries', () => {
  it('retries a GET answered 503, then returns the success', async () => {
    const scope = nock(BASE).get('/internal/zones').reply(503, '').get('/internal/zones').reply(200, OK);
    const metrics = recordingMetrics();
    const data = await makeClient({ metrics }).call(ctx, { path: '/internal/zones', schema: Thing });
    expect(data).toEqual({ name: 'a', n: 1 });
    scope.done();
    expect(rec.lines.map((l) => l.msg)).toEqual(['upstream answered a retryable status; retrying']);
    expect(rec.lines[0]?.obj).toMatchObject({ reqId: 'req-retry', status: 503, attempt: 1 });
    // Every backend request is measured: the failed attempt and the good one.
    expect(metrics.calls.map((c) => [c.endpoint, c.method, c.outcome])).toEqual([
      ['/internal/zones', 'GET', 'failed'],
      ['/internal/zones', 'GET', 'ok'],
    ]);
  });

  it.each([502, 503, 504])('retries %i', async (status) => {
    const scope = nock(BASE).get('/internal/x').reply(status, { errCode: 99999 }).get('/internal/x').reply(200, OK);
    await makeClient().call(ctx, { path: '/internal/x', schema: Thing });
    scope.done();
  });

  it('is bounded: 1 + UPSTREAM_RETRIES attempts, then INTERNAL', async () => {
    const scope = nock(BASE).get('/internal/x').times(3).reply(503, { errCode: 99999, errMsg: 'down' });
    const spare = nock(BASE).get('/internal/x').reply(200, OK);
    const err = await failure(makeClient({ retries: 2 }).call(ctx, { path: '/internal/x', schema: Thing }));
    expect(err.code).toBe('INTERNAL');
    scope.done();
    expect(spare.isDone()).toBe(false); // a fourth attempt never happened
    expect(rec.lines.filter((l) => l.msg.includes('retrying'))).toHaveLength(2);
  });

  it('retries = 0 turns retries off', async () => {
    nock(BASE).get('/internal/x').reply(503, '');
    const spare = nock(BASE).get('/internal/x').reply(200, OK);
    expect((await failure(makeClient({ retries: 0 }).call(ctx, { path: '/internal/x', schema: Thing }))).code).toBe('INTERNAL');
    expect(spare.isDone()).toBe(false);
  });

  it.each([
    ['500', 500, { errCode: 99999 }],
    ['a business error', 404, { errCode: 30001, errMsg: 'no market' }],
    ['a 4xx', 400, { errCode: 10001 }],
    ['a malformed 200', 200, { errCode: 0, data: { name: 1 } }],
    // A healthy backend saying it is busy: asking again at once would only add to its load.
    ['a 503 carrying a business code (busy)', 503, { errCode: 50011, errMsg: 'busy' }],
  ])('does not retry %s', async (_name, status, body) => {
    nock(BASE).get('/internal/x').reply(status, body);
    const spare = nock(BASE).get('/internal/x').reply(200, OK);
    await failure(makeClient().call(ctx, { path: '/internal/x', schema: Thing }));
    expect(spare.isDone()).toBe(false);
  });

  it('never retries a POST, whatever the failure (quotes and writes)', async () => {
    nock(BASE).post('/internal/prediction/orders').reply(503, { errCode: 99999 });
    const spare = nock(BASE).post('/internal/prediction/orders').reply(200, OK);
    const err = await failure(
      makeClient({ retries: 5 }).call(ctx, {
        method: 'POST',
        path: '/internal/prediction/orders',
        body: {},
        idempotencyKey: 'k',
        schema: Thing,
      }),
    );
    expect(err.code).toBe('INTERNAL');
    expect(spare.isDone()).toBe(false);
    expect(rec.lines.some((l) => l.msg.includes('retrying'))).toBe(false);
  });

  it('retries a GET after a connection reset (real socket), never a POST', async () => {
    nock.enableNetConnect('127.0.0.1');
    // Every first request on the server is cut without an answer; later ones are answered.
    const srv = await realServer((req, res, hit) => (hit % 2 === 1 ? req.socket.destroy() : json(res, 200, OK)));
    try {
      const c = makeClient({ baseUrl: srv.url });
      expect(await c.call(ctx, { path: '/internal/x', schema: Thing })).toEqual({ name: 'a', n: 1 });
      expect(srv.hits).toBe(2);
      // hit 3 is cut again: a POST gives up at once.
      const err = await failure(c.call(ctx, { method: 'POST', path: '/internal/x', body: {}, schema: Thing }));
      expect(err.code).toBe('INTERNAL');
      expect(srv.hits).toBe(3);
      await c.close();
    } finally {
      await srv.close();
      nock.disableNetConnect();
    }
  });

  it('retries a refused connection, then gives up on the refusal, not on the deadline', async () => {
    nock.enableNetConnect('127.0.0.1');
    try {
      const port = await refusedPort();
      const c = makeClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 5_000 });
      const err = await failure(c.call(ctx, { path: '/internal/x', schema: Thing }));
      expect(err.code).toBe('INTERNAL');
      expect(err.cause).not.toMatchObject({ name: 'TimeoutError' });
      expect(rec.lines.filter((l) => l.msg === 'upstream call failed; retrying')).toHaveLength(2);
      expect(rec.lines.at(-1)).toMatchObject({ level: 'error', msg: 'upstream call failed', obj: { attempts: 3 } });
      await c.close();
    } finally {
      nock.disableNetConnect();
    }
  });

  it('keeps every attempt and wait inside the one deadline', async () => {
    nock.enableNetConnect('127.0.0.1');
    // Each answer takes 120 ms and is a 503: without the deadline, 6 attempts would take > 700 ms.
    const srv = await realServer((_req, res) => setTimeout(() => json(res, 503, ''), 120));
    try {
      const c = makeClient({ baseUrl: srv.url, timeoutMs: 400, retries: 5, backoff: { baseMs: 40, maxMs: 40, random: () => 1 } });
      expect((await failure(c.call(ctx, { path: '/internal/x', schema: Thing }))).code).toBe('INTERNAL');
      expect(srv.hits).toBeLessThan(6);
      // No retry was announced that the deadline left no room for: every announced one was sent.
      const retries = rec.lines.filter((l) => l.msg === 'upstream answered a retryable status; retrying');
      expect(srv.hits).toBe(retries.length + 1);
      await c.close();
    } finally {
      await srv.close();
      nock.disableNetConnect();
    }
  });

  it('does not retry after the whole-call deadline fired (a hanging backend costs one timeout)', async () => {
    nock.enableNetConnect('127.0.0.1');
    const srv = await realServer(() => {});
    try {
      const c = makeClient({ baseUrl: srv.url, timeoutMs: 200, retries: 2 });
      const err = await failure(c.call(ctx, { path: '/internal/x', schema: Thing }));
      expect(err.code).toBe('INTERNAL');
      expect(err.cause).toMatchObject({ name: 'TimeoutError' });
      expect(srv.hits).toBe(1);
      await c.close();
    } finally {
      await srv.close();
      nock.disableNetConnect();
    }
  });
});

describe('retry policy', () => {
  it('backoff grows, is capped and jittered between half and all of its ceiling', () => {
    const o = { baseMs: 50, maxMs: 400 };
    expect(backoffMs(0, { ...o, random: () => 0 })).toBe(25);
    expect(backoffMs(0, { ...o, random: () => 1 })).toBe(50);
    expect(backoffMs(1, { ...o, random: () => 1 })).toBe(100);
    expect(backoffMs(10, { ...o, random: () => 1 })).toBe(400);
    for (let i = 0; i < 50; i++) {
      const ms = backoffMs(2);
      expect(ms).toBeGreaterThanOrEqual(100);
      expect(ms).toBeLessThanOrEqual(200);
    }
  });

  it('retries transport codes that mean "no answer", not aborts or timeouts', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']) {
      expect(isRetryableError(Object.assign(new Error('x'), { code }))).toBe(true);
    }
    expect(isRetryableError(Object.assign(new Error('x'), { cause: { code: 'ECONNRESET' } }))).toBe(true);
    expect(isRetryableError(new DOMException('timeout', 'TimeoutError'))).toBe(false);
    expect(isRetryableError(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }))).toBe(false);
    expect(isRetryableError(null)).toBe(false);
  });
});
