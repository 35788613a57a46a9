/**
 * The edges of the key verdict windows (docs/contract/auth.md#revocation): to the millisecond for
 * positive and negative verdicts, across replicas through the shared store, and the no-I/O
 * `isKnownValid` that the failure throttle relies on.
 */
import { describe, expect, it } from 'vitest';
import { hashKey } from '../../src/auth/authenticator.ts';
import { MemoryVerdictStore, type Verdict, type VerdictStore } from '../../src/auth/verdict-store.ts';
import type { ApiError } from '../../src/errors/api-error.ts';
import type { ApiKeyVerdict } from '../../src/upstream/internal-api.ts';
import { keyBackend, makeAuthenticator } from './fakes.ts';

const ctx = { requestId: 'r1', log: { warn: () => {}, error: () => {} } };
const KEY = 'opk_test_bob_write_00000000000';
const active: ApiKeyVerdict = { keyId: 'k2', userId: 'u-bob', scopes: ['READ'], state: 'ACTIVE', expiresAt: null };

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    return (err as ApiError).status;
  }
}

describe('verdict windows to the millisecond', () => {
  it("asks again exactly when a negative verdict's window ends", async () => {
    const table: Record<string, ApiKeyVerdict | 'unknown'> = { [KEY]: 'unknown' };
    const clock = { t: 0 };
    const auth = makeAuthenticator(keyBackend(table), clock);
    expect(await status(auth.authenticate(hashKey(KEY), ctx))).toBe(401);
    table[KEY] = active;
    clock.t = 9_999;
    expect(await status(auth.authenticate(hashKey(KEY), ctx))).toBe(401);
    clock.t = 10_000;
    expect(await status(auth.authenticate(hashKey(KEY), ctx))).toBe(200);
  });

  it("asks again exactly when a positive verdict's window ends", async () => {
    const table: Record<string, ApiKeyVerdict | 'unknown'> = { [KEY]: active };
    const clock = { t: 0 };
    const b = keyBackend(table);
    const auth = makeAuthenticator(b, clock);
    await auth.authenticate(hashKey(KEY), ctx);
    table[KEY] = { ...active, state: 'REVOKED' };
    clock.t = 59_999;
    expect(await status(auth.authenticate(hashKey(KEY), ctx))).toBe(200);
    clock.t = 60_000;
    expect(await status(auth.authenticate(hashKey(KEY), ctx))).toBe(401);
    expect(b.calls).toHaveLength(2);
  });

  it('never keeps a negative verdict longer than the revocation window', async () => {
    const table: Record<string, ApiKeyVerdict | 'unknown'> = { [KEY]: 'unknown' };
    const clock = { t: 0 };
    const auth = makeAuthenticator(keyBackend(table), clock, { negativeTtlMs: 120_000 });
    expect(await status(auth.authenticate(hashKey(KEY), ctx))).toBe(401);
    table[KEY] = active;
    clock.t = 60_000;
    expect(await status(auth.authenticate(hashKey(KEY), ctx))).toBe(200);
  });

  it('refuses a key that expires inside the window, with the invalid_token challenge', async () => {
    const clock = { t: 0 };
    const b = keyBackend({ [KEY]: { ...active, expiresAt: 30_000 } });
    const auth = makeAuthenticator(b, clock);
    expect(await status(auth.authenticate(hashKey(KEY), ctx))).toBe(200);
    clock.t = 30_000;
    const err = await auth.authenticate(hashKey(KEY), ctx).then(
      () => null,
      (e: unknown) => e as ApiError,
    );
    expect(err?.status).toBe(401);
    expect(err?.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(b.calls).toHaveLength(1); // known from the cached verdict: no backend call
  });

  it('refuses a key whose expiry is the instant the backend checked it', async () => {
    const clock = { t: 5_000 };
    expect(
      await status(makeAuthenticator(keyBackend({ [KEY]: { ...active, expiresAt: 5_000 } }), clock).authenticate(hashKey(KEY), ctx)),
    ).toBe(401);
    expect(
      await status(makeAuthenticator(keyBackend({ [KEY]: { ...active, expiresAt: 5_001 } }), clock).authenticate(hashKey(KEY), ctx)),
    ).toBe(200);
  });
});

/** A shared store that records what it is asked and given. */
function spying() {
  const inner = new MemoryVerdictStore();
  const gets: string[] = [];
  const sets: Array<[Verdict, number]> = [];
  const store: VerdictStore = {
    get: (h) => {
      gets.push(h);
      return inner.get(h);
    },
    set: async (h, v, ttl) => {
      sets.push([v, ttl]);
      await inner.set(h, v, ttl);
    },
  };
  return { store, gets, sets };
}

describe('the shared verdict store', () => {
  it.each([
    ['expired the instant it was checked', { ...active, expiresAt: 5_000 }],
    ['revoked', { ...active, state: 'REVOKED' as const }],
  ])('stores a key %s as refused, for the negative window', async (_what, answer) => {
    const { store, sets } = spying();
    await status(makeAuthenticator(keyBackend({ [KEY]: answer }), { t: 5_000 }, { shared: store }).authenticate(hashKey(KEY), ctx));
    expect(sets).toEqual([[{ valid: false, checkedAt: 5_000 }, 10_000]]);
  });

  it('asks neither the shared store nor the backend again while this replica holds a live verdict', async () => {
    const { store, gets } = spying();
    const b = keyBackend({ [KEY]: active });
    const clock = { t: 0 };
    const auth = makeAuthenticator(b, clock, { shared: store });
    await auth.authenticate(hashKey(KEY), ctx);
    clock.t = 59_999;
    await auth.authenticate(hashKey(KEY), ctx);
    expect(gets).toHaveLength(1);
    expect(b.calls).toHaveLength(1);
  });

  it('stores each verdict for what is left of its window', async () => {
    const { store, sets } = spying();
    const clock = { t: 0 };
    await makeAuthenticator(keyBackend({ [KEY]: active }), clock, { shared: store }).authenticate(hashKey(KEY), ctx);
    await status(makeAuthenticator(keyBackend({}), clock, { shared: store }).authenticate(hashKey('opk_test_nobody_0000000000000'), ctx));
    expect(sets.map(([v, ttl]) => [v.valid, ttl])).toEqual([
      [true, 60_000],
      [false, 10_000],
    ]);
  });

  it('does not take a spent verdict from the shared store: it asks the backend', async () => {
    const shared = new MemoryVerdictStore();
    const stale: Verdict = { valid: true, userId: 'u-bob', keyId: 'k2', scopes: ['read'], expiresAt: null, checkedAt: 0 };
    await shared.set(hashKey(KEY), stale, 60_000);
    const b = keyBackend({ [KEY]: { ...active, state: 'REVOKED' } });
    const clock = { t: 60_000 };
    expect(await status(makeAuthenticator(b, clock, { shared }).authenticate(hashKey(KEY), ctx))).toBe(401);
    expect(b.calls).toHaveLength(1);
  });

  it('takes a live verdict from the shared store without asking the backend', async () => {
    const shared = new MemoryVerdictStore();
    const live: Verdict = { valid: true, userId: 'u-bob', keyId: 'k2', scopes: ['read', 'write'], expiresAt: null, checkedAt: 0 };
    await shared.set(hashKey(KEY), live, 60_000);
    const b = keyBackend({});
    const caller = await makeAuthenticator(b, { t: 59_999 }, { shared }).authenticate(hashKey(KEY), ctx);
    expect(caller).toEqual({ userId: 'u-bob', keyId: 'k2', keyHash: hashKey(KEY), scopes: new Set(['read', 'write']) });
    expect(b.calls).toEqual([]);
  });
});

describe('hasVerdict', () => {
  it('is true while this replica holds a verdict, valid or not, and false once its window is spent', async () => {
    const clock = { t: 0 };
    // A shared store that keeps nothing: what is known here is this replica's alone.
    const forgetful: VerdictStore = { get: async () => undefined, set: async () => {} };
    const auth = makeAuthenticator(keyBackend({ [KEY]: active }), clock, { shared: forgetful });
    const nobody = hashKey('opk_test_nobody_0000000000000');
    expect(await auth.hasVerdict(hashKey(KEY))).toBe(false);
    await auth.authenticate(hashKey(KEY), ctx);
    await status(auth.authenticate(nobody, ctx));
    expect(await auth.hasVerdict(hashKey(KEY))).toBe(true);
    expect(await auth.hasVerdict(nobody)).toBe(true);
    clock.t = 9_999;
    expect(await auth.hasVerdict(nobody)).toBe(true);
    clock.t = 10_000; // the negative window
    expect(await auth.hasVerdict(nobody)).toBe(false);
    clock.t = 59_999;
    expect(await auth.hasVerdict(hashKey(KEY))).toBe(true);
    clock.t = 60_000;
    expect(await auth.hasVerdict(hashKey(KEY))).toBe(false);
  });

  it('is true for a live verdict another replica put in the shared store, false for a spent one', async () => {
    const shared = new MemoryVerdictStore();
    const live: Verdict = { valid: false, checkedAt: 0 };
    await shared.set(hashKey(KEY), live, 60_000);
    const clock = { t: 9_999 };
    const auth = makeAuthenticator(keyBackend({}), clock, { shared });
    expect(await auth.hasVerdict(hashKey(KEY))).toBe(true);
    clock.t = 10_000;
    expect(await auth.hasVerdict(hashKey(KEY))).toBe(false);
  });
});

describe('hashKey', () => {
  it('is the lowercase hex SHA-256 of the key, the form the backend verifies', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('isKnownValid', () => {
  it('is true only for a valid verdict this replica holds, inside its window and before the key expires', async () => {
    const clock = { t: 0 };
    const auth = makeAuthenticator(keyBackend({ [KEY]: { ...active, expiresAt: 30_000 } }), clock);
    expect(auth.isKnownValid(hashKey(KEY))).toBe(false);
    await auth.authenticate(hashKey(KEY), ctx);
    expect(auth.isKnownValid(hashKey(KEY))).toBe(true);
    clock.t = 29_999;
    expect(auth.isKnownValid(hashKey(KEY))).toBe(true);
    clock.t = 30_000;
    expect(auth.isKnownValid(hashKey(KEY))).toBe(false);
  });

  it('is false once the window is spent, and for refused keys', async () => {
    const clock = { t: 0 };
    const auth = makeAuthenticator(keyBackend({ [KEY]: active }), clock);
    await auth.authenticate(hashKey(KEY), ctx);
    clock.t = 59_999;
    expect(auth.isKnownValid(hashKey(KEY))).toBe(true);
    clock.t = 60_000;
    expect(auth.isKnownValid(hashKey(KEY))).toBe(false);
    const other = 'opk_test_unknown_000000000000';
    await status(auth.authenticate(hashKey(other), ctx));
    expect(auth.isKnownValid(hashKey(other))).toBe(false);
  });
});
