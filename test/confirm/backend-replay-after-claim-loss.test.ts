/**
 * executeOnce when the backend says the action was performed before (Idempotent-Replayed): the
 * claim store had lost the token's record, so this execution claimed it afresh. The answer is
 * the replay, never a second first success, and the outcome is stored again.
 */
import { describe, expect, it } from 'vitest';
import { MemoryClaimStore } from '../../src/confirm/claims.ts';
import { ReplayedByBackend, executeOnce, type TokenOutcome } from '../../src/confirm/execute-once.ts';
import { ConfirmTokens, parseConfirmKeys } from '../../src/confirm/token.ts';
import { ApiError } from '../../src/errors/api-error.ts';

const tokens = new ConfirmTokens(parseConfirmKeys(`k1:${'r'.repeat(40)}`, undefined));
const caller = { userId: 'u1', keyId: 'key1' };

function deps() {
  const outcomes: TokenOutcome[] = [];
  const warned: string[] = [];
  return {
    outcomes,
    warned,
    deps: {
      tokens,
      claims: new MemoryClaimStore(),
      log: { warn: (_o: object, msg: string) => void warned.push(msg), error: () => {} },
      onOutcome: (_a: unknown, o: TokenOutcome) => void outcomes.push(o),
    },
  };
}

describe('a backend replay reaching executeOnce', () => {
  it('replay policy: 200 with replayed: true, stored, later retries answered without the backend', async () => {
    const { deps: d, outcomes, warned } = deps();
    const { token } = tokens.issue('place_order', caller.userId, caller.keyId, {});
    let runs = 0;
    const run = async () => {
      runs += 1;
      return new ReplayedByBackend({ id: 'order-7' });
    };
    const order = { action: 'place_order', retry: 'replay' } as const;
    expect(await executeOnce(d, order, token, caller, run)).toEqual({ status: 200, body: { id: 'order-7', replayed: true } });
    expect(await executeOnce(d, order, token, caller, run)).toEqual({ status: 200, body: { id: 'order-7', replayed: true } });
    expect(runs).toBe(1);
    expect(outcomes).toEqual(['replayed', 'replayed']);
    expect(warned).toHaveLength(1);
  });

  it('refuse policy: 409 CONFIRM_TOKEN_USED, and so for every later presentation', async () => {
    const { deps: d, outcomes } = deps();
    const { token } = tokens.issue('publish_opinion', caller.userId, caller.keyId, {});
    const opinion = { action: 'publish_opinion', retry: 'refuse' } as const;
    const run = async () => new ReplayedByBackend({ id: 'op-3' });
    for (let i = 0; i < 2; i += 1) {
      const err = await executeOnce(d, opinion, token, caller, run).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('CONFIRM_TOKEN_USED');
    }
    expect(outcomes).toEqual(['used', 'used']);
  });

  it('tells the audit trail the action was a replay, and a body performed now that it was executed', async () => {
    const { deps: d } = deps();
    const told: [string, unknown][] = [];
    const trail = {
      verified: () => void told.push(['verified', null]),
      running: () => void told.push(['running', null]),
      performed: (body: unknown, byBackendReplay: boolean) => void told.push([byBackendReplay ? 'replayed' : 'executed', body]),
    };
    const order = { action: 'place_order', retry: 'replay' } as const;
    const replayed = tokens.issue('place_order', caller.userId, caller.keyId, {}).token;
    await executeOnce({ ...d, trail }, order, replayed, caller, async () => new ReplayedByBackend({ id: 'order-8' }));
    const fresh = tokens.issue('place_order', caller.userId, caller.keyId, {}).token;
    await executeOnce({ ...d, trail }, order, fresh, caller, async () => ({ id: 'order-9' }));
    expect(told).toEqual([
      ['verified', null],
      ['running', null],
      ['replayed', { id: 'order-8' }],
      ['verified', null],
      ['running', null],
      ['executed', { id: 'order-9' }],
    ]);
  });

  it('a body performed now is still the first success', async () => {
    const { deps: d } = deps();
    const { token } = tokens.issue('back_opinion', caller.userId, caller.keyId, {});
    const back = { action: 'back_opinion', retry: 'replay' } as const;
    expect(await executeOnce(d, back, token, caller, async () => ({ id: 'b-1' }))).toEqual({
      status: 201,
      body: { id: 'b-1', replayed: false },
    });
  });

  it('needs no outcome observer on either policy', async () => {
    const { deps: d } = deps();
    const bare = { tokens: d.tokens, claims: d.claims, log: d.log };
    const run = async () => new ReplayedByBackend({ id: 'x-1' });
    const order = tokens.issue('place_order', caller.userId, caller.keyId, {}).token;
    expect(await executeOnce(bare, { action: 'place_order', retry: 'replay' }, order, caller, run)).toEqual({
      status: 200,
      body: { id: 'x-1', replayed: true },
    });
    const opinion = tokens.issue('publish_opinion', caller.userId, caller.keyId, {}).token;
    const err = await executeOnce(bare, { action: 'publish_opinion', retry: 'refuse' }, opinion, caller, run).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('CONFIRM_TOKEN_USED');
  });
});

describe('the longest upstream timeout', () => {
  it('leaves a pending claim room for two backend calls in a row and the claim store', async () => {
    const { PENDING_TTL_MS } = await import('../../src/confirm/execute-once.ts');
    const { MAX_UPSTREAM_TIMEOUT_MS } = await import('../../src/config.ts');
    expect(2 * MAX_UPSTREAM_TIMEOUT_MS).toBeLessThan(PENDING_TTL_MS);
    expect(MAX_UPSTREAM_TIMEOUT_MS).toBeGreaterThanOrEqual(PENDING_TTL_MS / 4);
  });
});
