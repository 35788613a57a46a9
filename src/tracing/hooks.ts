/**
 * The seams through which tracing reaches the request path, empty until ./sdk.ts fills them: with
 * tracing off, an operation runs with one null check more and logs carry no trace fields, and
 * no OpenTelemetry package is ever loaded.
 */

/** What an operation's span records of the call (the pipeline's Invocation has all of it). */
export interface TracedCall {
  surface: 'rest' | 'mcp';
  caller: { keyId: string };
  requestId: string;
  /** W3C trace context received outside HTTP headers (MCP's params._meta): the span's parent. */
  traceCarrier?: Readonly<Record<string, string>>;
  mcpProtocolVersion?: string;
}

/** Runs one operation call inside its span (./operation-span.ts). */
export type OperationTracer = <T>(operation: string, call: TracedCall, run: () => Promise<T>) => Promise<T>;

/** `trace_id` and `span_id` of the active span, for a log line. */
export type TraceLogFields = () => { trace_id?: string; span_id?: string };

let operationTracer: OperationTracer | null = null;
let traceLogFields: TraceLogFields | null = null;

export function installTracingHooks(hooks: { operation: OperationTracer; logFields: TraceLogFields }): void {
  operationTracer = hooks.operation;
  traceLogFields = hooks.logFields;
}

/** The operation tracer, or null while tracing is off. */
export function currentOperationTracer(): OperationTracer | null {
  return operationTracer;
}

/** The log-line fields of the active span, or null while tracing is off (no pino mixin then). */
export function currentTraceLogFields(): TraceLogFields | null {
  return traceLogFields;
}
