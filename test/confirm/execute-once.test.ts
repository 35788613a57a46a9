import { describe, expect, it } from 'vitest';
import { MemoryClaimStore, type ClaimStore } from '../../src/confirm/claims.ts';
import { executeOnce } from '../../src/confirm/execute-once.ts';
import { ConfirmTokens, parseConfirmKeys } from '../../src/confirm/token.ts';
import { ApiError } from '../../src/errors/api-error.ts';

const tokens = new ConfirmTokens(parseConfirmKeys(`k1:${'z'.repeat(40)}`, undefined));
const caller = { userId: 'u1', keyId: 'key1' };
const log = { warn: () => {}, error: () => {} };
const ORDER = { action: 'place_order', retry: 'replay' } as const;
const OPINION = { action: 'publish_opinion', retry: 'refuse' } as const;
const BACK = { action: 'back_opinion', retry: 'replay' } as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function outcome(p: Promise<{ status: number; body: unknown }>) {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, code: err.code };
    throw err;
  }
}

describe('executeOnce', () => {
  it('runs 50 concurrent executions of one order token exactly once; the rest replay', async () => {
    const claims = new MemoryClaimStore();
    const { token } = tokens.issue('place_order', caller.userId, caller.keyId, { stake: 5 });
    let runs = 0;
    const run = async () => {
      runs++;
      await sleep(100);
      return { id: 'order-1' };
    };
    const results = await Promise.all(
      Array.from({ length: 50 }, () => outcome(executeOnce({ tokens, claims, log, pollMs: 10 }, ORDER, token, caller, run))),
    );
    expect(runs).toBe(1);
    expect(results.filter((r) => r.status === 201)).toEqual([{ status: 201, body: { id: 'order-1', replayed: false } }]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(49);
    expect(results.find((r) => r.status === 200)).toEqual({ status: 200, body: { id: 'order-1', replayed: true } });
  });

  it('refuses every retry of a published opinion, in flight or done', async () => {
    const claims = new MemoryClaimStore();
    const { token } = tokens.issue('publish_opinion', caller.userId, caller.keyId, {});
    let runs = 0;
    const run = async () => {
      runs++;
      await sleep(50);
      return { id: 'op-1' };
    };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => outcome(executeOnce({ tokens, claims, log }, OPINION, token, caller, run))),
    );
    expect(runs).toBe(1);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => 'code' in r && r.code === 'CONFIRM_TOKEN_USED')).toHaveLength(9);
    expect(await outcome(executeOnce({ tokens, claims, log }, OPINION, token, caller, run))).toEqual({
      status: 409,
      code: 'CONFIRM_TOKEN_USED',
    });
  });

  it('answers 409 RETRY_IDEMPOTENCY_KEY when the first execution outlasts the wait', async () => {
    const claims = new MemoryClaimStore();
    const { token } = tokens.issue('back_opinion', caller.userId, caller.keyId, {});
    const slow = executeOnce({ tokens, claims, log }, BACK, token, caller, async () => {
      await sleep(300);
      return { id: 'b1' };
    });
    await sleep(20);
    expect(
      await outcome(executeOnce({ tokens, claims, log, waitMs: 100, pollMs: 10 }, BACK, token, caller, async () => ({ id: 'x' }))),
    ).toEqual({
      status: 409,
      code: 'RETRY_IDEMPOTENCY_KEY',
    });
    await slow;
  });

  it('replays a definitive refusal; gives the claim back after a failure that may not have happened', async () => {
    const claims = new MemoryClaimStore();
    const { token } = tokens.issue('place_order', caller.userId, caller.keyId, {});
    let runs = 0;
    const failing = async (): Promise<{ id: string }> => {
      runs++;
      throw new ApiError('INTERNAL');
    };
    expect(await outcome(executeOnce({ tokens, claims, log }, ORDER, token, caller, failing))).toEqual({ status: 500, code: 'INTERNAL' });
    const refused = async (): Promise<{ id: string }> => {
      runs++;
      throw new ApiError('TOPIC_CLOSED');
    };
    expect(await outcome(executeOnce({ tokens, claims, log }, ORDER, token, caller, refused))).toEqual({
      status: 409,
      code: 'TOPIC_CLOSED',
    });
    expect(await outcome(executeOnce({ tokens, claims, log }, ORDER, token, caller, refused))).toEqual({
      status: 409,
      code: 'TOPIC_CLOSED',
    });
    expect(runs).toBe(2);
  });

  it('keeps the whole answer where a retry replays it, only the status where a retry is refused', async () => {
    const claims = new MemoryClaimStore();
    const jti = (token: string, action: 'place_order' | 'publish_opinion') => tokens.authenticate(token, action, caller).jti;

    const order = tokens.issue('place_order', caller.userId, caller.keyId, { stake: 5 });
    await executeOnce({ tokens, claims, log }, ORDER, order.token, caller, async () => ({ id: 'order-1' }));
    expect(await claims.peek(jti(order.token, 'place_order'))).toEqual({
      state: 'done',
      outcome: { status: 201, body: { id: 'order-1', replayed: false } },
    });

    const opinion = tokens.issue('publish_opinion', caller.userId, caller.keyId, {});
    const published = await executeOnce({ tokens, claims, log }, OPINION, opinion.token, caller, async () => ({
      id: 'op-1',
      content: 'a long opinion '.repeat(40),
    }));
    expect(published).toEqual({ status: 201, body: { id: 'op-1', content: 'a long opinion '.repeat(40), replayed: false } });
    expect(await claims.peek(jti(opinion.token, 'publish_opinion'))).toEqual({ state: 'done', outcome: { status: 201, body: null } });
    expect(await outcome(executeOnce({ tokens, claims, log }, OPINION, opinion.token, caller, async () => ({ id: 'op-2' })))).toEqual({
      status: 409,
      code: 'CONFIRM_TOKEN_USED',
    });

    const refused = tokens.issue('publish_opinion', caller.userId, caller.keyId, {});
    const closed = await outcome(
      executeOnce({ tokens, claims, log }, OPINION, refused.token, caller, async () => {
        throw new ApiError('TOPIC_CLOSED');
      }),
    );
    expect(closed).toEqual({ status: 409, code: 'TOPIC_CLOSED' });
    expect(await claims.peek(jti(refused.token, 'publish_opinion'))).toEqual({ state: 'done', outcome: { status: 409, body: null } });
    // Strictly single use: a refused opinion token is used too, and its retry is not the refusal again.
    expect(await outcome(executeOnce({ tokens, claims, log }, OPINION, refused.token, caller, async () => ({ id: 'op-3' })))).toEqual({
      status: 409,
      code: 'CONFIRM_TOKEN_USED',
    });
  });

  it('fails closed when the claim store is unavailable', async () => {
    const broken: ClaimStore = {
      claim: async () => {
        throw new Error('redis down');
      },
      complete: async () => {},
      release: async () => {},
      peek: async () => null,
    };
    const { token } = tokens.issue('place_order', caller.userId, caller.keyId, {});
    let runs = 0;
    const r = await outcome(
      executeOnce({ tokens, claims: broken, log }, ORDER, token, caller, async () => {
        runs++;
        return {};
      }),
    );
    expect(r).toEqual({ status: 500, code: 'CONFIRM_UNAVAILABLE' });
    expect(runs).toBe(0);
  });

  it('verifies the token before anything else', async () => {
    const { token } = tokens.issue('place_order', caller.userId, caller.keyId, {});
    expect(
      await outcome(
        executeOnce({ tokens, claims: new MemoryClaimStore(), log }, ORDER, token, { ...caller, keyId: 'other' }, async () => ({})),
      ),
    ).toEqual({
      status: 400,
      code: 'CONFIRM_TOKEN_INVALID',
    });
  });
});

describe('executeOnce bookkeeping', () => {
  it('reports every outcome for metrics', async () => {
    const seen: string[] = [];
    const deps = { tokens, claims: new MemoryClaimStore(), log, onOutcome: (_a: string, o: string) => seen.push(o) };
    const { token } = tokens.issue('place_order', caller.userId, caller.keyId, {});
    await executeOnce(deps, ORDER, token, caller, async () => ({}));
    await executeOnce(deps, ORDER, token, caller, async () => ({}));
    await outcome(executeOnce(deps, ORDER, token, { ...caller, keyId: 'k2' }, async () => ({})));
    expect(seen).toEqual(['executed', 'replayed', 'invalid']);
  });

  it('keeps a claim in progress for at most a minute, then frees the token', async () => {
    const { PENDING_TTL_MS } = await import('../../src/confirm/execute-once.ts');
    const clock = { t: 0 };
    const claims = new MemoryClaimStore(() => clock.t);
    await claims.claim('left-behind', PENDING_TTL_MS, 'crashed-replica');
    clock.t = PENDING_TTL_MS;
    expect(await claims.claim('left-behind', PENDING_TTL_MS, 'retry')).toEqual({ state: 'acquired' });
    expect(PENDING_TTL_MS).toBeLessThanOrEqual(60_000);
  });
});

describe('executeOnce and the audit trail', () => {
  /** A trail that notes what it hears, and a claim store that notes when an outcome is stored. */
  function observed() {
    const heard: string[] = [];
    const trail = {
      verified: (c: { jti: string }) => heard.push(`verified ${c.jti.length > 0}`),
      running: () => heard.push('running'),
      performed: (body: unknown, replay: boolean) => heard.push(`performed ${JSON.stringify(body)} ${replay}`),
    };
    const inner = new MemoryClaimStore();
    const claims: ClaimStore = {
      claim: (...a) => inner.claim(...a),
      peek: (...a) => inner.peek(...a),
      release: (...a) => inner.release(...a),
      complete: async (...a) => {
        heard.push('stored');
        return inner.complete(...a);
      },
    };
    return { heard, trail, claims };
  }

  it("hears of the backend's answer before the outcome is stored, and the retry hears no second performance", async () => {
    const { heard, trail, claims } = observed();
    const { token } = tokens.issue('place_order', caller.userId, caller.keyId, {});
    const run = async () => ({ id: 'order-7' });
    await executeOnce({ tokens, claims, log, trail }, ORDER, token, caller, run);
    expect(heard).toEqual(['verified true', 'running', 'performed {"id":"order-7"} false', 'stored']);
    heard.length = 0;
    await executeOnce({ tokens, claims, log, trail }, ORDER, token, caller, run);
    expect(heard).toEqual(['verified true']);
  });

  it('a refusal before the action (a token that does not verify) is never running; a failing action is', async () => {
    const { heard, trail, claims } = observed();
    await outcome(executeOnce({ tokens, claims, log, trail }, BACK, 'ct1.x.y.z', caller, async () => ({ id: 'b' })));
    expect(heard).toEqual([]);
    const { token } = tokens.issue('back_opinion', caller.userId, caller.keyId, {});
    const failing = async (): Promise<{ id: string }> => {
      throw new ApiError('INTERNAL');
    };
    expect(await outcome(executeOnce({ tokens, claims, log, trail }, BACK, token, caller, failing))).toEqual({
      status: 500,
      code: 'INTERNAL',
    });
    expect(heard).toEqual(['verified true', 'running']);
  });
});
