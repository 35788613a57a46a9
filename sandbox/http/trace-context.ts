/**
 * The W3C trace context the sandbox received, so that a test can see a gateway's backend call
 * carry the trace it belongs to (GET /sandbox/admin/trace-context). Only the last few are kept.
 */
export const KEPT_TRACE_CONTEXTS = 50;

export interface ReceivedTraceContext {
  method: string;
  /** The path, without its query. */
  path: string;
  traceparent: string;
  tracestate?: string;
  baggage?: string;
}

export class TraceContexts {
  readonly #kept: ReceivedTraceContext[] = [];

  /** Keeps the request's `traceparent` (with `tracestate` and `baggage`), when it sent one. */
  note(method: string, url: string, headers: Record<string, string | string[] | undefined>): void {
    const traceparent = headers['traceparent'];
    if (typeof traceparent !== 'string') return;
    const { tracestate, baggage } = headers;
    this.#kept.push({
      method,
      path: url.split('?')[0] ?? url,
      traceparent,
      ...(typeof tracestate === 'string' ? { tracestate } : {}),
      ...(typeof baggage === 'string' ? { baggage } : {}),
    });
    if (this.#kept.length > KEPT_TRACE_CONTEXTS) this.#kept.shift();
  }

  /** Oldest first. */
  list(): ReceivedTraceContext[] {
    return [...this.#kept];
  }

  clear(): void {
    this.#kept.length = 0;
  }
}
