/**
 * The circuit breaker: K consecutive failed calls (transport errors, timeouts, 5xx without a
 * business code) open it; while open, calls are answered at once with the same INTERNAL error
 * and reach no backend; after the cool-down one probe goes through, and its outcome closes or
 * reopens it. Business errors are a healthy backend answering and never count.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.ts';
import { CircuitBreaker, CircuitOpenError } from '../../src/upstream/resilience/breaker.ts';
import { BASE, OK, Thing, failure, makeClient, realServer, recorder, recordingMetrics } from './helpers.ts';

const rec = recorder();
const ctx = { requestId: 'req-breaker', actingUser: '00000000-0000-4000-8000-0000000a0001', log: rec.log };
const call = (c: ReturnType<typeof makeClient>, method: 'GET' | 'POST' = 'GET') =>
  c.call(ctx, { method, path: '/internal/x', schema: Thing, ...(method === 'POST' ? { body: {} } : {}) });

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  rec.lines.length = 0;
});
afterAll(() => nock.enableNetConnect());

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

describe('CircuitBreaker', () => {
  const opts = { threshold: 3, cooldownMs: 1_000, windowMs: 5_000, probeTimeoutMs: 2_000 };

  it('opens after K consecutive failures and refuses until the cool-down ends', () => {
    const c = clock();
    const b = new CircuitBreaker({ ...opts, now: c.now });
    for (let i = 0; i < 2; i++) expect(b.failure(b.admit().ticket!)).toBeNull();
    expect(b.failure(b.admit().ticket!)).toEqual({ from: 'closed', to: 'open', failures: 3 });
    expect(b.admit()).toEqual({ ticket: null, transition: null });
    c.t += 999;
    expect(b.admit().ticket).toBeNull();
    c.t += 1;
    const probe = b.admit();
    expect(probe).toEqual({ ticket: { probe: true }, transition: { from: 'open', to: 'half-open', failures: 3 } });
    // One probe at a time.
    expect(b.admit().ticket).toBeNull();
    expect(b.success(probe.ticket!)).toEqual({ from: 'half-open', to: 'closed', failures: 0 });
    expect(b.admit().ticket).toEqual({ probe: false });
  });

  it('a success ends the streak; failures further apart than the window start a new one', () => {
    const c = clock();
    const b = new CircuitBreaker({ ...opts, now: c.now });
    b.failure(b.admit().ticket!);
    b.failure(b.admit().ticket!);
    b.success(b.admit().ticket!);
    b.failure(b.admit().ticket!);
    b.failure(b.admit().ticket!);
    expect(b.state).toBe('closed');
    c.t += 6_000; // the streak's first failure is now outside the window
    b.failure(b.admit().ticket!);
    expect(b.state).toBe('closed');
    b.failure(b.admit().ticket!);
    expect(b.failure(b.admit().ticket!)?.to).toBe('open');
  });

  it('a failed probe opens it for another cool-down; a stuck probe is replaced', () => {
    const c = clock();
    const b = new CircuitBreaker({ ...opts, now: c.now });
    for (let i = 0; i < 3; i++) b.failure(b.admit().ticket!);
    c.t += 1_000;
    const probe = b.admit().ticket!;
    expect(b.failure(probe)).toEqual({ from: 'half-open', to: 'open', failures: 3 });
    c.t += 500;
    expect(b.admit().ticket).toBeNull();
    c.t += 500;
    expect(b.admit().ticket?.probe).toBe(true); // this probe never reports…
    c.t += 1_999;
    expect(b.admit().ticket).toBeNull();
    c.t += 1;
    expect(b.admit().ticket?.probe).toBe(true); // …so another one goes after probeTimeoutMs
  });

  it('late reports of calls admitted before it opened change nothing', () => {
    const b = new CircuitBreaker({ ...opts, now: clock().now });
    const early = b.admit().ticket!;
    for (let i = 0; i < 3; i++) b.failure(b.admit().ticket!);
    expect(b.success(early)).toBeNull();
    expect(b.state).toBe('open');
  });

  it('threshold 0 disables it', () => {
    const b = new CircuitBreaker({ ...opts, threshold: 0, now: clock().now });
    for (let i = 0; i < 100; i++) b.failure(b.admit().ticket!);
    expect(b.state).toBe('closed');
    expect(b.admit().ticket).not.toBeNull();
  });
});

describe('UpstreamClient breaker', () => {
  it('opens after K failed calls, then answers INTERNAL at once without calling the backend', async () => {
    const scope = nock(BASE).get('/internal/x').times(3).reply(500, { errCode: 99999 });
    const spare = nock(BASE).get('/internal/x').reply(200, OK);
    const metrics = recordingMetrics();
    const c = makeClient({ retries: 0, breaker: { threshold: 3, cooldownMs: 60_000 }, metrics });
    for (let i = 0; i < 3; i++) expect((await failure(call(c))).code).toBe('INTERNAL');
    scope.done();
    expect(c.breakerState).toBe('open');
    expect(rec.lines.filter((l) => l.msg.startsWith('upstream circuit opened'))).toHaveLength(1);

    rec.lines.length = 0;
    for (let i = 0; i < 10; i++) {
      const err = await failure(call(c, i % 2 === 0 ? 'GET' : 'POST'));
      // The same error a failed call gives: 500 INTERNAL, its cause says why (for the logs).
      expect(err).toBeInstanceOf(ApiError);
      expect(err.code).toBe('INTERNAL');
      expect(err.status).toBe(500);
      expect(err.toEnvelope()).toEqual(new ApiError('INTERNAL').toEnvelope());
      expect(err.cause).toBeInstanceOf(CircuitOpenError);
    }
    expect(spare.isDone()).toBe(false);
    // Logged once per state change, not once per refused call; refused calls are not backend calls.
    expect(rec.lines).toHaveLength(0);
    expect(metrics.calls).toHaveLength(3);
  });

  it('refuses at once while open: a hanging backend costs K timeouts, then no call', async () => {
    nock.enableNetConnect('127.0.0.1');
    const srv = await realServer(() => {});
    try {
      const TIMEOUT = 500;
      const c = makeClient({ baseUrl: srv.url, timeoutMs: TIMEOUT, breaker: { threshold: 3, cooldownMs: 60_000 } });
      for (let i = 0; i < 3; i++) {
        const err = await failure(call(c));
        expect(err.code).toBe('INTERNAL');
        // Each of the first K calls waited for its whole deadline.
        expect(err.cause).toMatchObject({ name: 'TimeoutError' });
      }
      expect(c.breakerState).toBe('open');
      for (let i = 0; i < 20; i++) {
        const err = await failure(call(c));
        expect(err.code).toBe('INTERNAL');
        // Refused by the open circuit before any exchange, so with no deadline to wait for.
        expect(err.cause).toBeInstanceOf(CircuitOpenError);
      }
      expect(srv.hits).toBe(3);
      await c.close();
    } finally {
      await srv.close();
      nock.disableNetConnect();
    }
  });

  it('half-open: one probe after the cool-down; its success closes the breaker', async () => {
    const c0 = clock();
    nock(BASE).get('/internal/x').times(2).reply(503, '');
    const c = makeClient({ retries: 0, breaker: { threshold: 2, cooldownMs: 5_000 }, now: c0.now });
    await failure(call(c));
    await failure(call(c));
    expect(c.breakerState).toBe('open');
    c0.t += 5_000;
    // The probe is slow; calls arriving meanwhile are still refused at once.
    const probeScope = nock(BASE).get('/internal/x').delay(100).reply(200, OK);
    const probe = call(c);
    expect(c.breakerState).toBe('half-open');
    expect((await failure(call(c))).code).toBe('INTERNAL');
    expect(await probe).toEqual({ name: 'a', n: 1 });
    probeScope.done();
    expect(c.breakerState).toBe('closed');
    nock(BASE).get('/internal/x').reply(200, OK);
    expect(await call(c)).toEqual({ name: 'a', n: 1 });
    expect(rec.lines.filter((l) => l.msg.startsWith('upstream circuit')).map((l) => l.msg)).toEqual([
      'upstream circuit opened: backend calls refused during the cool-down',
      'upstream circuit half-open: one probe call let through',
      'upstream circuit closed: backend answering again',
    ]);
  });

  it('half-open: a failed probe opens it again for a whole cool-down', async () => {
    const c0 = clock();
    nock(BASE).get('/internal/x').times(3).reply(500, { errCode: 99999 });
    const c = makeClient({ retries: 0, breaker: { threshold: 2, cooldownMs: 5_000 }, now: c0.now });
    await failure(call(c));
    await failure(call(c));
    c0.t += 5_000;
    await failure(call(c)); // the probe, answered 500
    expect(c.breakerState).toBe('open');
    c0.t += 4_999;
    const spare = nock(BASE).get('/internal/x').reply(200, OK);
    expect((await failure(call(c))).cause).toBeInstanceOf(CircuitOpenError);
    expect(spare.isDone()).toBe(false);
    c0.t += 1;
    expect(await call(c)).toEqual({ name: 'a', n: 1 });
    expect(c.breakerState).toBe('closed');
  });

  it('business errors, 4xx and malformed 2xx answers never open it; they end a failure streak', async () => {
    const c = makeClient({ retries: 0, breaker: { threshold: 2, cooldownMs: 60_000 } });
    nock(BASE)
      .get('/internal/x')
      .reply(500, { errCode: 99999 })
      .get('/internal/x')
      .reply(404, { errCode: 30001, errMsg: 'not found' })
      .get('/internal/x')
      .reply(500, { errCode: 99999 })
      .get('/internal/x')
      .reply(503, { errCode: 50011, errMsg: 'busy' }) // a business code, even on a 503
      .get('/internal/x')
      .times(5)
      .reply(200, { errCode: 0, data: { wrong: true } })
      .get('/internal/x')
      .times(5)
      .reply(200, { errCode: 424242 });
    for (let i = 0; i < 14; i++) await failure(call(c));
    expect(c.breakerState).toBe('closed');
  });

  it('POST failures count too (the backend is one service)', async () => {
    nock(BASE).post('/internal/x').times(2).reply(502, '<html>bad gateway</html>');
    const c = makeClient({ breaker: { threshold: 2, cooldownMs: 60_000 } });
    await failure(call(c, 'POST'));
    await failure(call(c, 'POST'));
    expect(c.breakerState).toBe('open');
  });

  it('counts a call once, retries included', async () => {
    nock(BASE).get('/internal/x').times(3).reply(503, '');
    const c = makeClient({ retries: 2, breaker: { threshold: 2, cooldownMs: 60_000 } });
    await failure(call(c));
    expect(c.breakerState).toBe('closed');
  });

  it('UPSTREAM_BREAKER_THRESHOLD=0 disables it', async () => {
    nock(BASE).get('/internal/x').times(10).reply(500, { errCode: 99999 });
    const c = makeClient({ retries: 0, breaker: { threshold: 0, cooldownMs: 60_000 } });
    for (let i = 0; i < 10; i++) await failure(call(c));
    expect(c.breakerState).toBe('closed');
  });
});
