/**
 * Every branch of the execute-once protocol (docs/contract/writes.md#executions), with the
 * outcome each one reports for metrics: expired against invalid tokens, a claim store that
 * fails (the write is refused and the claim given back later), waiting on an execution in
 * flight, and what is stored, released and replayed after each kind of answer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryClaimStore, type ClaimState, type ClaimStore, type StoredOutcome } from '../../src/confirm/claims.ts';
import { CLAIM_TTL_MS, PENDING_TTL_MS, executeOnce, type ExecuteDeps, type Execution } from '../../src/confirm/execute-once.ts';
import { ConfirmTokens, TOKEN_TTL_MS, parseConfirmKeys, type ConfirmAction } from '../../src/confirm/token.ts';
import { ApiError } from '../../src/errors/api-error.ts';

const caller = { userId: 'u1', keyId: 'key1' };
const ORDER: Execution = { action: 'place_order', retry: 'replay' };
const OPINION: Execution = { action: 'publish_opinion', retry: 'refuse' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Harness {
  deps: ExecuteDeps;
  seen: Array<[ConfirmAction, string]>;
  logs: Array<[string, object, string]>;
  clock: { t: number };
  token(action?: ConfirmAction): string;
}

/** `claims` may be built on the harness's clock, for a store that must age with the tokens. */
function harness(
  store: ClaimStore | ((clock: { t: number }) => ClaimStore) = new MemoryClaimStore(),
  extra: Partial<ExecuteDeps> = {},
): Harness {
  const clock = { t: 1_000_000 };
  const claims = typeof store === 'function' ? store(clock) : store;
  const tokens = new ConfirmTokens(parseConfirmKeys(`k1:${'z'.repeat(40)}`, undefined), () => clock.t);
  const seen: Array<[ConfirmAction, string]> = [];
  const logs: Array<[string, object, string]> = [];
  const deps: ExecuteDeps = {
    tokens,
    claims,
    log: { warn: (o, m) => logs.push(['warn', o, m]), error: (o, m) => logs.push(['error', o, m]) },
    onOutcome: (a, o) => seen.push([a, o]),
    ...extra,
  };
  return { deps, seen, logs, clock, token: (action = 'place_order') => tokens.issue(action, caller.userId, caller.keyId, { n: 1 }).token };
}

async function settle<T>(p: Promise<T>): Promise<T | ApiError> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

/** A claim store that records every call and can be told to fail. */
class SpyStore implements ClaimStore {
  readonly inner = new MemoryClaimStore();
  calls: string[] = [];
  owners: string[] = [];
  failClaim = false;
  failComplete = false;
  failRelease = false;
  failPeek = false;
  completed: Array<{ jti: string; outcome: StoredOutcome; ttlMs: number }> = [];
  claimTtls: number[] = [];

  async claim(jti: string, ttlMs: number, owner: string): Promise<ClaimState> {
    this.calls.push('claim');
    this.owners.push(owner);
    this.claimTtls.push(ttlMs);
    if (this.failClaim) throw new Error('claim store down');
    return this.inner.claim(jti, ttlMs, owner);
  }
  async complete(jti: string, outcome: StoredOutcome, ttlMs: number): Promise<void> {
    this.calls.push('complete');
    this.completed.push({ jti, outcome, ttlMs });
    if (this.failComplete) throw new Error('complete failed');
    return this.inner.complete(jti, outcome, ttlMs);
  }
  async release(jti: string, owner: string): Promise<void> {
    this.calls.push(`release:${owner}`);
    if (this.failRelease) throw new Error('release failed');
    return this.inner.release(jti, owner);
  }
  async peek(jti: string): Promise<ClaimState | null> {
    this.calls.push('peek');
    if (this.failPeek) throw new Error('peek failed');
    return this.inner.peek(jti);
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('executeOnce: the token', () => {
  it('reports an expired genuine token as expired (410) and runs nothing', async () => {
    const h = harness();
    const token = h.token();
    h.clock.t += TOKEN_TTL_MS;
    let runs = 0;
    const r = await settle(executeOnce(h.deps, ORDER, token, caller, async () => ({ runs: ++runs })));
    expect(r).toBeInstanceOf(ApiError);
    expect((r as ApiError).code).toBe('CONFIRM_TOKEN_EXPIRED');
    expect((r as ApiError).status).toBe(410);
    expect(h.seen).toEqual([['place_order', 'expired']]);
    expect(runs).toBe(0);
  });

  it('reports a token of another operation as invalid (400), without touching the claim store', async () => {
    const spy = new SpyStore();
    const h = harness(spy);
    const r = await settle(executeOnce(h.deps, ORDER, h.token('back_opinion'), caller, async () => ({})));
    expect((r as ApiError).code).toBe('CONFIRM_TOKEN_INVALID');
    expect(h.seen).toEqual([['place_order', 'invalid']]);
    expect(spy.calls).toEqual([]);
  });

  it('works without an outcome listener', async () => {
    const h = harness(new MemoryClaimStore(), { onOutcome: undefined });
    const token = h.token();
    expect(await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 1 }))).toEqual({
      status: 201,
      body: { id: 1, replayed: false },
    });
    expect(await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 2 }))).toEqual({
      status: 200,
      body: { id: 1, replayed: true },
    });
    expect((await settle(executeOnce(h.deps, ORDER, 'nope', caller, async () => ({})))) as ApiError).toHaveProperty(
      'code',
      'CONFIRM_TOKEN_INVALID',
    );
  });
});

describe('executeOnce: a used token after its 5 minutes', () => {
  const pastExpiry = (h: Harness) => {
    h.clock.t += TOKEN_TTL_MS + 60_000;
  };

  it('replays an order (200, replayed: true) without running it again', async () => {
    const h = harness();
    const token = h.token();
    let runs = 0;
    const run = async () => ({ id: 'o1', runs: ++runs });
    expect(await executeOnce(h.deps, ORDER, token, caller, run)).toEqual({ status: 201, body: { id: 'o1', runs: 1, replayed: false } });
    pastExpiry(h);
    expect(await executeOnce(h.deps, ORDER, token, caller, run)).toEqual({ status: 200, body: { id: 'o1', runs: 1, replayed: true } });
    expect(runs).toBe(1);
    expect(h.seen.map(([, o]) => o)).toEqual(['executed', 'replayed']);
  });

  it('refuses an opinion as 409 CONFIRM_TOKEN_USED, not 410', async () => {
    const h = harness();
    const token = h.token('publish_opinion');
    await executeOnce(h.deps, OPINION, token, caller, async () => ({ id: 'op' }));
    pastExpiry(h);
    const r = (await settle(executeOnce(h.deps, OPINION, token, caller, async () => ({ id: 'again' })))) as ApiError;
    expect([r.code, r.status]).toEqual(['CONFIRM_TOKEN_USED', 409]);
    expect(h.seen.map(([, o]) => o)).toEqual(['executed', 'used']);
  });

  it('replays a stored refusal as it was', async () => {
    const h = harness();
    const token = h.token();
    await settle(
      executeOnce(h.deps, ORDER, token, caller, async () => {
        throw new ApiError('TOPIC_CLOSED');
      }),
    );
    pastExpiry(h);
    const r = (await settle(executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'x' })))) as ApiError;
    expect([r.code, r.status]).toEqual(['TOPIC_CLOSED', 409]);
    expect(h.seen.map(([, o]) => o)).toEqual(['refused', 'replayed']);
  });

  it('only looks the token up: it never claims it', async () => {
    const spy = new SpyStore();
    const h = harness(spy);
    const token = h.token();
    pastExpiry(h);
    const r = (await settle(executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'x' })))) as ApiError;
    expect([r.code, r.status]).toEqual(['CONFIRM_TOKEN_EXPIRED', 410]);
    expect(spy.calls).toEqual(['peek']);
    expect(h.seen).toEqual([['place_order', 'expired']]);
  });

  it('waits for an execution still in flight, then replays it; an opinion is 409 CONFIRM_TOKEN_USED at once', async () => {
    const h = harness(new MemoryClaimStore(), { pollMs: 5, waitMs: 2_000 });
    const token = h.token();
    const first = executeOnce(h.deps, ORDER, token, caller, async () => {
      await sleep(40);
      return { id: 'first' };
    });
    await sleep(5);
    pastExpiry(h);
    expect(await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'second' }))).toEqual({
      status: 200,
      body: { id: 'first', replayed: true },
    });
    await first;

    const o = harness(new MemoryClaimStore());
    const opinion = o.token('publish_opinion');
    const publishing = executeOnce(o.deps, OPINION, opinion, caller, async () => {
      await sleep(40);
      return { id: 'op' };
    });
    await sleep(5);
    pastExpiry(o);
    expect(((await settle(executeOnce(o.deps, OPINION, opinion, caller, async () => ({ id: 'x' })))) as ApiError).code).toBe(
      'CONFIRM_TOKEN_USED',
    );
    await publishing;
  });

  it('answers 409 RETRY_IDEMPOTENCY_KEY when the execution in flight outlasts the wait', async () => {
    const h = harness(new MemoryClaimStore(), { pollMs: 5, waitMs: 50 });
    const token = h.token();
    const first = executeOnce(h.deps, ORDER, token, caller, async () => {
      await sleep(200);
      return { id: 'slow' };
    });
    await sleep(5);
    pastExpiry(h);
    const r = (await settle(executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'x' })))) as ApiError;
    expect([r.code, r.status, r.headers, r.details]).toEqual(['RETRY_IDEMPOTENCY_KEY', 409, { 'retry-after': '1' }, { retry_after: 1 }]);
    await first;
  });

  it('never runs the action: a token given back after a failure is 410 CONFIRM_TOKEN_EXPIRED', async () => {
    const h = harness();
    const token = h.token();
    await settle(
      executeOnce(h.deps, ORDER, token, caller, async () => {
        throw new ApiError('INTERNAL');
      }),
    );
    pastExpiry(h);
    let runs = 0;
    const r = (await settle(executeOnce(h.deps, ORDER, token, caller, async () => ({ runs: ++runs })))) as ApiError;
    expect([r.code, r.status]).toEqual(['CONFIRM_TOKEN_EXPIRED', 410]);
    expect(runs).toBe(0);
    expect(h.seen.map(([, o]) => o)).toEqual(['failed', 'expired']);
  });

  it('never runs the action when it expires while a retry waits and the first execution gives the token back', async () => {
    const h = harness(new MemoryClaimStore(), { pollMs: 5, waitMs: 2_000 });
    const token = h.token();
    const first = settle(
      executeOnce(h.deps, ORDER, token, caller, async () => {
        await sleep(40);
        h.clock.t += TOKEN_TTL_MS;
        throw new ApiError('OPINION_BACK_RETRY');
      }),
    );
    await sleep(5);
    let runs = 0;
    const r = (await settle(executeOnce(h.deps, ORDER, token, caller, async () => ({ runs: ++runs })))) as ApiError;
    expect(((await first) as ApiError).code).toBe('OPINION_BACK_RETRY');
    expect([r.code, r.status]).toEqual(['CONFIRM_TOKEN_EXPIRED', 410]);
    expect(runs).toBe(0);
  });

  it('refuses with 500 CONFIRM_UNAVAILABLE when the claim store cannot be read, and leaves it alone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const spy = new SpyStore();
    const h = harness(spy);
    const token = h.token();
    await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'o1' }));
    pastExpiry(h);
    spy.failPeek = true;
    spy.calls = [];
    const r = (await settle(executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'x' })))) as ApiError;
    expect([r.code, r.status]).toEqual(['CONFIRM_UNAVAILABLE', 500]);
    expect(h.seen.map(([, o]) => o)).toEqual(['executed', 'unavailable']);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(spy.calls).toEqual(['peek']);
  });

  it('stays used for 24 hours after its execution; then the token is 410 CONFIRM_TOKEN_EXPIRED', async () => {
    const h = harness((clock) => new MemoryClaimStore(() => clock.t));
    const token = h.token();
    const executedAt = h.clock.t;
    await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'o1' }));
    h.clock.t = executedAt + CLAIM_TTL_MS - 1;
    expect(await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'x' }))).toEqual({
      status: 200,
      body: { id: 'o1', replayed: true },
    });
    h.clock.t = executedAt + CLAIM_TTL_MS;
    let runs = 0;
    const r = (await settle(executeOnce(h.deps, ORDER, token, caller, async () => ({ runs: ++runs })))) as ApiError;
    expect([r.code, r.status]).toEqual(['CONFIRM_TOKEN_EXPIRED', 410]);
    expect(runs).toBe(0);
  });
});

describe('executeOnce: a claim store that fails', () => {
  it('refuses the write as CONFIRM_UNAVAILABLE, reports unavailable, and gives the claim back three times later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const spy = new SpyStore();
    spy.failClaim = true;
    const h = harness(spy);
    let runs = 0;
    const r = await settle(executeOnce(h.deps, ORDER, h.token(), caller, async () => ({ runs: ++runs })));
    expect(r).toBeInstanceOf(ApiError);
    expect((r as ApiError).code).toBe('CONFIRM_UNAVAILABLE');
    expect((r as ApiError).status).toBe(500);
    expect((r as ApiError).cause).toBeInstanceOf(Error);
    expect(runs).toBe(0);
    expect(h.seen).toEqual([['place_order', 'unavailable']]);
    expect(h.logs.map(([level]) => level)).toEqual(['error']);
    const owner = spy.owners[0];
    expect(spy.claimTtls).toEqual([PENDING_TTL_MS]);
    expect(spy.calls).toEqual(['claim']);
    await vi.advanceTimersByTimeAsync(999);
    expect(spy.calls).toEqual(['claim']);
    await vi.advanceTimersByTimeAsync(1);
    expect(spy.calls).toEqual(['claim', `release:${owner}`]);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(spy.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(spy.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(spy.calls).toEqual(['claim', `release:${owner}`, `release:${owner}`, `release:${owner}`]);
  });

  it('swallows failures of the late releases', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const spy = new SpyStore();
    spy.failClaim = true;
    spy.failRelease = true;
    const h = harness(spy);
    await settle(executeOnce(h.deps, ORDER, h.token(), caller, async () => ({})));
    await vi.advanceTimersByTimeAsync(20_000);
    expect(spy.calls.filter((c) => c.startsWith('release:'))).toHaveLength(3);
  });

  it('frees a claim that landed despite the failure, so the token can be executed afterwards', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const spy = new SpyStore();
    const h = harness(spy);
    const token = h.token();
    // The claim lands in the store, but its answer is lost (a stalled Redis).
    const landed: ClaimStore = {
      claim: async (jti, ttl, owner) => {
        await spy.claim(jti, ttl, owner);
        throw new Error('timed out');
      },
      complete: (j, o, t) => spy.complete(j, o, t),
      release: (j, o) => spy.release(j, o),
      peek: (j) => spy.peek(j),
    };
    expect(((await settle(executeOnce({ ...h.deps, claims: landed }, ORDER, token, caller, async () => ({})))) as ApiError).code).toBe(
      'CONFIRM_UNAVAILABLE',
    );
    await vi.advanceTimersByTimeAsync(1_000);
    vi.useRealTimers();
    expect(await executeOnce({ ...h.deps, claims: spy }, ORDER, token, caller, async () => ({ id: 'late' }))).toEqual({
      status: 201,
      body: { id: 'late', replayed: false },
    });
  });
});

describe('executeOnce: retries', () => {
  it('refuses a second execution of an opinion token as CONFIRM_TOKEN_USED once it is done', async () => {
    const h = harness();
    const token = h.token('publish_opinion');
    await executeOnce(h.deps, OPINION, token, caller, async () => ({ id: 'op' }));
    const r = await settle(executeOnce(h.deps, OPINION, token, caller, async () => ({ id: 'again' })));
    expect((r as ApiError).code).toBe('CONFIRM_TOKEN_USED');
    expect((r as ApiError).status).toBe(409);
    expect(h.seen).toEqual([
      ['publish_opinion', 'executed'],
      ['publish_opinion', 'used'],
    ]);
  });

  it('a waiting retry claims the token itself when the first execution gave it back', async () => {
    const h = harness(new MemoryClaimStore(), { pollMs: 5, waitMs: 2_000 });
    const token = h.token();
    const first = settle(
      executeOnce(h.deps, ORDER, token, caller, async () => {
        await sleep(40);
        throw new ApiError('OPINION_BACK_RETRY');
      }),
    );
    await sleep(5);
    const second = executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'second' }));
    expect(((await first) as ApiError).code).toBe('OPINION_BACK_RETRY');
    expect(await second).toEqual({ status: 201, body: { id: 'second', replayed: false } });
    expect(h.seen.map(([, o]) => o)).toEqual(['failed', 'executed']);
  });

  it('a waiting retry replays the outcome once the first execution stores it', async () => {
    const h = harness(new MemoryClaimStore(), { pollMs: 5, waitMs: 2_000 });
    const token = h.token();
    const first = executeOnce(h.deps, ORDER, token, caller, async () => {
      await sleep(40);
      return { id: 'first' };
    });
    await sleep(5);
    const second = await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'second' }));
    expect(second).toEqual({ status: 200, body: { id: 'first', replayed: true } });
    expect(await first).toEqual({ status: 201, body: { id: 'first', replayed: false } });
    expect(h.seen.map(([, o]) => o)).toEqual(['executed', 'replayed']);
  });

  it('keeps waiting through a peek that fails, then answers 409 RETRY_IDEMPOTENCY_KEY with Retry-After', async () => {
    const spy = new SpyStore();
    const h = harness(spy, { pollMs: 5, waitMs: 60 });
    const token = h.token();
    const first = executeOnce(h.deps, ORDER, token, caller, async () => {
      await sleep(300);
      return { id: 'slow' };
    });
    await sleep(5);
    spy.failPeek = true;
    const r = (await settle(executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'x' })))) as ApiError;
    expect(r.code).toBe('RETRY_IDEMPOTENCY_KEY');
    expect(r.status).toBe(409);
    expect(r.headers).toEqual({ 'retry-after': '1' });
    expect(r.details).toEqual({ retry_after: 1 });
    expect(r.message).toMatch(/still in progress/);
    expect(spy.calls.filter((c) => c === 'peek').length).toBeGreaterThan(2);
    expect(h.seen.map(([, o]) => o)).toEqual(['in_flight']);
    spy.failPeek = false;
    await first;
  });

  it('waits about five seconds by default before giving up on an execution in flight', async () => {
    const h = harness(new MemoryClaimStore(), { pollMs: 20 });
    const token = h.token();
    const first = executeOnce(h.deps, ORDER, token, caller, async () => {
      await sleep(600);
      return { id: 'slow' };
    });
    await sleep(5);
    expect(await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'x' }))).toEqual({
      status: 200,
      body: { id: 'slow', replayed: true },
    });
    await first;
  });

  it('polls at the given interval', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    const h = harness(new MemoryClaimStore(), { pollMs: 300, waitMs: 2_000 });
    const token = h.token();
    const first = executeOnce(h.deps, ORDER, token, caller, async () => {
      await sleep(20);
      return { id: 'quick' };
    });
    let second: unknown = null;
    void executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'x' })).then((r) => {
      second = r;
    });
    // The first execution ends at 20 ms; the waiting one sees it at its first poll, at 300 ms.
    await vi.advanceTimersByTimeAsync(299);
    expect(second).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(second).toEqual({ status: 200, body: { id: 'quick', replayed: true } });
    await first;
  });
});

describe('executeOnce: what the action answers', () => {
  it('stores the first success for 24 hours and reports executed', async () => {
    const spy = new SpyStore();
    const h = harness(spy);
    const token = h.token();
    expect(await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'o1' }))).toEqual({
      status: 201,
      body: { id: 'o1', replayed: false },
    });
    expect(spy.completed).toEqual([
      { jti: expect.any(String), outcome: { status: 201, body: { id: 'o1', replayed: false } }, ttlMs: CLAIM_TTL_MS },
    ]);
    expect(CLAIM_TTL_MS).toBe(24 * 60 * 60 * 1000);
    expect(h.seen).toEqual([['place_order', 'executed']]);
  });

  it('still answers the success when its outcome cannot be stored, and logs it', async () => {
    const spy = new SpyStore();
    spy.failComplete = true;
    const h = harness(spy);
    expect(await executeOnce(h.deps, ORDER, h.token(), caller, async () => ({ id: 'o1' }))).toEqual({
      status: 201,
      body: { id: 'o1', replayed: false },
    });
    expect(h.logs.map(([level]) => level)).toEqual(['error']);
  });

  it('stores a definitive refusal with its status, envelope and headers, and replays it exactly', async () => {
    const spy = new SpyStore();
    const h = harness(spy);
    const token = h.token();
    const refusal = new ApiError('INVALID_ARGUMENT', {
      message: 'stake too large',
      details: { field: 'stake' },
      headers: { 'x-why': 'range' },
    });
    let runs = 0;
    const run = async (): Promise<{ id: string }> => {
      runs++;
      throw refusal;
    };
    expect(await settle(executeOnce(h.deps, ORDER, token, caller, run))).toBe(refusal);
    expect(spy.completed[0]?.outcome).toEqual({
      status: 400,
      body: { error: { code: 'INVALID_ARGUMENT', message: 'stake too large', details: { field: 'stake' } } },
      headers: { 'x-why': 'range' },
    });
    const again = (await settle(executeOnce(h.deps, ORDER, token, caller, run))) as ApiError;
    expect(again).toBeInstanceOf(ApiError);
    expect([again.code, again.status, again.message, again.details, again.headers]).toEqual([
      'INVALID_ARGUMENT',
      400,
      'stake too large',
      { field: 'stake' },
      { 'x-why': 'range' },
    ]);
    expect(runs).toBe(1);
    expect(h.seen.map(([, o]) => o)).toEqual(['refused', 'replayed']);
  });

  it('replays a stored outcome with the status it was stored with', async () => {
    const done: ClaimState = {
      state: 'done',
      outcome: { status: 422, body: { error: { code: 'TOPIC_CLOSED', message: 'closed' } }, headers: { a: 'b' } },
    };
    const store: ClaimStore = { claim: async () => done, complete: async () => {}, release: async () => {}, peek: async () => done };
    const h = harness(store);
    const r = (await settle(executeOnce(h.deps, ORDER, h.token(), caller, async () => ({})))) as ApiError;
    expect([r.code, r.status, r.message, r.headers]).toEqual(['TOPIC_CLOSED', 422, 'closed', { a: 'b' }]);
    const ok: ClaimState = { state: 'done', outcome: { status: 201, body: { id: 'z', replayed: false } } };
    const h2 = harness({ ...store, claim: async () => ok });
    expect(await executeOnce(h2.deps, ORDER, h2.token(), caller, async () => ({}))).toEqual({
      status: 200,
      body: { id: 'z', replayed: true },
    });
  });

  it.each([
    ['a 5xx answer', () => new ApiError('OPINION_BACK_RETRY'), 'OPINION_BACK_RETRY'],
    ['RETRY_IDEMPOTENCY_KEY from the backend', () => new ApiError('RETRY_IDEMPOTENCY_KEY'), 'RETRY_IDEMPOTENCY_KEY'],
    ['a bug', () => new TypeError('boom'), 'INTERNAL'],
  ])('after %s: stores nothing, gives its own claim back, reports failed', async (_name, make, expected) => {
    const spy = new SpyStore();
    const h = harness(spy);
    const token = h.token();
    const r = (await settle(
      executeOnce(h.deps, ORDER, token, caller, async () => {
        throw make();
      }),
    )) as ApiError;
    expect(r).toBeInstanceOf(ApiError);
    expect(r.code).toBe(expected);
    expect(spy.completed).toEqual([]);
    expect(spy.calls).toEqual(['claim', `release:${spy.owners[0]}`]);
    expect(h.seen.map(([, o]) => o)).toEqual(['failed']);
    expect(await executeOnce(h.deps, ORDER, token, caller, async () => ({ id: 'retry' }))).toEqual({
      status: 201,
      body: { id: 'retry', replayed: false },
    });
  });

  it('keeps the cause of a bug it turns into INTERNAL', async () => {
    const h = harness();
    const bug = new TypeError('boom');
    const r = (await settle(
      executeOnce(h.deps, ORDER, h.token(), caller, async () => {
        throw bug;
      }),
    )) as ApiError;
    expect(r.cause).toBe(bug);
  });

  it('answers the failure even when giving the claim back fails, and logs a warning', async () => {
    const spy = new SpyStore();
    spy.failRelease = true;
    const h = harness(spy);
    const r = (await settle(
      executeOnce(h.deps, ORDER, h.token(), caller, async () => {
        throw new ApiError('OPINION_BACK_RETRY');
      }),
    )) as ApiError;
    expect(r.code).toBe('OPINION_BACK_RETRY');
    expect(h.logs.map(([level]) => level)).toEqual(['warn']);
  });
});
