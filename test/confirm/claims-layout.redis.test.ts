/**
 * What the claim stores keep, beyond what their reads show: the memory store's sweep really
 * drops expired entries (only those, first at 1,024 entries, then each time the map has
 * doubled, so it holds at most about twice the live entries), and the Redis store keeps
 * each claim under `<prefix>confirm:<jti>` with the claim's TTL, so claims never share keys
 * with the other stores under the same prefix.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryClaimStore, RedisClaimStore } from '../../src/confirm/claims.ts';
import { useTestRedis } from '../helpers/redis.ts';

/** The keys the store's map dropped, seen through Map.prototype.delete. */
function watchDeletes(): string[] {
  const dropped: string[] = [];
  const original = Map.prototype.delete;
  vi.spyOn(Map.prototype, 'delete').mockImplementation(function (this: Map<unknown, unknown>, key: unknown) {
    if (typeof key === 'string' && key.startsWith('sw-')) dropped.push(key);
    return original.call(this, key);
  });
  return dropped;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('memory claim store sweep', () => {
  it('drops nothing before the 1,024th entry, then every entry expired at that instant and no other', async () => {
    const clock = { t: 1_000 };
    const store = new MemoryClaimStore(() => clock.t);
    const dropped = watchDeletes();
    await store.claim('sw-old', 10, 'a');
    clock.t += 100;
    // Entries 2 … 1023: the expired one stays in the map until the sweep.
    for (let i = 2; i <= 1022; i++) await store.claim(`sw-live-${i}`, 1_000_000, 'a');
    await store.claim('sw-edge', 50, 'a');
    clock.t += 50; // sw-edge expires exactly now
    expect(dropped).toEqual([]);
    await store.claim('sw-1024', 1_000_000, 'a');
    expect(dropped.sort()).toEqual(['sw-edge', 'sw-old']);
    expect(await store.peek('sw-live-2')).toEqual({ state: 'pending' });
    expect(await store.peek('sw-1024')).toEqual({ state: 'pending' });
  });

  it('sweeps again only once the map has doubled, not each time it comes back to 1,024 entries', async () => {
    const clock = { t: 1_000 };
    const store = new MemoryClaimStore(() => clock.t);
    const dropped = watchDeletes();
    await store.claim('sw-old-1', 10, 'a');
    await store.claim('sw-old-2', 10, 'a');
    clock.t += 100;
    for (let i = 3; i <= 1024; i++) await store.claim(`sw-live-${i}`, 1_000_000, 'a');
    expect(dropped.sort()).toEqual(['sw-old-1', 'sw-old-2']);
    // 1,022 entries left: the next sweep waits for 2,044.
    await store.claim('sw-short', 10, 'a');
    clock.t += 10;
    await store.claim('sw-back-to-1024', 1_000_000, 'a');
    for (let i = 1025; i < 2044; i++) await store.claim(`sw-more-${i}`, 1_000_000, 'a');
    expect(dropped).toHaveLength(2);
    await store.claim('sw-2044', 1_000_000, 'a');
    expect(dropped).toContain('sw-short');
    expect(dropped).toHaveLength(3);
  });

  it('holds at most about twice the live entries under a steady stream of claims', async () => {
    const clock = { t: 0 };
    const store = new MemoryClaimStore(() => clock.t);
    const dropped = watchDeletes();
    const live = 3_000;
    let most = 0;
    for (let i = 0; i < 20_000; i++) {
      await store.claim(`sw-${i}`, live, 'a');
      clock.t += 1;
      most = Math.max(most, i + 1 - dropped.length);
    }
    expect(most).toBeLessThanOrEqual(2 * live + 1);
    expect(most).toBeGreaterThanOrEqual(live);
  });

  it('drops an entry found expired when it is read', async () => {
    const clock = { t: 0 };
    const store = new MemoryClaimStore(() => clock.t);
    const dropped = watchDeletes();
    await store.claim('sw-read', 10, 'a');
    clock.t = 10;
    expect(await store.peek('sw-read')).toBeNull();
    expect(dropped).toEqual(['sw-read']);
  });
});

describe('redis claim store keys', () => {
  const { prefix, redis } = useTestRedis('claims-layout');

  it('keeps a claim, then its outcome, under <prefix>confirm:<jti> with the TTL asked', async () => {
    const store = new RedisClaimStore(redis, prefix);
    expect(await store.claim('j1', 60_000, 'o1')).toEqual({ state: 'acquired' });
    expect(await redis.get(`${prefix}confirm:j1`)).toBe('P:o1');
    const ttl = await redis.pttl(`${prefix}confirm:j1`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await store.complete('j1', { status: 201, body: { id: 'x' } }, 60_000);
    expect(JSON.parse((await redis.get(`${prefix}confirm:j1`)) ?? 'null')).toEqual({ status: 201, body: { id: 'x' } });
    await store.release('j1', 'o1');
    expect(await redis.exists(`${prefix}confirm:j1`)).toBe(1);
  });

  it('reads an empty value under the key as unclaimed, not as an outcome', async () => {
    const store = new RedisClaimStore(redis, prefix);
    await redis.set(`${prefix}confirm:j3`, '', 'PX', 60_000);
    expect(await store.peek('j3')).toBeNull();
  });

  it('releases its own pending claim by deleting the key', async () => {
    const store = new RedisClaimStore(redis, prefix);
    await store.claim('j2', 60_000, 'o1');
    await store.release('j2', 'o1');
    expect(await redis.exists(`${prefix}confirm:j2`)).toBe(0);
  });
});
