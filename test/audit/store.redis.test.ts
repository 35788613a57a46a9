/** The audit Redis Stream (src/audit/store.ts): trimmed by age against an injected clock, filtered newest first. */
import { describe, expect, it } from 'vitest';
import { auditStreamKey, RedisAuditStream } from '../../src/audit/store.ts';
import { hashTagOf } from '../../src/store/redis.ts';
import { useTestRedis } from '../helpers/redis.ts';
import { order, rec, validRecord } from '../helpers/audit.ts';

const HOUR = 3_600_000;

const { prefix, redis } = useTestRedis('audit');

describe('the Redis Stream', () => {
  it('lives under the key prefix, in a hash slot of its own tag', () => {
    expect(auditStreamKey('openpm:')).toBe('openpm:{audit}:stream');
    expect(hashTagOf(auditStreamKey('openpm:'))).toBe('audit');
  });

  it('trims, on each append, what is older than the retention by the injected clock', async () => {
    const base = Date.now();
    let now = base;
    const stream = new RedisAuditStream(redis, { prefix: `${prefix}trim:`, retentionMs: 168 * HOUR, now: () => now });
    expect(stream.minId()).toBe(`${base - 168 * HOUR}-0`);
    // Records written 200, 100 and 1 hours ago (stream ids are the time Redis took them).
    for (const [age, n] of [
      [200, 1],
      [100, 2],
      [1, 3],
    ] as const) {
      await redis.xadd(stream.key, `${base - age * HOUR}-0`, 'u', '', 'k', '', 'a', 'kill_switch', 'r', JSON.stringify(rec(n)));
    }
    await stream.append(rec(4));
    expect((await stream.query({ limit: 10 })).map((r) => r.request_id)).toEqual(['req-4', 'req-3', 'req-2']);
    // 70 hours on, the one written 100 hours before the start is past the 168 hours.
    now = base + 70 * HOUR;
    await stream.append(rec(5));
    expect((await stream.query({ limit: 10 })).map((r) => r.request_id)).toEqual(['req-5', 'req-4', 'req-3']);
  });

  it('answers newest first, filtered by user, key and action, across more entries than one page', async () => {
    const stream = new RedisAuditStream(redis, { prefix: `${prefix}query:`, retentionMs: HOUR, now: Date.now });
    for (let i = 0; i < 450; i += 1) await stream.append(order(i, i % 3 === 0 ? 'alice' : 'bob', i % 2 === 0 ? 'k-even' : 'k-odd'));
    await stream.append(rec(999));
    const alice = await stream.query({ userId: 'alice', limit: 1000 });
    expect(alice).toHaveLength(150);
    expect(alice[0]?.request_id).toBe('req-447');
    expect(alice.at(-1)?.request_id).toBe('req-0');
    for (const r of alice) validRecord(r);
    expect((await stream.query({ userId: 'alice', keyId: 'k-odd', limit: 2 })).map((r) => r.request_id)).toEqual(['req-447', 'req-441']);
    expect((await stream.query({ action: 'kill_switch', limit: 5 })).map((r) => r.request_id)).toEqual(['req-999']);
    expect(await stream.query({ limit: 3 })).toHaveLength(3);
  });
});
