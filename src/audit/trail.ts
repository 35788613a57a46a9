/**
 * The audit trail of a replica (docs/audit.md): every record goes, synchronously, to the
 * JSON-lines sink, then to the store that answers queries (the fleet's Redis Stream, or memory).
 * The store is best effort: a record it does not take is counted and logged, never an error of
 * the request.
 *
 * An execution attempt is followed by an AuditAttempt, which writes its one record at the first
 * of: the backend's answer to the action (so a record exists whatever fails after it), the
 * pipeline's answer, or the pipeline's error.
 */
import type { TokenClaims } from '../confirm/token.ts';
import type { Metrics } from '../metrics/metrics.ts';
import {
  type AttemptCall,
  type AuditOutcome,
  type AuditRecord,
  type OperationAudit,
  answeredOutcome,
  errorOutcome,
  executionRecord,
} from './record.ts';
import type { AuditSink } from './sink.ts';
import type { AuditQuery, AuditStore } from './store.ts';

export interface AuditLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface AuditTrailOptions {
  sink: AuditSink;
  store: AuditStore;
  metrics: Pick<Metrics, 'auditRecord' | 'auditStreamFailure'>;
  log: AuditLogger;
  now: () => number;
}

/** What the execution itself reports to its attempt (src/confirm/execute-once.ts calls it). */
export interface ExecutionTrail {
  /** The confirm token verified: its id and bound parameters. */
  verified(claims: TokenClaims): void;
  /** The action is being run (the backend is asked): an error from here on may hide a success. */
  running(): void;
  /** The backend answered the action: performed now, or the replay of an earlier call. */
  performed(body: unknown, byBackendReplay: boolean): void;
}

export class AuditTrail {
  readonly #opts: AuditTrailOptions;

  constructor(opts: AuditTrailOptions) {
    this.#opts = opts;
  }

  get storeKind(): AuditStore['kind'] {
    return this.#opts.store.kind;
  }

  now(): number {
    return this.#opts.now();
  }

  attempt(spec: OperationAudit, call: AttemptCall): AuditAttempt {
    return new AuditAttempt(this, spec, call);
  }

  /** Zero series for these actions, so dashboards and alerts see them before the first record. */
  declare(actions: readonly string[]): void {
    for (const action of actions) {
      for (const outcome of ['executed', 'replayed', 'refused', 'failed'] as const) this.#opts.metrics.auditRecord(action, outcome, 0);
    }
  }

  write(record: AuditRecord): void {
    const { sink, store, metrics, log } = this.#opts;
    try {
      sink.write(`${JSON.stringify(record)}\n`);
    } catch (err) {
      log.error({ err: (err as Error).message, audit: record }, 'audit record not written to the trail');
    }
    metrics.auditRecord(record.action, record.outcome);
    store.append(record).catch((err: unknown) => {
      metrics.auditStreamFailure();
      log.warn({ err: (err as Error).message, action: record.action, requestId: record.request_id }, 'audit stream append failed');
    });
  }

  query(q: AuditQuery): Promise<AuditRecord[]> {
    return this.#opts.store.query(q);
  }

  close(): void {
    this.#opts.sink.close();
  }
}

/** One execution attempt: exactly one record, written at the first thing that settles it. */
export class AuditAttempt implements ExecutionTrail {
  readonly #trail: AuditTrail;
  readonly #spec: OperationAudit;
  readonly #call: AttemptCall;
  #claims: TokenClaims | null = null;
  #running = false;
  #written = false;

  constructor(trail: AuditTrail, spec: OperationAudit, call: AttemptCall) {
    this.#trail = trail;
    this.#spec = spec;
    this.#call = call;
  }

  verified(claims: TokenClaims): void {
    this.#claims = claims;
  }

  running(): void {
    this.#running = true;
  }

  performed(body: unknown, byBackendReplay: boolean): void {
    this.#write(byBackendReplay ? 'replayed' : 'executed', null, body);
  }

  answered(body: unknown): void {
    this.#write(answeredOutcome(body), null, body);
  }

  failed(error: { status: number; code: string }): void {
    this.#write(errorOutcome(error.status, this.#running), error.code, null);
  }

  #write(outcome: AuditOutcome, errorCode: string | null, body: unknown): void {
    if (this.#written) return;
    this.#written = true;
    this.#trail.write(executionRecord(this.#spec, this.#call, { time: this.#trail.now(), claims: this.#claims, outcome, errorCode, body }));
  }
}
