/**
 * The seams through which tracing reaches the request path, empty until ./sdk.ts fills them: with
 * tracing off, an operation runs with one null check more and logs carry no trace fields, and
 * no OpenTelemetry package is ever loaded.
 */
import type { Invocation, Invoked } from '../operations/invoke.ts';

/** Runs one operation call inside its span (./operation-span.ts). */
export type OperationTracer = (operation: string, call: Invocation, run: () => Promise<Invoked>) => Promise<Invoked>;

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
