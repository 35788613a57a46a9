/**
 * What every verdict store does, whatever holds the verdicts: one suite, run against the
 * in-memory store (verdict-store.test.ts) and the Redis one (verdict-store.redis.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Verdict, VerdictStore } from '../../src/auth/verdict-store.ts';

export interface VerdictStoreUnderTest {
  make(): VerdictStore;
  /** Let `ms` milliseconds pass for the store (a controlled clock, or real time for Redis). */
  pass(ms: number): Promise<void>;
}

export const valid: Verdict = { valid: true, userId: 'u1', keyId: 'k1', scopes: ['read'], expiresAt: null, checkedAt: 1 };

export function verdictStoreBehaviour(name: string, under: VerdictStoreUnderTest): void {
  describe(`${name} verdict store`, () => {
    it('returns what was stored, and misses on unknown hashes', async () => {
      const store = under.make();
      await store.set('a'.repeat(64), valid, 5_000);
      expect(await store.get('a'.repeat(64))).toEqual(valid);
      expect(await store.get('b'.repeat(64))).toBeUndefined();
    });

    it('forgets a verdict once its TTL ran out', async () => {
      const store = under.make();
      await store.set('c'.repeat(64), { valid: false, checkedAt: 2 }, 50);
      expect(await store.get('c'.repeat(64))).toEqual({ valid: false, checkedAt: 2 });
      await under.pass(120);
      expect(await store.get('c'.repeat(64))).toBeUndefined();
    });

    it('stores nothing for a TTL already spent', async () => {
      const store = under.make();
      await store.set('d'.repeat(64), valid, 0);
      expect(await store.get('d'.repeat(64))).toBeUndefined();
    });
  });
}
