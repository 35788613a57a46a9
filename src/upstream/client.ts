/**
 * The undici client of the backend's internal API: raw shapes in, validated data or ApiError out.
 *
 * Every call has a whole-call deadline (retries and their waits included), a bounded response
 * size, the request id passed through and the acting user named explicitly. The answer is never
 * trusted: a body that is not JSON, not the envelope, or whose data fails its schema becomes
 * `INTERNAL` (logged with the request id), never a crash or a wrong shape.
 *
 * Backend trouble (docs/operations.md, "When the backend fails"):
 * - connecting is bounded by the agent, and the whole call, headers and body included, by one
 *   deadline (UPSTREAM_TIMEOUT_MS; the Deadline of exchange.ts);
 * - GETs are retried a few times on connection errors and 502/503/504, with a small jittered
 *   backoff, inside that deadline; POSTs never are (resilience/retry.ts);
 * - a circuit breaker answers fast while the backend is down (resilience/breaker.ts);
 * - identical public reads in flight together share one backend call (`shared: true`,
 *   resilience/single-flight.ts);
 * - every backend request is measured (openpm_upstream_request_duration_seconds).
 */
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { ApiError } from '../errors/api-error.ts';
import { endpointTemplate } from '../metrics/metrics.ts';
import { ErrorEnvelope, UPSTREAM_HEADERS } from './internal-api.ts';
import { logLevelOf, mapUpstreamError } from './errors.ts';
import { CircuitBreaker, CircuitOpenError, type BreakerState, type Ticket, type Transition } from './resilience/breaker.ts';
import { DEFAULT_BACKOFF, RETRY_STATUSES, backoffMs, isRetryableError, sleepUnless, type BackoffOptions } from './resilience/retry.ts';
import { SingleFlight } from './resilience/single-flight.ts';
import { Deadline, exchange } from './exchange.ts';
import { addUpstreamMs } from './timing.ts';

export interface UpstreamLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  /** Optional: routine events (the breaker closing). */
  info?(obj: object, msg: string): void;
  /** Optional: per-request detail (a call joining a shared one); off at the default level. */
  debug?(obj: object, msg: string): void;
}

export type UpstreamOutcome = 'ok' | 'error' | 'failed';

/** Where backend calls are measured (src/metrics/metrics.ts's Metrics fits). */
export interface UpstreamMetrics {
  upstream(endpoint: string, method: string, outcome: UpstreamOutcome, seconds: number): void;
}

export interface BreakerSettings {
  /** Consecutive failed calls that open the breaker; 0 disables it. */
  threshold: number;
  /** How long it stays open before one probe is let through. */
  cooldownMs: number;
  /** The failures of one streak must fall within this long of its first (default 10 s). */
  windowMs?: number;
}

export interface UpstreamOptions {
  baseUrl: string;
  serviceToken: string;
  /** Whole-call budget (connect, headers and body, every retry and wait included). */
  timeoutMs: number;
  connectTimeoutMs: number;
  connections: number;
  maxResponseBytes: number;
  /** Tests may inject a dispatcher (or undici's global one, which nock intercepts). */
  dispatcher?: Dispatcher;
  /** Extra attempts of a GET after a connection error or 502/503/504 (default 2). */
  retries?: number;
  /** Default: 5 failures, 5 s cool-down, 10 s window. */
  breaker?: BreakerSettings;
  metrics?: UpstreamMetrics;
  /** Backoff between GET attempts (tests shorten it or fix its jitter). */
  backoff?: Partial<BackoffOptions>;
  /** Clock of the breaker (tests). */
  now?: () => number;
}

export interface CallContext {
  requestId: string;
  /** The key owner the call acts for, sent as X-Acting-User (unless the call is `shared`). */
  actingUser?: string;
  log: UpstreamLogger;
}

export interface CallOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  idempotencyKey?: string;
  /** Schema of `data` in a successful envelope. */
  schema: S;
  /**
   * Called when a write's answer carries `Idempotent-Replayed: true`: the backend performed
   * nothing and answered the stored outcome of an earlier call with the same Idempotency-Key.
   */
  onIdempotentReplay?: () => void;
  /**
   * The answer does not depend on who asks (a public read). The call is sent without
   * X-Acting-User, and identical calls (method, path and query) in flight at the same time
   * share one backend request, made with the first caller's request id. GET only: ignored on
   * a POST.
   */
  shared?: boolean;
}

/** Raised inside the client for an answer that breaks the internal API's shape. */
class MalformedAnswer extends Error {
  override name = 'MalformedAnswer';
}

/** What came back from the backend, before the envelope is read for a caller. */
interface RawAnswer {
  status: number;
  payload: unknown;
  /** Duration of the attempt that produced it. */
  seconds: number;
  /** The backend said the answer is a stored one (Idempotent-Replayed: true). */
  replayed: boolean;
}

interface Outgoing {
  method: 'GET' | 'POST';
  /** Path and query string, under the backend's origin. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  endpoint: string;
  where: Record<string, unknown>;
}

export const DEFAULT_RETRIES = 2;
export const DEFAULT_BREAKER: Required<BreakerSettings> = { threshold: 5, cooldownMs: 5_000, windowMs: 10_000 };

export class UpstreamClient {
  readonly #opts: UpstreamOptions;
  readonly #base: Base;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #retries: number;
  readonly #backoff: BackoffOptions;
  readonly #breaker: CircuitBreaker;
  readonly #flights = new SingleFlight<RawAnswer>();

  constructor(opts: UpstreamOptions) {
    this.#opts = opts;
    this.#base = parseBase(opts.baseUrl);
    this.#ownsDispatcher = opts.dispatcher === undefined;
    this.#dispatcher =
      opts.dispatcher ??
      new Agent({
        connections: opts.connections,
        // Connecting is bounded on its own; the wait for headers and body only by the whole-call
        // deadline, which starts first and lasts as long, so undici's timers of the same length
        // could never fire first. Off, each answer no longer leaves a timer in undici's timer
        // wheel until its next tick (up to a second): one object per request promoted to the
        // old generation, and more frequent full collections (docs/performance.md, kept optimisations).
        connect: { timeout: Math.min(opts.connectTimeoutMs, opts.timeoutMs) },
        headersTimeout: 0,
        bodyTimeout: 0,
        maxResponseSize: opts.maxResponseBytes,
        // The backend speaks HTTP/1.1 inside the cluster; keep undici 8 from negotiating h2.
        allowH2: false,
      });
    this.#retries = Math.max(0, opts.retries ?? DEFAULT_RETRIES);
    this.#backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    const b = { ...DEFAULT_BREAKER, ...opts.breaker };
    this.#breaker = new CircuitBreaker({
      threshold: b.threshold,
      cooldownMs: b.cooldownMs,
      windowMs: b.windowMs,
      probeTimeoutMs: opts.timeoutMs + 1_000,
      now: opts.now,
    });
  }

  /** The breaker's state (closed, open, half-open), for tests and diagnostics. */
  get breakerState(): BreakerState {
    return this.#breaker.state;
  }

  /** One backend call; its whole duration (retries and a shared call's wait included) counts toward Server-Timing. */
  async call<S extends z.ZodType>(ctx: CallContext, opts: CallOptions<S>): Promise<z.infer<S>> {
    const started = performance.now();
    try {
      return await this.#call(ctx, opts);
    } finally {
      addUpstreamMs(performance.now() - started);
    }
  }

  async #call<S extends z.ZodType>(ctx: CallContext, opts: CallOptions<S>): Promise<z.infer<S>> {
    const method = opts.method ?? 'GET';
    const shared = opts.shared === true && method === 'GET';
    const path = pathWithQuery(this.#base, opts.path, opts.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      [UPSTREAM_HEADERS.serviceToken]: this.#opts.serviceToken,
      [UPSTREAM_HEADERS.requestId]: ctx.requestId,
    };
    if (ctx.actingUser !== undefined && !shared) headers[UPSTREAM_HEADERS.actingUser] = ctx.actingUser;
    if (opts.idempotencyKey !== undefined) headers[UPSTREAM_HEADERS.idempotencyKey] = opts.idempotencyKey;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const where: Record<string, unknown> = {
      upstream: { method, path: opts.path, ...(shared ? { shared: true } : {}) },
      reqId: ctx.requestId,
    };
    const out: Outgoing = { method, path, headers, body, endpoint: endpointTemplate(opts.path), where };
    // A page asked for at most `limit` items holds no more (the backend is not trusted to page).
    const maxItems = typeof opts.query?.['limit'] === 'number' ? opts.query['limit'] : undefined;

    if (!shared) {
      const raw = await this.#send(ctx, out);
      const data = this.#read(ctx, where, method, maxItems, opts.schema, raw, out);
      if (raw.replayed) {
        (ctx.log.info ?? ctx.log.warn).call(ctx.log, where, 'upstream answered an idempotent replay');
        opts.onIdempotentReplay?.();
      }
      return data;
    }

    const flight = this.#flights.run(coalesceKey(method, path), ctx.requestId, () => this.#send(ctx, out));
    if (!flight.joined) return this.#read(ctx, where, method, maxItems, opts.schema, await flight.promise, out);
    // Joining is the normal case of a busy public read, so it is a debug line: at info it was a
    // log line per coalesced request, which is what coalescing exists to save.
    ctx.log.debug?.({ ...where, sharedWith: flight.leader }, 'upstream call shared with an identical one in flight');
    // Each caller reads (and validates) the shared answer for itself, so no two callers ever
    // hold the same objects; only the leader measures the call.
    return this.#read(ctx, where, method, maxItems, opts.schema, await flight.promise, null);
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /** One backend request, retried when that is safe, through the breaker, inside one deadline. */
  async #send(ctx: CallContext, out: Outgoing): Promise<RawAnswer> {
    const admission = this.#breaker.admit();
    this.#logTransition(ctx, admission.transition);
    const ticket = admission.ticket;
    if (ticket === null) throw new ApiError('INTERNAL', { cause: new CircuitOpenError() });

    // The whole-call deadline is a timer cleared when the call ends. AbortSignal.timeout() would
    // leave every call's timer to fire later, on a signal nobody listens to any more: measured
    // as a few percent of an owner read's CPU (docs/performance.md, kept optimisations).
    const deadline = new Deadline(this.#opts.timeoutMs);
    try {
      return await this.#attempts(ctx, out, ticket, deadline);
    } finally {
      deadline.clear();
    }
  }

  async #attempts(ctx: CallContext, out: Outgoing, ticket: Ticket, deadline: Deadline): Promise<RawAnswer> {
    const { method, path, headers, body, where } = out;
    const origin = this.#base.origin;
    const idempotent = method === 'GET';
    for (let attempt = 0; ; attempt += 1) {
      const started = performance.now();
      let answeredAt: number | null = null;
      const seconds = () => ((answeredAt ?? performance.now()) - started) / 1000;
      const retryable = idempotent && attempt < this.#retries;
      let status: number;
      let text: string;
      let replayed: boolean;
      try {
        const res = await exchange(this.#dispatcher, { origin, path, method, headers, body }, deadline);
        status = res.status;
        replayed = String(res.headers[UPSTREAM_HEADERS.idempotentReplayed] ?? '').toLowerCase() === 'true';
        text = res.text;
        answeredAt = performance.now();
      } catch (err) {
        this.#measure(out, 'failed', seconds());
        if (retryable && isRetryableError(err)) {
          const wait = this.#waitBeforeRetry(attempt, deadline.at);
          if (wait !== null) {
            ctx.log.warn(
              { ...where, attempt: attempt + 1, err: describeTransportError(err), retryInMs: wait },
              'upstream call failed; retrying',
            );
            if (await sleepUnless(wait, deadline)) continue;
          }
        }
        this.#report(ctx, ticket, false);
        ctx.log.error({ ...where, attempts: attempt + 1, err: describeTransportError(err) }, 'upstream call failed');
        throw new ApiError('INTERNAL', { cause: err });
      }

      let payload: unknown;
      let malformed = false;
      try {
        payload = text === '' ? undefined : JSON.parse(text);
      } catch {
        malformed = true;
      }

      // A retryable status is retried only when no healthy backend answered it: a 503 carrying
      // one of its business codes ("busy") is an answer, and asking again would triple its load.
      if (retryable && RETRY_STATUSES.has(status) && isBackendFailure(status, payload)) {
        const wait = this.#waitBeforeRetry(attempt, deadline.at);
        if (wait !== null) {
          const took = seconds();
          ctx.log.warn({ ...where, attempt: attempt + 1, status, retryInMs: wait }, 'upstream answered a retryable status; retrying');
          if (await sleepUnless(wait, deadline)) {
            this.#measure(out, 'failed', took);
            continue;
          }
          // The deadline fired while waiting: this last answer is the call's answer.
        }
      }

      if (malformed) {
        this.#measure(out, 'failed', seconds());
        this.#report(ctx, ticket, status < 500);
        const err = new MalformedAnswer(`non-JSON body with HTTP ${status}`);
        ctx.log.error({ ...where, err: err.message }, 'upstream answer malformed');
        throw new ApiError('INTERNAL', { cause: err });
      }
      this.#report(ctx, ticket, !isBackendFailure(status, payload));
      return { status, payload, seconds: seconds(), replayed };
    }
  }

  /** The caller's reading of an answer: its data, validated, or the mapped error. */
  #read<S extends z.ZodType>(
    ctx: CallContext,
    where: Record<string, unknown>,
    method: 'GET' | 'POST',
    maxItems: number | undefined,
    schema: S,
    raw: RawAnswer,
    measured: Outgoing | null,
  ): z.infer<S> {
    const { status, payload } = raw;
    const envelope = payload as { errCode?: unknown } | undefined;
    if (envelope !== null && typeof envelope === 'object' && envelope.errCode !== 0) {
      const parsed = ErrorEnvelope.safeParse(envelope);
      if (parsed.success) {
        const mapped = mapUpstreamError(parsed.data.errCode, method);
        const internal = mapped.code === 'INTERNAL';
        if (measured !== null) this.#measure(measured, internal ? 'failed' : 'error', raw.seconds);
        // errMsg is for our logs only: it never reaches an API caller.
        const line = { ...where, status, errCode: parsed.data.errCode, errMsg: parsed.data.errMsg };
        const level = logLevelOf(mapped);
        if (level === 'error') ctx.log.error(line, 'upstream error');
        else if (level === 'warn') ctx.log.warn(line, 'upstream error');
        else if (level === 'info') (ctx.log.info ?? ctx.log.warn).call(ctx.log, line, 'upstream error');
        else ctx.log.debug?.(line, 'upstream error');
        throw mapped;
      }
    }
    const data = (envelope as { data?: unknown } | undefined)?.data;
    const parsed = schema.safeParse(data);
    const overlong = parsed.success && maxItems !== undefined && itemCount(parsed.data) > maxItems;
    if (status < 200 || status >= 300 || envelope?.errCode !== 0 || !parsed.success || overlong) {
      if (measured !== null) this.#measure(measured, 'failed', raw.seconds);
      ctx.log.error(
        {
          ...where,
          status,
          issues: parsed.success ? undefined : parsed.error.issues.slice(0, 5),
          ...(overlong ? { items: itemCount(parsed.data), limit: maxItems } : {}),
        },
        'upstream answer failed validation',
      );
      throw new ApiError('INTERNAL');
    }
    if (measured !== null) this.#measure(measured, 'ok', raw.seconds);
    return parsed.data;
  }

  /** Milliseconds to wait before another attempt, or null when the deadline leaves no room. */
  #waitBeforeRetry(attempt: number, deadlineAt: number): number | null {
    const wait = backoffMs(attempt, this.#backoff);
    // Another attempt is only worth it with a fair share of the budget left after the wait.
    const minAttemptMs = Math.min(100, this.#opts.timeoutMs / 4);
    return deadlineAt - performance.now() - wait >= minAttemptMs ? wait : null;
  }

  #report(ctx: CallContext, ticket: Ticket, ok: boolean): void {
    this.#logTransition(ctx, ok ? this.#breaker.success(ticket) : this.#breaker.failure(ticket));
  }

  #logTransition(ctx: CallContext, t: Transition | null): void {
    if (t === null) return;
    const obj = { upstream: { breaker: t.to, from: t.from }, reqId: ctx.requestId };
    if (t.to === 'open') {
      const b = { ...DEFAULT_BREAKER, ...this.#opts.breaker };
      ctx.log.error(
        { ...obj, failures: t.from === 'closed' ? t.failures : undefined, cooldownMs: b.cooldownMs },
        t.from === 'closed'
          ? 'upstream circuit opened: backend calls refused during the cool-down'
          : 'upstream probe failed: circuit open again',
      );
    } else if (t.to === 'half-open') {
      ctx.log.warn(obj, 'upstream circuit half-open: one probe call let through');
    } else {
      (ctx.log.info ?? ctx.log.warn).call(ctx.log, obj, 'upstream circuit closed: backend answering again');
    }
  }

  #measure(out: Outgoing, outcome: UpstreamOutcome, seconds: number): void {
    this.#opts.metrics?.upstream(out.endpoint, out.method, outcome, seconds);
  }
}

/**
 * Whether an answer says the backend itself is in trouble (counts against the breaker): a 5xx
 * that is not one of its business errors. A known error code (not found, busy, …) is a
 * healthy backend answering, whatever the status.
 */
function isBackendFailure(status: number, payload: unknown): boolean {
  if (status < 500) return false;
  const parsed = ErrorEnvelope.safeParse(payload);
  return !parsed.success || parsed.data.errCode === 0 || mapUpstreamError(parsed.data.errCode).code === 'INTERNAL';
}

/** The length of a page's `items`, or 0 for an answer that is not a page. */
function itemCount(data: unknown): number {
  const items = (data as { items?: unknown } | null | undefined)?.items;
  return Array.isArray(items) ? items.length : 0;
}

function coalesceKey(method: string, path: string): string {
  const u = new URL(path, 'http://backend');
  u.searchParams.sort();
  return `${method} ${u.pathname}?${u.searchParams.toString()}`;
}

/** The backend's base URL, parsed once: its origin and its path without a trailing slash. */
interface Base {
  origin: string;
  path: string;
}

function parseBase(baseUrl: string): Base {
  const u = new URL(baseUrl);
  return { origin: u.origin, path: u.pathname.replace(/\/$/, '') };
}

/** The request target under the backend's origin: its base path, the call's path, the query. */
function pathWithQuery(base: Base, path: string, query: CallOptions<z.ZodType>['query']): string {
  // `new URL('/internal/..', base)` would drop a base path; keep it by joining explicitly.
  const url = new URL(`${base.path}${path}`, base.origin);
  if (query) {
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
  }
  return `${url.pathname}${url.search}`;
}

function describeTransportError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${err.name} ${code}` : `${err.name}: ${err.message}`;
  }
  return String(err);
}
