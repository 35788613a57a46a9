/**
 * The one invocation pipeline: every call of an operation, from REST or MCP, single or one of a
 * JSON-RPC batch, passes the same gates in the same order, so no surface can skip one.
 *
 *   1. per-key limits: one unit of the operation's declared limit class (refused: 429, nothing
 *      consumed); counted before anything else, so every call counts whatever its outcome;
 *   2. scope (403 FORBIDDEN_SCOPE);
 *   3. the writes kill switch (503 SERVICE_DISABLED for write operations);
 *   4. language: negotiated by REST from Accept-Language, or MCP's `language` argument folded;
 *   5. input validation with the operation's (strict) schema: 400 INVALID_ARGUMENT naming the
 *      field, or 404 for a malformed path id;
 *   6. execution, then per-operation metrics and, for failures, one log line; an operation that
 *      declares `audit` leaves one audit record per call, whatever its outcome (docs/audit.md).
 *
 * The surfaces only translate transport in (parameters, body, arguments) and errors out (the
 * REST envelope, an MCP `isError` result).
 */
import { hasScope, type Caller } from '../auth/caller.ts';
import { forbiddenScope } from '../auth/challenge.ts';
import { ApiError } from '../errors/api-error.ts';
import { toApiError } from '../errors/translate.ts';
import { foldLanguage } from '../i18n/fold.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../i18n/languages.ts';
import { rateLimited } from '../limits/decision.ts';
import type { LimitClass } from '../limits/windows.ts';
import type { Surface } from '../metrics/metrics.ts';
import type { Services } from '../services.ts';
import { currentOperationTracer } from '../tracing/hooks.ts';
import {
  limitClassOf,
  operationContext,
  operationDeps,
  takesLanguage,
  type Operation,
  type OperationDeps,
  type OperationLogger,
} from './operation.ts';
import { validateInput } from './validate-input.ts';
import type { AuditAttempt } from '../audit/trail.ts';
import { traceIdOf } from '../audit/trace.ts';
import { writesDisabled } from './writes-gate.ts';

/** Who calls, from where: what a surface knows of one call besides its raw input. */
export interface Invocation {
  caller: Caller;
  requestId: string;
  log: OperationLogger;
  surface: Exclude<Surface, 'other'>;
  /** REST passes the language negotiated from Accept-Language; MCP reads the `language` argument. */
  language: Language | 'argument';
  /** Receives the X-RateLimit-* headers once the call is counted (REST sets them on the reply). */
  onMetered?: (headers: Record<string, string>) => void;
  /**
   * The limits refused the call (429, nothing consumed); receives the refusal's headers. MCP
   * needs to know: a refused call is still a message that met the limits, not one left uncounted.
   */
  onRefused?: (headers: Record<string, string>) => void;
  /** W3C trace context (traceparent, tracestate, baggage) a surface received outside HTTP headers: MCP's params._meta. */
  traceCarrier?: Readonly<Record<string, string>>;
  /** The MCP protocol revision of the request, when the surface knows it (a span attribute). */
  mcpProtocolVersion?: string;
  /** How the user's confirmation of an execution was obtained: the confirm token alone, or also asked by the MCP client. */
  confirmation?: 'token' | 'client_elicitation';
  /** The HTTP request's W3C `traceparent` header, for the audit record's trace id (src/audit/trace.ts). */
  traceparent?: string;
}

export interface Invoked {
  status: number;
  body: unknown;
  /** The language the answer was written in (REST sends it as Content-Language). */
  lang: Language;
}

export type Pipeline = Pick<Invoker, 'invoke' | 'meter' | 'meterRefused'>;

export class Invoker {
  readonly #services: Services;
  readonly #deps: OperationDeps;

  constructor(services: Services) {
    this.#services = services;
    this.#deps = operationDeps(services);
  }

  /**
   * Count one unit of `cls` for the caller: the limit gate, also used by the MCP surface for
   * messages that are not operation calls (initialize, tools/list, an unknown tool) and by both
   * surfaces for requests whose body never reached the pipeline (unparseable, oversized).
   * Returns the X-RateLimit-* headers; throws 429 RATE_LIMITED when refused.
   */
  async meter(caller: Caller, cls: LimitClass): Promise<Record<string, string>> {
    const limiter = this.#services.limiter;
    if (limiter === null) return {};
    const decision = await limiter.check(caller.keyId, cls);
    if (decision === null) return {};
    if (!decision.allowed) throw rateLimited(decision);
    return decision.headers;
  }

  /**
   * `meter` for a request refused before any operation ran (an unreadable body, a misplaced
   * parameter, a refused batch): it counts all the same, and past the limit its answer is the
   * 429 instead, which consumed nothing; a store that cannot count leaves the request's own
   * answer standing (docs/contract/limits.md#counting). Both surfaces use it.
   */
  async meterRefused(caller: Caller, cls: LimitClass): Promise<Record<string, string>> {
    try {
      return await this.meter(caller, cls);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'RATE_LIMITED') throw err;
      return {};
    }
  }

  async invoke(op: Operation, raw: Record<string, unknown>, call: Invocation): Promise<Invoked> {
    // One span per call when tracing is on (src/tracing/operation-span.ts), so both surfaces get it.
    const tracer = currentOperationTracer();
    return tracer === null ? this.#invoke(op, raw, call) : tracer(op.name, call, () => this.#invoke(op, raw, call));
  }

  async #invoke(op: Operation, raw: Record<string, unknown>, call: Invocation): Promise<Invoked> {
    const started = performance.now();
    let outcome = 'ok';
    const attempt = this.#attempt(op, call);
    try {
      let headers: Record<string, string>;
      try {
        headers = await this.meter(call.caller, limitClassOf(op));
      } catch (err) {
        if (err instanceof ApiError && err.code === 'RATE_LIMITED') call.onRefused?.(err.headers);
        throw err;
      }
      call.onMetered?.(headers);
      if (!hasScope(call.caller, op.scope)) throw forbiddenScope(op.scope);
      if (op.scope === 'write' && writesDisabled(this.#services)) throw new ApiError('SERVICE_DISABLED');
      const lang = call.language === 'argument' ? languageArgument(op, raw) : call.language;
      const input = validateInput(op, raw, call.surface);
      const ctx = operationContext(this.#deps, this.#services.upstream, {
        operation: op.name,
        caller: call.caller,
        lang,
        requestId: call.requestId,
        log: call.log,
        ...(attempt !== null && { trail: attempt }),
      });
      const result = await op.execute(ctx, input);
      attempt?.answered(result.body);
      return { status: result.status ?? 200, body: result.body, lang };
    } catch (err) {
      const apiError = toApiError(err);
      attempt?.failed(apiError);
      outcome = apiError.code;
      if (apiError.code === 'INTERNAL') {
        call.log.error({ err: apiError.cause ?? err, operation: op.name, surface: call.surface }, 'operation failed');
      } else if (apiError.status >= 500) {
        call.log.warn({ code: apiError.code, operation: op.name, surface: call.surface }, 'operation refused');
      }
      throw apiError;
    } finally {
      this.#services.metrics.operation(op.name, call.surface, outcome, (performance.now() - started) / 1000);
    }
  }

  /** The audit attempt of a call of an operation that declares `audit`; null for the others. */
  #attempt(op: Operation, call: Invocation): AuditAttempt | null {
    if (op.audit === undefined) return null;
    return this.#services.audit.attempt(op.audit, {
      requestId: call.requestId,
      traceId: traceIdOf(call),
      surface: call.surface,
      keyId: call.caller.keyId,
      userId: call.caller.userId,
      confirmation: call.confirmation ?? 'token',
    });
  }
}

/**
 * MCP's `language` argument (docs/mcp.md): taken out of the arguments of a localised tool and
 * folded onto a supported code; anything else is refused naming the supported codes. A tool that
 * is not localised declares no `language`, so there it is an unknown argument like any other.
 */
function languageArgument(op: Operation, args: Record<string, unknown>): Language {
  if (!takesLanguage(op) || !('language' in args)) return DEFAULT_LANGUAGE;
  const raw = args['language'];
  delete args['language'];
  if (raw === undefined || raw === null) return DEFAULT_LANGUAGE;
  const folded = typeof raw === 'string' ? foldLanguage(raw) : null;
  if (folded === null) {
    throw new ApiError('INVALID_ARGUMENT', {
      message: `language: unsupported value; use one of ${LANGUAGES.join(', ')}.`,
      details: { field: 'language', supported: [...LANGUAGES] },
    });
  }
  return folded;
}
