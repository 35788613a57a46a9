import { describe, expect, it, vi } from 'vitest';
import { hashKey } from '../../src/auth/authenticator.ts';
import { MemoryVerdictStore } from '../../src/auth/verdict-store.ts';
import { ApiError } from '../../src/errors/api-error.ts';
import type { ApiKeyVerdict } from '../../src/upstream/internal-api.ts';
import { keyBackend, makeAuthenticator } from './fakes.ts';

const ctx = { requestId: 'r1', log: { warn: () => {}, error: () => {} } };
const KEY = 'opk_test_alice_read_0000000000';
const USER = '00000000-0000-4000-8000-0000000a0001';

const active: ApiKeyVerdict = { keyId: 'k1', userId: USER, scopes: ['READ'], state: 'ACTIVE', expiresAt: null };

const make = (backend: ReturnType<typeof keyBackend>, clock: { t: number }, shared?: MemoryVerdictStore) =>
  makeAuthenticator(backend, clock, { shared });

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected a rejection');
}

describe('KeyAuthenticator', () => {
  it('resolves an active key to its owner and scopes, asking the backend by hash only', async () => {
    const backend = keyBackend({ [KEY]: active });
    const caller = await make(backend, { t: 1_000 }).authenticate(hashKey(KEY), ctx);
    expect(caller).toMatchObject({ userId: USER, keyId: 'k1', keyHash: hashKey(KEY) });
    expect([...caller.scopes]).toEqual(['read']);
    expect(backend.calls).toEqual([hashKey(KEY)]);
    expect(backend.calls.join()).not.toContain(KEY);
  });

  it('maps WRITE to read+write', async () => {
    const backend = keyBackend({ [KEY]: { ...active, scopes: ['READ', 'WRITE'] } });
    const caller = await make(backend, { t: 0 }).authenticate(hashKey(KEY), ctx);
    expect([...caller.scopes].sort()).toEqual(['read', 'write']);
  });

  it.each([
    ['unknown', 'unknown' as const],
    ['revoked', { ...active, state: 'REVOKED' as const }],
    ['expired by state', { ...active, state: 'EXPIRED' as const }],
    ['expired by time', { ...active, expiresAt: 500 }],
  ])('refuses a %s key with 401 and the invalid_token challenge', async (_name, entry) => {
    const err = await rejection(make(keyBackend({ [KEY]: entry }), { t: 1_000 }).authenticate(hashKey(KEY), ctx));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(401);
    expect(err.code).toBe('UNAUTHORIZED');
    expect(err.headers['www-authenticate']).toBe('Bearer realm="open-api", error="invalid_token"');
  });

  it('caches a verdict for at most the revocation window, then asks again', async () => {
    const table: Record<string, ApiKeyVerdict> = { [KEY]: active };
    const backend = keyBackend(table);
    const clock = { t: 0 };
    const auth = make(backend, clock);
    await auth.authenticate(hashKey(KEY), ctx);
    clock.t = 59_000;
    table[KEY] = { ...active, state: 'REVOKED' };
    await auth.authenticate(hashKey(KEY), ctx); // still inside the window: cached
    expect(backend.calls).toHaveLength(1);
    clock.t = 60_001;
    const err = await rejection(auth.authenticate(hashKey(KEY), ctx));
    expect(err.status).toBe(401);
    expect(backend.calls).toHaveLength(2);
  });

  it('does not restart the window when a replica picks a verdict up from the shared store', async () => {
    const shared = new MemoryVerdictStore();
    const clock = { t: 0 };
    const table: Record<string, ApiKeyVerdict> = { [KEY]: active };
    const first = make(keyBackend(table), clock, shared);
    await first.authenticate(hashKey(KEY), ctx); // checked at t=0, stored in the shared cache
    table[KEY] = { ...active, state: 'REVOKED' };
    clock.t = 50_000;
    const secondBackend = keyBackend(table);
    const second = make(secondBackend, clock, shared);
    await second.authenticate(hashKey(KEY), ctx); // served from the shared store (checked at t=0)
    expect(secondBackend.calls).toHaveLength(0);
    clock.t = 60_500; // 60 s after the backend's answer, not after the second replica's read
    expect((await rejection(second.authenticate(hashKey(KEY), ctx))).status).toBe(401);
    expect(secondBackend.calls).toHaveLength(1);
  });

  it('refuses a key that expires while its verdict is cached', async () => {
    const clock = { t: 0 };
    const auth = make(keyBackend({ [KEY]: { ...active, expiresAt: 30_000 } }), clock);
    await auth.authenticate(hashKey(KEY), ctx);
    clock.t = 30_000;
    expect((await rejection(auth.authenticate(hashKey(KEY), ctx))).status).toBe(401);
  });

  it('asks the backend once for many concurrent requests with the same key', async () => {
    const backend = keyBackend({ [KEY]: active });
    const auth = make(backend, { t: 0 });
    await Promise.all(Array.from({ length: 20 }, () => auth.authenticate(hashKey(KEY), ctx)));
    expect(backend.calls).toHaveLength(1);
  });

  it('serves every one of many concurrent requests that find the verdict spent, asking the backend once more', async () => {
    const backend = keyBackend({ [KEY]: active });
    const clock = { t: 0 };
    const auth = make(backend, clock);
    await auth.authenticate(hashKey(KEY), ctx);
    clock.t = 60_000; // the window is spent for all of them at once
    const callers = await Promise.allSettled(Array.from({ length: 20 }, () => auth.authenticate(hashKey(KEY), ctx)));
    expect(callers.filter((c) => c.status === 'rejected')).toEqual([]);
    expect(backend.calls).toHaveLength(2);
  });

  it('keeps a negative verdict shorter than a positive one', async () => {
    const table: Record<string, ApiKeyVerdict | 'unknown'> = { [KEY]: 'unknown' };
    const backend = keyBackend(table);
    const clock = { t: 0 };
    const auth = make(backend, clock);
    expect((await rejection(auth.authenticate(hashKey(KEY), ctx))).status).toBe(401);
    table[KEY] = active; // the key was just created
    clock.t = 10_001;
    await expect(auth.authenticate(hashKey(KEY), ctx)).resolves.toMatchObject({ userId: USER });
  });

  it('lets a backend failure through as INTERNAL, caching nothing', async () => {
    const table: Record<string, ApiKeyVerdict | 'down'> = { [KEY]: 'down' };
    const backend = keyBackend(table);
    const auth = make(backend, { t: 0 });
    expect((await rejection(auth.authenticate(hashKey(KEY), ctx))).code).toBe('INTERNAL');
    table[KEY] = active;
    await expect(auth.authenticate(hashKey(KEY), ctx)).resolves.toMatchObject({ userId: USER });
  });
  it('keeps and reads verdicts without starting timers (the clock is read per lookup)', async () => {
    // Only setTimeout is faked: lru-cache's 1-ms clock cache would start one per lookup here.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const backend = keyBackend({ [KEY]: active });
      const auth = make(backend, { t: 1_000 }, new MemoryVerdictStore());
      for (let i = 0; i < 3; i += 1) await auth.authenticate(hashKey(KEY), ctx);
      expect(backend.calls).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
