/**
 * Where audit records are kept for queries (src/audit/store.ts) and how the trail treats them
 * (src/audit/trail.ts): the Redis Stream trimmed by age against an injected clock, filtered
 * newest first; the in-memory ring; a store that fails never fails the write, and is counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { killSwitchRecord, type AuditRecord } from '../../src/audit/record.ts';
import { auditStreamKey, MemoryAuditStore, RedisAuditStream, type AuditStore } from '../../src/audit/store.ts';
import { AuditTrail } from '../../src/audit/trail.ts';
import { hashTagOf } from '../../src/store/redis.ts';
import { connectTestRedis, dropPrefix, testPrefix } from '../helpers/redis.ts';
import { validRecord } from '../helpers/audit.ts';

const HOUR = 3_600_000;

function rec(n: number, over: Partial<AuditRecord> = {}): AuditRecord {
  return {
    ...killSwitchRecord({
      time: Date.parse('2026-11-28T10:00:00Z') + n,
      requestId: `req-${n}`,
      traceId: null,
      mode: 'off',
      by: 'test',
      reason: `r${n}`,
      remote: null,
      outcome: 'executed',
      errorCode: null,
    }),
    ...over,
  };
}
const order = (n: number, user: string, key: string): AuditRecord =>
  rec(n, {
    action: 'place_order',
    surface: 'rest',
    user_id: user,
    key_id: key,
    confirmation: 'token',
    kill_switch: null,
    confirm_token_id: `jti-${n}`,
    backend_ref: `order-${n}`,
  });

let redis: Redis;
const prefix = testPrefix('audit');
beforeAll(async () => {
  redis = await connectTestRedis();
});
afterAll(async () => {
  await dropPrefix(redis, prefix);
  redis.disconnect();
});

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

describe('the in-memory ring', () => {
  it('keeps the last records only, newest first, filtered', async () => {
    const ring = new MemoryAuditStore(5);
    for (let i = 0; i < 8; i += 1) await ring.append(order(i, i % 2 === 0 ? 'alice' : 'bob', 'k'));
    expect((await ring.query({ limit: 10 })).map((r) => r.request_id)).toEqual(['req-7', 'req-6', 'req-5', 'req-4', 'req-3']);
    expect((await ring.query({ userId: 'alice', limit: 10 })).map((r) => r.request_id)).toEqual(['req-6', 'req-4']);
    expect((await ring.query({ limit: 1 })).map((r) => r.request_id)).toEqual(['req-7']);
  });
});

describe('the trail', () => {
  function trailOver(store: AuditStore) {
    const lines: string[] = [];
    const counted: string[] = [];
    const warned: string[] = [];
    const trail = new AuditTrail({
      sink: { write: (l) => lines.push(l), close: () => undefined },
      store,
      metrics: { auditRecord: (a, o, n = 1) => counted.push(`${a}:${o}:${n}`), auditStreamFailure: () => counted.push('stream-failure') },
      log: { warn: (_o, m) => warned.push(m), error: (_o, m) => warned.push(m) },
      now: () => 0,
    });
    return { trail, lines, counted, warned };
  }

  it('writes the line synchronously, then the store; a store that fails is counted and logged, never thrown', async () => {
    const failing: AuditStore = { kind: 'stream', append: () => Promise.reject(new Error('down')), query: async () => [] };
    const { trail, lines, counted, warned } = trailOver(failing);
    trail.write(rec(1));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toEqual(rec(1));
    expect(lines[0]?.endsWith('\n')).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(counted).toEqual(['kill_switch:executed:1', 'stream-failure']);
    expect(warned).toEqual(['audit stream append failed']);
  });

  it('a sink that throws is logged and the store still gets the record', async () => {
    const ring = new MemoryAuditStore();
    const warned: string[] = [];
    const trail = new AuditTrail({
      sink: {
        write: () => {
          throw new Error('ENOSPC');
        },
        close: () => undefined,
      },
      store: ring,
      metrics: { auditRecord: () => undefined, auditStreamFailure: () => undefined },
      log: { warn: (_o, m) => warned.push(m), error: (_o, m) => warned.push(m) },
      now: () => 0,
    });
    trail.write(rec(1));
    expect(warned).toEqual(['audit record not written to the trail']);
    expect(await ring.query({ limit: 5 })).toHaveLength(1);
  });

  it('an attempt writes one record, at the first thing that settles it', () => {
    const { trail, lines } = trailOver(new MemoryAuditStore());
    const spec = { action: 'place_order' as const, targets: { topic_id: 'topic_id' }, coins: { stake: 'stake' }, reference: 'id' };
    const call = { requestId: 'r', traceId: null, surface: 'rest' as const, keyId: 'k', userId: 'u', confirmation: 'token' as const };
    const attempt = trail.attempt(spec, call);
    attempt.verified({
      jti: 'j',
      action: 'place_order',
      userId: 'u',
      keyId: 'k',
      params: { topic_id: 't', stake: 3 },
      issuedAt: 0,
      expiresAt: 1,
    });
    attempt.running();
    attempt.performed({ id: 'order-1' }, false);
    // Whatever fails after the backend's answer, the record already says what the backend did.
    attempt.failed({ status: 500, code: 'INTERNAL' });
    attempt.answered({ id: 'order-1', replayed: false });
    expect(lines).toHaveLength(1);
    expect(validRecord(JSON.parse(lines[0] as string))).toMatchObject({
      outcome: 'executed',
      error_code: null,
      backend_ref: 'order-1',
      confirm_token_id: 'j',
      coins: { stake: '3.0000' },
    });
  });

  it('a 5xx is failed once the action ran, refused before it (nothing was asked of the backend)', () => {
    const { trail, lines } = trailOver(new MemoryAuditStore());
    const spec = { action: 'back_opinion' as const, targets: {}, coins: {}, reference: 'id' };
    const call = { requestId: 'r', traceId: null, surface: 'mcp' as const, keyId: 'k', userId: 'u', confirmation: 'token' as const };
    trail.attempt(spec, call).failed({ status: 500, code: 'CONFIRM_UNAVAILABLE' });
    const ran = trail.attempt(spec, call);
    ran.running();
    ran.failed({ status: 500, code: 'INTERNAL' });
    expect(lines.map((l) => validRecord(JSON.parse(l))).map((r) => [r.outcome, r.error_code])).toEqual([
      ['refused', 'CONFIRM_UNAVAILABLE'],
      ['failed', 'INTERNAL'],
    ]);
  });
});
