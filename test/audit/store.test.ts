/**
 * Where audit records are kept for queries (src/audit/store.ts) and how the trail treats them
 * (src/audit/trail.ts): the in-memory ring; a store that fails never fails the write, and is
 * counted. The Redis Stream is in store.redis.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { MemoryAuditStore, type AuditStore } from '../../src/audit/store.ts';
import { AuditTrail } from '../../src/audit/trail.ts';
import { order, rec, validRecord } from '../helpers/audit.ts';

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
