import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import { MemoryVerdictStore, RedisVerdictStore, type Verdict, type VerdictStore } from '../../src/auth/verdict-store.ts';
import { connectTestRedis, dropPrefix, testPrefix } from '../helpers/redis.ts';

const silent = { warn: () => {} };
let redis: Redis;
const prefix = testPrefix('verdicts');

beforeAll(async () => {
  redis = await connectTestRedis();
});
afterAll(async () => {
  await dropPrefix(redis, prefix);
  redis.disconnect();
});

const valid: Verdict = { valid: true, userId: 'u1', keyId: 'k1', scopes: ['read'], expiresAt: null, checkedAt: 1 };

// Both implementations must behave the same.
describe.each([
  ['memory', () => new MemoryVerdictStore(100) as VerdictStore],
  ['redis', () => new RedisVerdictStore(redis, prefix, silent) as VerdictStore],
])('%s verdict store', (_name, make) => {
  it('returns what was stored, and misses on unknown hashes', async () => {
    const store = make();
    await store.set('a'.repeat(64), valid, 5_000);
    expect(await store.get('a'.repeat(64))).toEqual(valid);
    expect(await store.get('b'.repeat(64))).toBeUndefined();
  });

  it('forgets a verdict once its TTL ran out', async () => {
    const store = make();
    await store.set('c'.repeat(64), { valid: false, checkedAt: 2 }, 50);
    expect(await store.get('c'.repeat(64))).toEqual({ valid: false, checkedAt: 2 });
    await new Promise((r) => setTimeout(r, 120));
    expect(await store.get('c'.repeat(64))).toBeUndefined();
  });

  it('stores nothing for a TTL already spent', async () => {
    const store = make();
    await store.set('d'.repeat(64), valid, 0);
    expect(await store.get('d'.repeat(64))).toBeUndefined();
  });
});

describe('redis verdict store with Redis unreachable', () => {
  it('answers a miss within the command timeout instead of hanging', async () => {
    const { connectRedis } = await import('../../src/store/redis.ts');
    const dead = connectRedis({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100 });
    dead.on('error', () => {});
    const warnings: string[] = [];
    const store = new RedisVerdictStore(dead, prefix, { warn: (_o, m) => warnings.push(m) });
    const started = Date.now();
    expect(await store.get('e'.repeat(64))).toBeUndefined();
    await store.set('e'.repeat(64), valid, 1000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(warnings).toEqual(['verdict cache read failed', 'verdict cache write failed']);
    dead.disconnect();
  });
});

describe('memory verdict store', () => {
  it('keeps and reads verdicts without starting timers (the clock is read per lookup)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const store = new MemoryVerdictStore(100);
      await store.set('d'.repeat(64), valid, 5_000);
      expect(await store.get('d'.repeat(64))).toEqual(valid);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
