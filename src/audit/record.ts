/**
 * The audit record (docs/audit.md, schema docs/audit-record.schema.json): one per execution
 * attempt of a money-moving operation and one per kill-switch change. Pure builders, so that
 * what a record holds is decided in one place and tested without I/O.
 *
 * Never in a record: the API key, the confirm token itself (only its id, `jti`), opinion text.
 */
import { toBig } from '../../mappers/decimal.ts';
import type { ConfirmAction, TokenClaims } from '../confirm/token.ts';
import type { KillMode } from '../killswitch/kill-switch.ts';

/** Bumped on any change a reader could notice; readers select on it. */
export const AUDIT_SCHEMA = 'openpm.audit/1';

export type AuditAction = ConfirmAction | 'kill_switch';
/**
 * `executed`: the backend performed it now; `replayed`: an earlier execution of the same
 * confirm token answered again (nothing new happened); `refused`: nothing was done; `failed`:
 * the backend was asked and the answer was an error, so whether it acted is unknown (a retry
 * with the same token never acts twice, and its own record names the backend's reference).
 */
export type AuditOutcome = 'executed' | 'replayed' | 'refused' | 'failed';
export type AuditSurface = 'rest' | 'mcp' | 'admin';
export type Confirmation = 'token' | 'client_elicitation';

export const TARGET_FIELDS = ['topic_id', 'option_id', 'opinion_id', 'reply_to_opinion_id', 'poll_id'] as const;
export type TargetField = (typeof TARGET_FIELDS)[number];
export const COIN_FIELDS = ['stake', 'fee', 'price'] as const;
export type CoinField = (typeof COIN_FIELDS)[number];

export interface AuditRecord {
  schema: typeof AUDIT_SCHEMA;
  /** RFC 3339 with milliseconds, UTC. */
  time: string;
  request_id: string;
  trace_id: string | null;
  surface: AuditSurface;
  key_id: string | null;
  user_id: string | null;
  action: AuditAction;
  targets: Partial<Record<TargetField, string>>;
  /** Exact decimal text with 4 places, as the contract writes coins. */
  coins: Partial<Record<CoinField, string>>;
  confirm_token_id: string | null;
  confirmation: Confirmation | null;
  outcome: AuditOutcome;
  /** The contract's error code answered, for `refused` and `failed`. */
  error_code: string | null;
  /** The backend's id of what it did: the order, the opinion or the back. */
  backend_ref: string | null;
  /** Kill-switch changes only. */
  kill_switch: { mode: KillMode | null; by: string | null; reason: string | null; remote: string | null } | null;
}

/**
 * What an executing operation declares (`audit` in its operation metadata): which parameters of
 * its confirm token name its targets and its coins, and which field of its answer is the
 * backend's reference. Names, not code: the pipeline reads them the same for every operation.
 */
export interface OperationAudit {
  action: AuditAction;
  targets: Partial<Record<TargetField, string>>;
  coins: Partial<Record<CoinField, string>>;
  reference: string;
}

/** Who made one call, as the surface saw it. */
export interface AttemptCall {
  requestId: string;
  traceId: string | null;
  surface: Exclude<AuditSurface, 'admin'>;
  keyId: string;
  userId: string;
  confirmation: Confirmation;
}

export interface ExecutionFacts {
  time: number;
  claims: Pick<TokenClaims, 'jti' | 'params'> | null;
  outcome: AuditOutcome;
  errorCode: string | null;
  /** The answer's body (or the backend's, when recorded as it arrived), for the reference. */
  body: unknown;
}

export function executionRecord(spec: OperationAudit, call: AttemptCall, facts: ExecutionFacts): AuditRecord {
  const params = facts.claims?.params ?? {};
  return {
    schema: AUDIT_SCHEMA,
    time: new Date(facts.time).toISOString(),
    request_id: call.requestId,
    trace_id: call.traceId,
    surface: call.surface,
    key_id: call.keyId,
    user_id: call.userId,
    action: spec.action,
    targets: picked(spec.targets, params, text),
    coins: picked(spec.coins, params, coinText),
    confirm_token_id: facts.claims?.jti ?? null,
    confirmation: call.confirmation,
    outcome: facts.outcome,
    error_code: facts.errorCode,
    backend_ref: reference(spec.reference, facts.body),
    kill_switch: null,
  };
}

export interface KillSwitchFacts {
  time: number;
  requestId: string;
  traceId: string | null;
  mode: KillMode | null;
  by: string | null;
  reason: string | null;
  remote: string | null;
  outcome: AuditOutcome;
  errorCode: string | null;
}

export function killSwitchRecord(facts: KillSwitchFacts): AuditRecord {
  return {
    schema: AUDIT_SCHEMA,
    time: new Date(facts.time).toISOString(),
    request_id: facts.requestId,
    trace_id: facts.traceId,
    surface: 'admin',
    key_id: null,
    user_id: null,
    action: 'kill_switch',
    targets: {},
    coins: {},
    confirm_token_id: null,
    confirmation: null,
    outcome: facts.outcome,
    error_code: facts.errorCode,
    backend_ref: null,
    kill_switch: { mode: facts.mode, by: facts.by, reason: facts.reason, remote: facts.remote },
  };
}

/** The outcome of an answered call: a success is `executed` or, flagged so, `replayed`. */
export function answeredOutcome(body: unknown): AuditOutcome {
  return isObject(body) && body['replayed'] === true ? 'replayed' : 'executed';
}

/**
 * The outcome of a call answered with an error: `failed` when the backend was asked to act and
 * the error (a 5xx, a timeout) does not say whether it did; otherwise `refused`, nothing done
 * (a 4xx, or a 5xx met before the action ran: the kill switch, the claim store).
 */
export function errorOutcome(status: number, running: boolean): AuditOutcome {
  return status >= 500 && running ? 'failed' : 'refused';
}

function picked<F extends string>(
  wanted: Partial<Record<F, string>>,
  params: Record<string, unknown>,
  convert: (v: unknown) => string | null,
): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {};
  for (const [field, param] of Object.entries(wanted) as [F, string][]) {
    const value = convert(params[param]);
    if (value !== null) out[field] = value;
  }
  return out;
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function coinText(v: unknown): string | null {
  if (typeof v !== 'number' && typeof v !== 'string') return null;
  try {
    return toBig(v).toFixed(4);
  } catch {
    return null;
  }
}

function reference(field: string, body: unknown): string | null {
  if (!isObject(body)) return null;
  const v = body[field];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
