/**
 * What every claim store does, whatever holds the claims: one suite, run against the in-memory
 * store (claims.test.ts) and the Redis one (claims.redis.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ClaimStore } from '../../src/confirm/claims.ts';

export interface ClaimStoreUnderTest {
  /** One store, and a second one over the same data when the implementation is shared (null if not). */
  make(): readonly [ClaimStore, ClaimStore | null];
  /** Let `ms` milliseconds pass for the store (a controlled clock, or real time for Redis). */
  pass(ms: number): Promise<void>;
}

const outcome = { status: 201, body: { id: 'o1', replayed: false } };
let n = 0;
const jti = () => `jti-${process.pid}-${n++}`;

export function claimStoreBehaviour(name: string, under: ClaimStoreUnderTest): void {
  describe(`${name} claim store`, () => {
    it('grants the first claim only; later ones see pending, then the stored outcome', async () => {
      const [a, b] = under.make();
      const other: ClaimStore = b ?? a;
      const id = jti();
      expect(await a.claim(id, 10_000, 'o1')).toEqual({ state: 'acquired' });
      expect(await other.claim(id, 10_000, 'o2')).toEqual({ state: 'pending' });
      expect(await other.peek(id)).toEqual({ state: 'pending' });
      await a.complete(id, outcome, 10_000);
      expect(await other.claim(id, 10_000, 'o2')).toEqual({ state: 'done', outcome });
      expect(await other.peek(id)).toEqual({ state: 'done', outcome });
    });

    it('grants exactly one of many concurrent claims', async () => {
      const [a, b] = under.make();
      const id = jti();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => ((i % 2 === 0 || b === null ? a : b) as ClaimStore).claim(id, 10_000, `o${i}`)),
      );
      expect(results.filter((r) => r.state === 'acquired')).toHaveLength(1);
      expect(results.filter((r) => r.state === 'pending')).toHaveLength(49);
    });

    it('a released claim can be taken again; release never drops a stored outcome', async () => {
      const [a] = under.make();
      const id = jti();
      await a.claim(id, 10_000, 'o1');
      await a.release(id, 'o1');
      expect(await a.peek(id)).toBeNull();
      expect(await a.claim(id, 10_000, 'o1')).toEqual({ state: 'acquired' });
      await a.complete(id, outcome, 10_000);
      await a.release(id, 'o1');
      expect(await a.peek(id)).toEqual({ state: 'done', outcome });
    });

    it("release gives back only the releasing owner's claim", async () => {
      const [a] = under.make();
      const id = jti();
      await a.claim(id, 10_000, 'first');
      await a.release(id, 'someone-else');
      expect(await a.peek(id)).toEqual({ state: 'pending' });
      await a.release(id, 'first');
      expect(await a.peek(id)).toBeNull();
    });

    it('forgets a claim after its TTL', async () => {
      const [a] = under.make();
      const id = jti();
      await a.claim(id, 50, 'o1');
      await under.pass(120);
      expect(await a.peek(id)).toBeNull();
    });
  });
}
