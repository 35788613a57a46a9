/**
 * Audit records in tests: every one is checked against the published schema
 * (docs/audit-record.schema.json) with Ajv, so what the gateway writes and what the docs promise
 * cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { AUDIT_SCHEMA, killSwitchRecord, type AuditRecord } from '../../src/audit/record.ts';

const schema = JSON.parse(readFileSync(new URL('../../docs/audit-record.schema.json', import.meta.url), 'utf8')) as object;
// `date-time` is also a pattern of the schema; Ajv only needs to know the format name.
const ajv = new Ajv2020({ strict: true, allErrors: true, formats: { 'date-time': true } });
const check = ajv.compile(schema);

/** The record, once it validates against the schema (throws naming every problem otherwise). */
export function validRecord(record: unknown): AuditRecord {
  if (!check(record)) throw new Error(`audit record off schema: ${ajv.errorsText(check.errors)}\n${JSON.stringify(record)}`);
  return record as unknown as AuditRecord;
}

/** Audit records among JSON lines (a log stream or an AUDIT_LOG file), each validated. */
export function recordsIn(text: string): AuditRecord[] {
  const out: AuditRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if ((parsed as { schema?: unknown }).schema === AUDIT_SCHEMA) out.push(validRecord(parsed));
  }
  return out;
}

export function recordsInFile(path: string): AuditRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return recordsIn(text);
}

/** A kill-switch record numbered `n` (its time is 10:00 UTC plus n ms), with fields overridden. */
export function rec(n: number, over: Partial<AuditRecord> = {}): AuditRecord {
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

/** An order record numbered `n`, for a user and key. */
export const order = (n: number, user: string, key: string): AuditRecord =>
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
