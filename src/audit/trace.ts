import { currentTraceLogFields } from '../tracing/hooks.ts';

/**
 * The trace id an audit record carries: with tracing on, the active span's (the operation span,
 * which continues the caller's trace or starts one); with tracing off, the one the caller sent as
 * W3C trace context (MCP's `params._meta.traceparent`, else the HTTP `traceparent` header), or null.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}(?:-.*)?$/;

export function traceIdOf(call: { traceCarrier?: Readonly<Record<string, string>>; traceparent?: string }): string | null {
  const active = currentTraceLogFields()?.().trace_id;
  if (active !== undefined) return active;
  return traceIdIn(call.traceCarrier?.['traceparent']) ?? traceIdIn(call.traceparent);
}

/** The trace id of a traceparent value; null when malformed, version ff, or all zeros (invalid per W3C). */
export function traceIdIn(traceparent: string | undefined): string | null {
  if (traceparent === undefined) return null;
  const m = TRACEPARENT.exec(traceparent.trim());
  if (m === null || m[1] === 'ff') return null;
  const id = m[2] as string;
  return /^0+$/.test(id) ? null : id;
}
