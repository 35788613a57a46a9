import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryClaimStore, RedisClaimStore, type ClaimStore } from '../../src/confirm/claims.ts';
import { connectTestRedis, dropPrefix, testPrefix } from '../helpers/redis.ts';

let redis: Redis;
let redis2: Redis;
const prefix = testPrefix('claims');

beforeAll(async () => {
  redis = await connectTestRedis();
  redis2 = await connectTestRedis();
});
afterAll(async () => {
  await dropPrefix(redis, prefix);
  redis.disconnect();
  redis2.disconnect();
});

const outcome = { status: 201, body: { id: 'o1', replayed: false } };
let n = 0;
const jti = () => `jti-${Date.now()}-${n++}`;

describe.each([
  ['memory', () => [new MemoryClaimStore(), null] as const],
  // Two connections stand for two replicas sharing one Redis.
  ['redis', () => [new RedisClaimStore(redis, prefix), new RedisClaimStore(redis2, prefix)] as const],
])('%s claim store', (_name, make) => {
  it('grants the first claim only; later ones see pending, then the stored outcome', async () => {
    const [a, b] = make();
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
    const [a, b] = make();
    const id = jti();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => ((i % 2 === 0 || b === null ? a : b) as ClaimStore).claim(id, 10_000, `o${i}`)),
    );
    expect(results.filter((r) => r.state === 'acquired')).toHaveLength(1);
    expect(results.filter((r) => r.state === 'pending')).toHaveLength(49);
  });

  it('a released claim can be taken again; release never drops a stored outcome', async () => {
    const [a] = make();
    const id = jti();
    await a.claim(id, 10_000, 'o1');
    await a.release(id, 'o1');
    expect(await a.peek(id)).toBeNull();
    expect(await a.claim(id, 10_000, 'o1')).toEqual({ state: 'acquired' });
    await a.complete(id, outcome, 10_000);
    await a.release(id, 'o1');
    expect(await a.peek(id)).toEqual({ state: 'done', outcome });
  });

  it('forgets a claim after its TTL', async () => {
    const [a] = make();
    const id = jti();
    await a.claim(id, 50, 'o1');
    await new Promise((r) => setTimeout(r, 120));
    expect(await a.peek(id)).toBeNull();
  });
});

describe('redis claim store with Redis down', () => {
  it('throws instead of granting a claim', async () => {
    const { connectRedis } = await import('../../src/store/redis.ts');
    const dead = connectRedis({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100 });
    dead.on('error', () => {});
    await expect(new RedisClaimStore(dead, prefix).claim('x', 1000, 'o1')).rejects.toThrow();
    dead.disconnect();
  });
});

describe('claim owners', () => {
  it("release gives back only the releasing owner's claim", async () => {
    const s = new MemoryClaimStore();
    await s.claim('j', 10_000, 'first');
    await s.release('j', 'someone-else');
    expect(await s.peek('j')).toEqual({ state: 'pending' });
    await s.release('j', 'first');
    expect(await s.peek('j')).toBeNull();
  });
});
