/**
 * The verdict-store behaviour against Redis, the store with Redis unreachable, and what it finds or is asked to keep at the edges: a TTL of nothing
 * left is not written (and costs no failed command), and a value that is not a verdict reads as
 * a miss, so the caller asks the backend instead of trusting it.
 */
import { describe, expect, it } from 'vitest';
import { RedisVerdictStore } from '../../src/auth/verdict-store.ts';
import { connectRedis } from '../../src/store/redis.ts';
import { useTestRedis } from '../helpers/redis.ts';
import { valid, verdictStoreBehaviour } from './verdict-store-behaviour.ts';

const { prefix, redis } = useTestRedis('verdict-edges');
const warnings: string[] = [];
const log = { warn: (_obj: object, msg: string) => warnings.push(msg) };

verdictStoreBehaviour('redis', {
  make: () => new RedisVerdictStore(redis, prefix, { warn: () => {} }),
  // Redis expires keys on its own clock.
  pass: (ms) => new Promise((r) => setTimeout(r, ms)),
});

describe('redis verdict store with Redis unreachable', () => {
  it('answers a miss, bounded by the command timeout, instead of hanging', async () => {
    const dead = connectRedis({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100 });
    dead.on('error', () => {});
    const unreachable: string[] = [];
    const store = new RedisVerdictStore(dead, prefix, { warn: (_o, m) => unreachable.push(m) });
    expect(await store.get('e'.repeat(64))).toBeUndefined();
    await store.set('e'.repeat(64), valid, 1000);
    expect(unreachable).toEqual(['verdict cache read failed', 'verdict cache write failed']);
    dead.disconnect();
  });
});

describe('redis verdict store edges', () => {
  it('writes nothing, and fails nothing, for a TTL of zero or less', async () => {
    const store = new RedisVerdictStore(redis, prefix, log);
    warnings.length = 0;
    await store.set('h-zero', { valid: false, checkedAt: 1 }, 0);
    await store.set('h-neg', { valid: false, checkedAt: 1 }, -5);
    expect(await redis.exists(`${prefix}key-verdict:h-zero`, `${prefix}key-verdict:h-neg`)).toBe(0);
    expect(warnings).toEqual([]);
    await store.set('h-one', { valid: false, checkedAt: 1 }, 1_000);
    expect(await store.get('h-one')).toEqual({ valid: false, checkedAt: 1 });
  });

  it.each([
    ['not JSON', '{oops'],
    ['a JSON string', '"valid"'],
    ['JSON null', 'null'],
    ['an object without checkedAt', '{"valid":true,"userId":"u"}'],
    ['a checkedAt that is not a number', '{"valid":false,"checkedAt":"5"}'],
  ])('reads %s as a miss', async (_what, raw) => {
    const store = new RedisVerdictStore(redis, prefix, log);
    await redis.set(`${prefix}key-verdict:odd`, raw, 'PX', 60_000);
    expect(await store.get('odd')).toBeUndefined();
  });

  it('reads a stored verdict with a numeric checkedAt as it was written', async () => {
    const store = new RedisVerdictStore(redis, prefix, log);
    await redis.set(`${prefix}key-verdict:ok`, '{"valid":false,"checkedAt":5}', 'PX', 60_000);
    expect(await store.get('ok')).toEqual({ valid: false, checkedAt: 5 });
  });
});
