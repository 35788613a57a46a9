import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/errors/api-error.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { hasUpstreamCode, UpstreamApiError } from '../../src/upstream/errors.ts';

const BASE = 'http://backend.test';
const logged: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
const log = {
  warn: (obj: object, msg: string) => logged.push({ level: 'warn', msg, obj: obj as Record<string, unknown> }),
  error: (obj: object, msg: string) => logged.push({ level: 'error', msg, obj: obj as Record<string, unknown> }),
  debug: (obj: object, msg: string) => logged.push({ level: 'debug', msg, obj: obj as Record<string, unknown> }),
};
const ctx = { requestId: 'req-123', actingUser: '00000000-0000-4000-8000-0000000a0001', log };

function client(timeoutMs = 500) {
  // nock 15 intercepts at the socket level, so the client's own undici Agent is covered too.
  // Retries and the breaker have their own tests (retry.test.ts, breaker.test.ts).
  return new UpstreamClient({
    baseUrl: BASE,
    serviceToken: 'svc-token',
    timeoutMs,
    connectTimeoutMs: 200,
    connections: 4,
    maxResponseBytes: 1024,
    retries: 0,
  });
}

const Thing = z.object({ name: z.string(), n: z.number() });

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  logged.length = 0;
});
afterAll(() => nock.enableNetConnect());

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('UpstreamClient', () => {
  it.each(['http://backend.test/api', 'http://backend.test/api/'])('keeps the path of a base URL (%s)', async (baseUrl) => {
    const scope = nock('http://backend.test')
      .get('/api/internal/things')
      .query({ q: 'a b' })
      .reply(200, { errCode: 0, data: { name: 'a', n: 1 } });
    const c = new UpstreamClient({
      baseUrl,
      serviceToken: 's',
      timeoutMs: 500,
      connectTimeoutMs: 200,
      connections: 1,
      maxResponseBytes: 1024,
    });
    await expect(c.call(ctx, { path: '/internal/things', query: { q: 'a b' }, schema: Thing })).resolves.toEqual({ name: 'a', n: 1 });
    expect(scope.isDone()).toBe(true);
  });

  it('sends the service token, acting user, request id and query; returns validated data', async () => {
    const scope = nock(BASE, {
      reqheaders: { 'x-service-token': 'svc-token', 'x-acting-user': ctx.actingUser, 'x-request-id': 'req-123' },
    })
      .get('/internal/things')
      .query({ offset: '0', limit: '5' })
      .reply(200, { errCode: 0, data: { name: 'a', n: 1 } });
    const data = await client().call(ctx, { path: '/internal/things', query: { offset: 0, limit: 5, skip: undefined }, schema: Thing });
    expect(data).toEqual({ name: 'a', n: 1 });
    scope.done();
  });

  it('posts JSON with the idempotency key', async () => {
    const scope = nock(BASE, { reqheaders: { 'idempotency-key': 'idem-1', 'content-type': 'application/json' } })
      .post('/internal/write', { a: 1 })
      .reply(200, { errCode: 0, data: { name: 'w', n: 2 } });
    await client().call(ctx, { method: 'POST', path: '/internal/write', body: { a: 1 }, idempotencyKey: 'idem-1', schema: Thing });
    scope.done();
  });

  it('maps a known error code, even when it arrives with HTTP 200, and keeps errMsg out of the error', async () => {
    nock(BASE).get('/internal/polls/x').reply(200, { errCode: 40001, errMsg: 'poll gone (db shard 7)' });
    const err = await failure(client().call(ctx, { path: '/internal/polls/x', schema: Thing }));
    expect(err.code).toBe('NOT_FOUND');
    expect(err).toBeInstanceOf(UpstreamApiError);
    expect(JSON.stringify(err.toEnvelope())).not.toContain('shard');
    // Something not there is routine (a poll id is tried as a market first): a debug line.
    expect(logged[0]).toMatchObject({ level: 'debug', obj: { errCode: 40001, errMsg: 'poll gone (db shard 7)', reqId: 'req-123' } });
  });

  it("answers a read's rule or key code as the backend fault it is, and keeps a write's", async () => {
    // 30004 (coins insufficient), 30010 (idempotency key in flight), 20001 (key unknown): codes
    // of writes and authentication, which a read must never hand to its caller.
    for (const errCode of [30004, 30010, 20001]) {
      nock(BASE).get('/internal/zones').reply(200, { errCode, errMsg: 'odd' });
      const err = await failure(client().call(ctx, { path: '/internal/zones', schema: Thing }));
      expect([errCode, err.code]).toEqual([errCode, 'INTERNAL']);
      expect(hasUpstreamCode(err, errCode)).toBe(true);
      expect(logged.at(-1)).toMatchObject({ level: 'error', obj: { errCode } });
    }
    nock(BASE).post('/internal/prediction/orders').reply(200, { errCode: 30004, errMsg: 'poor' });
    const write = await failure(client().call(ctx, { method: 'POST', path: '/internal/prediction/orders', body: {}, schema: Thing }));
    expect(write.code).toBe('INSUFFICIENT_BALANCE');
  });

  it('refuses a page holding more items than it was asked for', async () => {
    const Page = z.object({ items: z.array(z.number()), total: z.number() });
    const page = (n: number) => ({ errCode: 0, data: { items: Array.from({ length: n }, (_, i) => i), total: 500 } });
    nock(BASE)
      .get('/internal/list')
      .query({ offset: 0, limit: 2 })
      .reply(200, page(2))
      .get('/internal/list')
      .query({ offset: 2, limit: 2 })
      .reply(200, page(3));
    const c = client();
    expect(await c.call(ctx, { path: '/internal/list', query: { offset: 0, limit: 2 }, schema: Page })).toMatchObject({ items: [0, 1] });
    const err = await failure(c.call(ctx, { path: '/internal/list', query: { offset: 2, limit: 2 }, schema: Page }));
    expect(err.code).toBe('INTERNAL');
    expect(logged.at(-1)).toMatchObject({ level: 'error', msg: 'upstream answer failed validation', obj: { items: 3, limit: 2 } });
  });

  it('maps an unknown error code to INTERNAL', async () => {
    nock(BASE).get('/internal/x').reply(500, { errCode: 12345, errMsg: 'boom' });
    expect((await failure(client().call(ctx, { path: '/internal/x', schema: Thing }))).code).toBe('INTERNAL');
  });

  it.each([
    ['data of the wrong shape', 200, { errCode: 0, data: { name: 1 } }],
    ['no envelope', 200, { name: 'a', n: 1 }],
    ['an error envelope without a code', 200, { errCode: 'x' }],
    ['success envelope with a 5xx status', 503, { errCode: 0, data: { name: 'a', n: 1 } }],
    ['non-JSON body', 200, '<html>oops</html>'],
    ['empty body', 204, ''],
  ])('turns %s into INTERNAL', async (_name, status, body) => {
    nock(BASE)
      .get('/internal/x')
      .reply(status, body as never);
    const err = await failure(client().call(ctx, { path: '/internal/x', schema: Thing }));
    expect(err.code).toBe('INTERNAL');
    expect(err.status).toBe(500);
    expect(logged.some((l) => l.level === 'error')).toBe(true);
  });

  /**
   * One call with a 200 ms deadline against a real server (nock's delayed replies do not
   * survive an abort): how it failed, how long it took, and whether its connection was closed.
   */
  async function callAgainst(handler: Parameters<typeof createServer>[1]) {
    nock.enableNetConnect('127.0.0.1');
    let closed = false;
    const server = createServer((req, res) => {
      req.socket.once('close', () => {
        closed = true;
      });
      handler?.(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const slow = new UpstreamClient({
      baseUrl: `http://127.0.0.1:${port}`,
      serviceToken: 't',
      timeoutMs: 200,
      connectTimeoutMs: 200,
      connections: 1,
      maxResponseBytes: 1024,
      retries: 0,
    });
    const err = await failure(slow.call(ctx, { path: '/internal/slow', schema: Thing }));
    // The aborted exchange closes its connection.
    await vi.waitFor(() => expect(closed).toBe(true));
    const result = { err, closed };
    await slow.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    nock.disableNetConnect();
    return result;
  }

  it('gives up after its deadline instead of hanging', async () => {
    const { err, closed } = await callAgainst(() => {});
    expect(err.code).toBe('INTERNAL');
    expect(err.cause).toMatchObject({ name: 'TimeoutError' });
    expect(closed).toBe(true);
  });

  it('gives up after its deadline when the body stalls after the headers', async () => {
    // The wait for the body is bounded by the call's deadline alone (undici's bodyTimeout is off).
    const { err, closed } = await callAgainst((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"errCode":0,');
    });
    expect(err.code).toBe('INTERNAL');
    expect(err.cause).toMatchObject({ name: 'TimeoutError' });
    // The stalled exchange was aborted: its connection is not left waiting for the rest.
    expect(closed).toBe(true);
  });

  it('treats a connection failure as INTERNAL, at once', async () => {
    // nock's replyWithError never reaches undici 8 (the request just hangs until the deadline),
    // so a real refused connection: a port that was listening a moment ago.
    nock.enableNetConnect('127.0.0.1');
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    const dead = new UpstreamClient({
      baseUrl: `http://127.0.0.1:${port}`,
      serviceToken: 't',
      timeoutMs: 2_000,
      connectTimeoutMs: 200,
      connections: 1,
      maxResponseBytes: 1024,
      retries: 0,
    });
    const err = await failure(dead.call(ctx, { path: '/internal/x', schema: Thing }));
    expect(err.code).toBe('INTERNAL');
    // The refusal itself, not the 2 s deadline.
    expect(err.cause).not.toMatchObject({ name: 'TimeoutError' });
    expect(logged.at(-1)).toMatchObject({
      level: 'error',
      msg: 'upstream call failed',
      obj: { reqId: 'req-123', err: 'Error ECONNREFUSED' },
    });
    await dead.close();
    nock.disableNetConnect();
  });

  it('adds the retry delay to codes that invite a retry', async () => {
    nock(BASE).post('/internal/back').reply(503, { errCode: 50011, errMsg: 'busy' });
    const err = await failure(client().call(ctx, { method: 'POST', path: '/internal/back', body: {}, schema: Thing }));
    expect(err.code).toBe('OPINION_BACK_RETRY');
    expect(err.status).toBe(503);
    expect(err.headers['retry-after']).toBe('2');
    expect(err.details).toEqual({ retry_after: 2 });
  });
});
