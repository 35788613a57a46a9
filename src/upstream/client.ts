/**
 * The undici client of the backend's internal API: raw shapes in, validated data or ApiError out.
 *
 * Every call has a whole-call deadline, a bounded response size, the request id passed through
 * and the acting user named explicitly. The answer is never trusted: a body that is not JSON,
 * not the envelope, or whose data fails its schema becomes `INTERNAL` (logged with the request
 * id), never a crash or a wrong shape.
 */
import { Agent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { ApiError } from '../errors/api-error.ts';
import { ErrorEnvelope, UPSTREAM_HEADERS } from './internal-api.ts';
import { mapUpstreamError } from './errors.ts';

export interface UpstreamLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface UpstreamOptions {
  baseUrl: string;
  serviceToken: string;
  /** Whole-call budget (connect, headers and body). */
  timeoutMs: number;
  connectTimeoutMs: number;
  connections: number;
  maxResponseBytes: number;
  /** Tests may inject a dispatcher (or undici's global one, which nock intercepts). */
  dispatcher?: Dispatcher;
}

export interface CallContext {
  requestId: string;
  /** The key owner the call acts for, sent as X-Acting-User. */
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
}

/** Raised inside the client for an answer that breaks the internal API's shape. */
class MalformedAnswer extends Error {
  override name = 'MalformedAnswer';
}

export class UpstreamClient {
  readonly #opts: UpstreamOptions;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;

  constructor(opts: UpstreamOptions) {
    this.#opts = opts;
    this.#ownsDispatcher = opts.dispatcher === undefined;
    this.#dispatcher =
      opts.dispatcher ??
      new Agent({
        connections: opts.connections,
        connect: { timeout: opts.connectTimeoutMs },
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
        maxResponseSize: opts.maxResponseBytes,
        // The backend speaks HTTP/1.1 inside the cluster; keep undici 8 from negotiating h2.
        allowH2: false,
      });
  }

  async call<S extends z.ZodType>(ctx: CallContext, opts: CallOptions<S>): Promise<z.infer<S>> {
    const method = opts.method ?? 'GET';
    const url = buildUrl(this.#opts.baseUrl, opts.path, opts.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      [UPSTREAM_HEADERS.serviceToken]: this.#opts.serviceToken,
      [UPSTREAM_HEADERS.requestId]: ctx.requestId,
    };
    if (ctx.actingUser !== undefined) headers[UPSTREAM_HEADERS.actingUser] = ctx.actingUser;
    if (opts.idempotencyKey !== undefined) headers[UPSTREAM_HEADERS.idempotencyKey] = opts.idempotencyKey;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const where = { upstream: { method, path: opts.path }, reqId: ctx.requestId };

    let status: number;
    let payload: unknown;
    try {
      const res = await request(url, {
        method,
        headers,
        body,
        dispatcher: this.#dispatcher,
        signal: AbortSignal.timeout(this.#opts.timeoutMs),
      });
      status = res.statusCode;
      const text = await res.body.text();
      try {
        payload = text === '' ? undefined : JSON.parse(text);
      } catch {
        throw new MalformedAnswer(`non-JSON body with HTTP ${status}`);
      }
    } catch (err) {
      if (err instanceof MalformedAnswer) {
        ctx.log.error({ ...where, err: err.message }, 'upstream answer malformed');
      } else {
        ctx.log.error({ ...where, err: describeTransportError(err) }, 'upstream call failed');
      }
      throw new ApiError('INTERNAL', { cause: err });
    }

    const envelope = payload as { errCode?: unknown } | undefined;
    if (envelope !== null && typeof envelope === 'object' && envelope.errCode !== 0) {
      const parsed = ErrorEnvelope.safeParse(envelope);
      if (parsed.success) {
        const mapped = mapUpstreamError(parsed.data.errCode);
        const log = mapped.code === 'INTERNAL' ? ctx.log.error.bind(ctx.log) : ctx.log.warn.bind(ctx.log);
        // errMsg is for our logs only: it never reaches an API caller.
        log({ ...where, status, errCode: parsed.data.errCode, errMsg: parsed.data.errMsg }, 'upstream error');
        throw mapped;
      }
    }
    const data = (envelope as { data?: unknown } | undefined)?.data;
    const parsed = opts.schema.safeParse(data);
    if (status < 200 || status >= 300 || envelope?.errCode !== 0 || !parsed.success) {
      ctx.log.error(
        { ...where, status, issues: parsed.success ? undefined : parsed.error.issues.slice(0, 5) },
        'upstream answer failed validation',
      );
      throw new ApiError('INTERNAL');
    }
    return parsed.data;
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }
}

function buildUrl(base: string, path: string, query: CallOptions<z.ZodType>['query']): string {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  // `new URL('/internal/..', base)` would drop a base path; keep it by joining explicitly.
  url.pathname = `${new URL(base).pathname.replace(/\/$/, '')}${path}`;
  if (query) {
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
  }
  return url.toString();
}

function describeTransportError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${err.name} ${code}` : `${err.name}: ${err.message}`;
  }
  return String(err);
}
