/**
 * Request coalescing of public reads (`shared: true`): sent without X-Acting-User; identical
 * ones in flight together share one backend call made with the first caller's request id;
 * nothing is cached, a failure reaches every waiter and the next call is fresh.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/errors/api-error.ts';
import type { BoundUpstream } from '../../src/upstream/bound.ts';
import * as platform from '../../src/upstream/api/platform.api.ts';
import * as poll from '../../src/upstream/api/poll.api.ts';
import * as prediction from '../../src/upstream/api/prediction.api.ts';
import { BASE, OK, Thing, USER, makeClient, realServer, recorder, recordingMetrics } from './helpers.ts';

const rec = recorder();
const ctxOf = (requestId: string) => ({ requestId, actingUser: USER, log: rec.log });
const Items = z.object({ items: z.array(z.object({ id: z.string() })) });

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  rec.lines.length = 0;
});
afterAll(() => nock.enableNetConnect());

describe('shared reads', () => {
  it('N concurrent identical shared GETs make one backend call; everyone gets the answer', async () => {
    // One interceptor only: a second backend call would get nock's 501 and fail its caller.
    const scope = nock(BASE, { badheaders: ['x-acting-user'], reqheaders: { 'x-request-id': 'req-0' } })
      .get('/internal/zones')
      .query({ a: '1', b: '2' })
      .delay(80)
      .reply(200, { errCode: 0, data: { items: [{ id: 'z1' }] } });
    const metrics = recordingMetrics();
    const c = makeClient({ metrics });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        // Query order does not matter to the key.
        c.call(ctxOf(`req-${i}`), {
          path: '/internal/zones',
          query: i % 2 === 0 ? { a: 1, b: 2 } : { b: 2, a: 1 },
          schema: Items,
          shared: true,
        }),
      ),
    );
    scope.done();
    for (const r of results) expect(r).toEqual({ items: [{ id: 'z1' }] });
    // Each caller holds its own objects: no caller can change another's answer.
    expect(results[0]).not.toBe(results[1]);
    expect(results[0]?.items).not.toBe(results[1]?.items);
    // The joiners' logs name the request that made the call.
    const joins = rec.lines.filter((l) => l.msg === 'upstream call shared with an identical one in flight');
    expect(joins).toHaveLength(7);
    expect(joins[0]).toMatchObject({ level: 'debug', obj: { reqId: 'req-1', sharedWith: 'req-0' } });
    // One backend call, measured once.
    expect(metrics.calls.map((m) => [m.endpoint, m.outcome])).toEqual([['/internal/zones', 'ok']]);
  });

  it('a later identical call is a fresh call: nothing is cached', async () => {
    const scope = nock(BASE)
      .get('/internal/zones')
      .times(2)
      .reply(200, { errCode: 0, data: { items: [] } });
    const c = makeClient();
    await c.call(ctxOf('r1'), { path: '/internal/zones', schema: Items, shared: true });
    await c.call(ctxOf('r2'), { path: '/internal/zones', schema: Items, shared: true });
    scope.done();
  });

  it('a different query, path or method is not coalesced', async () => {
    const scope = nock(BASE)
      .get('/internal/x')
      .query({ q: '1' })
      .delay(50)
      .reply(200, OK)
      .get('/internal/x')
      .query({ q: '2' })
      .delay(50)
      .reply(200, OK)
      .get('/internal/y')
      .query({ q: '1' })
      .delay(50)
      .reply(200, OK)
      .post('/internal/x')
      .query({ q: '1' })
      .delay(50)
      .times(2)
      .reply(200, OK);
    const c = makeClient();
    await Promise.all([
      c.call(ctxOf('a'), { path: '/internal/x', query: { q: 1 }, schema: Thing, shared: true }),
      c.call(ctxOf('b'), { path: '/internal/x', query: { q: 2 }, schema: Thing, shared: true }),
      c.call(ctxOf('c'), { path: '/internal/y', query: { q: 1 }, schema: Thing, shared: true }),
      // `shared` is ignored on a POST.
      c.call(ctxOf('d'), { method: 'POST', path: '/internal/x', query: { q: 1 }, body: {}, schema: Thing, shared: true }),
      c.call(ctxOf('e'), { method: 'POST', path: '/internal/x', query: { q: 1 }, body: {}, schema: Thing, shared: true }),
    ]);
    scope.done();
  });

  it('non-shared calls are never coalesced and keep X-Acting-User', async () => {
    const scope = nock(BASE, { reqheaders: { 'x-acting-user': USER } })
      .get('/internal/x')
      .delay(50)
      .times(3)
      .reply(200, OK);
    const c = makeClient();
    await Promise.all([0, 1, 2].map((i) => c.call(ctxOf(`n${i}`), { path: '/internal/x', schema: Thing })));
    scope.done();
  });

  it('a shared call and a non-shared one to the same path are separate calls', async () => {
    const scope = nock(BASE).get('/internal/x').delay(50).times(2).reply(200, OK);
    const c = makeClient();
    await Promise.all([
      c.call(ctxOf('s'), { path: '/internal/x', schema: Thing, shared: true }),
      c.call(ctxOf('p'), { path: '/internal/x', schema: Thing }),
    ]);
    scope.done();
  });

  it('a failure reaches every waiter and is not cached', async () => {
    nock(BASE).get('/internal/x').delay(80).reply(500, { errCode: 99999, errMsg: 'boom' });
    const c = makeClient();
    const settled = await Promise.allSettled(
      [0, 1, 2, 3].map((i) => c.call(ctxOf(`f${i}`), { path: '/internal/x', schema: Thing, shared: true })),
    );
    for (const s of settled) {
      expect(s.status).toBe('rejected');
      const reason = (s as PromiseRejectedResult).reason as ApiError;
      expect(reason).toBeInstanceOf(ApiError);
      expect(reason.code).toBe('INTERNAL');
    }
    // Each caller's own log line says why, with its own request id.
    expect(rec.lines.filter((l) => l.msg === 'upstream error').map((l) => l.obj['reqId'])).toEqual(['f0', 'f1', 'f2', 'f3']);
    // The next call goes to the backend again and succeeds.
    nock(BASE).get('/internal/x').reply(200, OK);
    expect(await c.call(ctxOf('after'), { path: '/internal/x', schema: Thing, shared: true })).toEqual({ name: 'a', n: 1 });
  });

  it("a transport failure (timeout) reaches every waiter, inside the first caller's deadline", async () => {
    nock.enableNetConnect('127.0.0.1');
    const srv = await realServer(() => {});
    try {
      const c = makeClient({ baseUrl: srv.url, timeoutMs: 250 });
      const settled = await Promise.allSettled(
        [0, 1, 2].map((i) => c.call(ctxOf(`t${i}`), { path: '/internal/x', schema: Thing, shared: true })),
      );
      expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
      // Every waiter got the first caller's failure: its one deadline, not a deadline of its own.
      const causes = settled.map((s) => (s.status === 'rejected' ? (s.reason as ApiError).cause : null));
      expect(causes[0]).toMatchObject({ name: 'TimeoutError' });
      expect(new Set(causes).size).toBe(1);
      expect(srv.hits).toBe(1);
      await c.close();
    } finally {
      await srv.close();
      nock.disableNetConnect();
    }
  });
});

describe('which backend reads are shared', () => {
  const up = (c: ReturnType<typeof makeClient>): BoundUpstream => ({ call: (o) => c.call(ctxOf('which'), o) });

  it('public prediction and catalogue reads go without X-Acting-User', async () => {
    const m = '00000000-0000-4000-8000-0000000b0001';
    const calls: [string, (u: BoundUpstream) => Promise<unknown>][] = [
      ['/internal/prediction/categories', (u) => prediction.listCategories(u)],
      ['/internal/prediction/markets', (u) => prediction.listMarkets(u, { offset: 0, limit: 20 })],
      [`/internal/prediction/markets/${m}`, (u) => prediction.getMarket(u, m)],
      [`/internal/prediction/markets/${m}/price-history`, (u) => prediction.getPriceHistory(u, m, 'ALL')],
      [`/internal/prediction/markets/${m}/opinions`, (u) => prediction.listMarketOpinions(u, m, { limit: 20 })],
      ['/internal/zones', (u) => platform.listZones(u)],
      ['/internal/contests/00000000-0000-4000-8000-00000000c001', (u) => platform.getContest(u, '00000000-0000-4000-8000-00000000c001')],
      ['/internal/search', (u) => platform.search(u, { kw: 'x', kind: 'MARKET', offset: 0, limit: 20 })],
    ];
    const c = makeClient({ retries: 0, breaker: { threshold: 0, cooldownMs: 1 } });
    for (const [path, run] of calls) {
      // Answered with an error: only the headers matter here.
      const scope = nock(BASE, { badheaders: ['x-acting-user'] })
        .get(path)
        .query(true)
        .reply(404, { errCode: 10404 });
      await run(up(c)).catch(() => undefined);
      expect(scope.isDone(), path).toBe(true);
    }
  });

  it('viewer-dependent reads keep X-Acting-User: polls, poll search, opinion detail, user reads', async () => {
    const p = '00000000-0000-4000-8000-0000000f0001';
    const calls: [string, (u: BoundUpstream) => Promise<unknown>][] = [
      ['/internal/poll/polls', (u) => poll.listPolls(u, { offset: 0, limit: 20 })],
      [`/internal/poll/polls/${p}`, (u) => poll.getPoll(u, p)],
      [`/internal/poll/polls/${p}/comments`, (u) => poll.listPollComments(u, p, { limit: 20 })],
      ['/internal/search', (u) => platform.search(u, { kw: 'x', kind: 'POLL', offset: 0, limit: 20 })],
      [
        '/internal/prediction/opinions/00000000-0000-4000-8000-0000000e0001',
        (u) => prediction.getOpinion(u, '00000000-0000-4000-8000-0000000e0001'),
      ],
      [`/internal/users/${USER}/profile`, (u) => platform.getProfile(u, USER)],
      [`/internal/prediction/users/${USER}/holdings`, (u) => prediction.listHoldings(u, USER, { offset: 0, limit: 20 })],
    ];
    const c = makeClient({ retries: 0, breaker: { threshold: 0, cooldownMs: 1 } });
    for (const [path, run] of calls) {
      const scope = nock(BASE, { reqheaders: { 'x-acting-user': USER } })
        .get(path)
        .query(true)
        .reply(404, { errCode: 10404 });
      await run(up(c)).catch(() => undefined);
      expect(scope.isDone(), path).toBe(true);
    }
  });
});
