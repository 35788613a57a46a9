/**
 * What every rate-limit store does, whatever holds the counts: one suite, run against the
 * in-memory store (store.test.ts) and the Redis one (store.redis.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/limits/decision.ts';
import type { RateLimitStore } from '../../src/limits/store.ts';
import type { WindowSpec } from '../../src/limits/windows.ts';

export const minute = (limit: number): WindowSpec => ({ name: 'read_minute', kind: 'minute', limit });
export const day = (limit: number): WindowSpec => ({ name: 'read_day', kind: 'day', limit });
let n = 0;
export const subject = () => `key-${process.pid}-${n++}`;

/** `make` gives two stores over the same counts: two replicas, or the same store twice. */
export function rateLimitStoreBehaviour(name: string, make: () => readonly [RateLimitStore, RateLimitStore]): void {
  describe(`${name} rate-limit store`, () => {
    it('admits exactly the limit of a burst across replicas, and a refusal consumes nothing', async () => {
      const [a, b] = make();
      const key = subject();
      const results = await Promise.all(
        Array.from({ length: 15 }, (_, i) => ((i % 2 ? a : b) as RateLimitStore).consume(key, [minute(10)])),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
      const refused = results.filter((r) => !r.allowed);
      expect(refused).toHaveLength(5);
      for (const r of refused) expect(r.windows[0]?.count).toBe(10);
    });

    it('consumes from every window or from none', async () => {
      const [a] = make();
      const key = subject();
      const both = [minute(100), day(3)];
      for (let i = 0; i < 3; i++) expect((await a.consume(key, both)).allowed).toBe(true);
      const refused = await a.consume(key, both);
      expect(refused.allowed).toBe(false);
      expect(refused.windows.map((w) => w.count)).toEqual([3, 3]); // the minute window was not charged
    });

    it('keeps windows apart per key and per window name', async () => {
      const [a] = make();
      const k1 = subject();
      const k2 = subject();
      expect((await a.consume(k1, [minute(1)])).allowed).toBe(true);
      expect((await a.consume(k1, [minute(1)])).allowed).toBe(false);
      expect((await a.consume(k2, [minute(1)])).allowed).toBe(true);
      expect((await a.consume(k1, [{ name: 'search_minute', kind: 'minute', limit: 1 }])).allowed).toBe(true);
    });

    it('reports the oldest entry of a minute window, so the reset is when it frees a slot', async () => {
      const [a] = make();
      const key = subject();
      const first = await a.consume(key, [minute(2)]);
      const second = await a.consume(key, [minute(2)]);
      expect(second.windows[0]?.oldest).toBe(first.now);
      const d = decide(await a.consume(key, [minute(2)]));
      expect(d.allowed).toBe(false);
      expect(d.retryAfter).toBeGreaterThanOrEqual(59);
      expect(d.retryAfter).toBeLessThanOrEqual(60);
    });
  });
}
