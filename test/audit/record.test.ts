/**
 * The audit record builders (src/audit/record.ts): what each record names, taken from the
 * operation's declared `audit` block and the token's claims, never the token or the key, and
 * every record valid against docs/audit-record.schema.json.
 */
import { describe, expect, it } from 'vitest';
import {
  type AttemptCall,
  answeredOutcome,
  errorOutcome,
  executionRecord,
  killSwitchRecord,
  type OperationAudit,
} from '../../src/audit/record.ts';
import { traceIdIn, traceIdOf } from '../../src/audit/trace.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { validRecord } from '../helpers/audit.ts';

const T = Date.parse('2026-11-28T10:00:00.123Z');
const call: AttemptCall = {
  requestId: 'req-1',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  surface: 'rest',
  keyId: 'key_alice_write',
  userId: 'alice',
  confirmation: 'token',
};
const auditOf = (name: string): OperationAudit => {
  const audit = OPERATIONS.find((op) => op.name === name)?.audit;
  if (audit === undefined) throw new Error(`${name} declares no audit`);
  return audit;
};
const orderClaims = { jti: 'jti-1', params: { topic_id: 't1', option_id: 'o1', stake: 25, units: '15.8', lang: 'en' } };

describe('the operations that declare an audit block', () => {
  it('are exactly the three executions, each with its confirm action', () => {
    const declared = OPERATIONS.filter((op) => op.audit !== undefined).map((op) => [op.name, op.audit?.action, op.kind]);
    expect(declared).toEqual([
      ['place_order', 'place_order', 'execute'],
      ['publish_opinion', 'publish_opinion', 'execute'],
      ['back_opinion', 'back_opinion', 'execute'],
    ]);
    for (const op of OPERATIONS) expect(op.audit?.action).toBe(op.execution?.action);
  });
});

describe('executionRecord', () => {
  it('an executed order: targets and stake from the token, the id of the answer as the reference', () => {
    const record = validRecord(
      executionRecord(auditOf('place_order'), call, {
        time: T,
        claims: orderClaims,
        outcome: 'executed',
        errorCode: null,
        body: { id: 'order-9', replayed: false },
      }),
    );
    expect(record).toEqual({
      schema: 'openpm.audit/1',
      time: '2026-11-28T10:00:00.123Z',
      request_id: 'req-1',
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      surface: 'rest',
      key_id: 'key_alice_write',
      user_id: 'alice',
      action: 'place_order',
      targets: { topic_id: 't1', option_id: 'o1' },
      coins: { stake: '25.0000' },
      confirm_token_id: 'jti-1',
      confirmation: 'token',
      outcome: 'executed',
      error_code: null,
      backend_ref: 'order-9',
      kill_switch: null,
    });
  });

  it('an opinion: the side and the replied opinion as targets, the fee as coins; a null reply is left out', () => {
    const params = { topic_id: 't1', content: 'secret-ish text', reply_to_opinion_id: null, side_option_id: 'o2', fee: '1.5' };
    const record = validRecord(
      executionRecord(
        auditOf('publish_opinion'),
        { ...call, surface: 'mcp', confirmation: 'client_elicitation' },
        {
          time: T,
          claims: { jti: 'jti-2', params },
          outcome: 'executed',
          errorCode: null,
          body: { id: 'op-1', content: 'secret-ish text' },
        },
      ),
    );
    expect(record.targets).toEqual({ topic_id: 't1', option_id: 'o2' });
    expect(record.coins).toEqual({ fee: '1.5000' });
    expect(record.confirmation).toBe('client_elicitation');
    // The opinion's text is not audit material.
    expect(JSON.stringify(record)).not.toContain('secret-ish');
  });

  it('a back: the opinion and the price', () => {
    const record = validRecord(
      executionRecord(auditOf('back_opinion'), call, {
        time: T,
        claims: { jti: 'jti-3', params: { opinion_id: 'op-7', topic_id: 't1', seq: 2, price: '12.25' } },
        outcome: 'replayed',
        errorCode: null,
        body: { id: 'back-3', replayed: true },
      }),
    );
    expect([record.targets, record.coins, record.outcome, record.backend_ref]).toEqual([
      { topic_id: 't1', opinion_id: 'op-7' },
      { price: '12.2500' },
      'replayed',
      'back-3',
    ]);
  });

  it('a refusal before the token was verified names no target, coin, token id or reference', () => {
    const record = validRecord(
      executionRecord(
        auditOf('place_order'),
        { ...call, traceId: null },
        {
          time: T,
          claims: null,
          outcome: 'refused',
          errorCode: 'SERVICE_DISABLED',
          body: null,
        },
      ),
    );
    expect(record).toMatchObject({
      targets: {},
      coins: {},
      confirm_token_id: null,
      backend_ref: null,
      outcome: 'refused',
      error_code: 'SERVICE_DISABLED',
      trace_id: null,
    });
  });

  it('the schema refuses a record that breaks its rules', () => {
    const good = executionRecord(auditOf('place_order'), call, {
      time: T,
      claims: orderClaims,
      outcome: 'executed',
      errorCode: null,
      body: { id: 'o' },
    });
    expect(() => validRecord({ ...good, backend_ref: null })).toThrow(/backend_ref/);
    expect(() => validRecord({ ...good, outcome: 'refused' })).toThrow(/error_code/);
    expect(() => validRecord({ ...good, coins: { stake: '25' } })).toThrow(/stake/);
    expect(() => validRecord({ ...good, confirm_token: 'ct1.x.y.z' })).toThrow(/additional/);
  });
});

describe('outcomes', () => {
  it('a success is executed unless flagged replayed; an error is failed only from 500 once the action ran', () => {
    expect([answeredOutcome({ replayed: false }), answeredOutcome({ replayed: true }), answeredOutcome(null)]).toEqual([
      'executed',
      'replayed',
      'executed',
    ]);
    expect([errorOutcome(409, true), errorOutcome(499, true), errorOutcome(500, true), errorOutcome(503, true)]).toEqual([
      'refused',
      'refused',
      'failed',
      'failed',
    ]);
    // Before the backend was asked (the kill switch, the claim store), nothing was done.
    expect([errorOutcome(503, false), errorOutcome(500, false)]).toEqual(['refused', 'refused']);
  });
});

describe('killSwitchRecord', () => {
  it('names the mode, who, why and from where; no key, user or confirmation', () => {
    const record = validRecord(
      killSwitchRecord({
        time: T,
        requestId: 'req-2',
        traceId: null,
        mode: 'writes',
        by: 'ops@host',
        reason: 'INC-1',
        remote: '127.0.0.1',
        outcome: 'executed',
        errorCode: null,
      }),
    );
    expect(record).toMatchObject({
      action: 'kill_switch',
      surface: 'admin',
      key_id: null,
      user_id: null,
      confirmation: null,
      kill_switch: { mode: 'writes', by: 'ops@host', reason: 'INC-1', remote: '127.0.0.1' },
    });
  });
});

describe('trace ids', () => {
  const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  it("take MCP's _meta first, then the header; malformed, version ff or all-zero ids are none", () => {
    expect(traceIdOf({ traceCarrier: { traceparent: parent }, traceparent: `00-${'1'.repeat(32)}-00f067aa0ba902b7-01` })).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(traceIdOf({ traceparent: parent })).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(traceIdOf({})).toBeNull();
    expect(traceIdIn('not a traceparent')).toBeNull();
    expect(traceIdIn(`ff-${'1'.repeat(32)}-00f067aa0ba902b7-01`)).toBeNull();
    expect(traceIdIn(`00-${'0'.repeat(32)}-00f067aa0ba902b7-01`)).toBeNull();
  });
});
