/**
 * One span per operation call, made in the shared pipeline (src/operations/invoke.ts) so that
 * REST and MCP calls are traced alike (docs/operations.md#tracing):
 *
 * - REST: an INTERNAL span named after the operation (`get_topic`), child of the HTTP server span;
 * - MCP: a SERVER span `tools/call <tool>` with the MCP semantic conventions' attributes
 *   (`mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name`, `mcp.protocol.version`;
 *   no `mcp.session.id`: the server keeps no session). Its parent is the trace context the
 *   client put in `params._meta` when there is one, the HTTP span otherwise; with a `_meta`
 *   parent, the HTTP span is linked, so the request that carried the call stays one click away.
 *
 * A refused call carries `openpm.error.code` and `error.type` (the contract's code); its status
 * is ERROR by the rule that makes its answer a 5xx. A 4xx is the caller's doing: status left
 * UNSET, as the HTTP conventions ask of server spans. Only the key id names the caller.
 */
import {
  context,
  type Context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { ApiError } from '../errors/api-error.ts';
import type { OperationTracer, TraceLogFields } from './hooks.ts';

/** A `_meta` carrier read by the W3C trace-context propagator (`traceparent`, `tracestate`). */
const carrierGetter = {
  keys: (carrier: Readonly<Record<string, string>>) => Object.keys(carrier),
  get: (carrier: Readonly<Record<string, string>>, key: string) => carrier[key],
};

export function operationTracer(tracer: Tracer): OperationTracer {
  return async (operation, call, run) => {
    const active = context.active();
    let parent: Context = active;
    const links: Link[] = [];
    if (call.traceCarrier !== undefined) {
      const remote = propagation.extract(ROOT_CONTEXT, call.traceCarrier, carrierGetter);
      const remoteSpan = trace.getSpanContext(remote);
      if (remoteSpan !== undefined && trace.isSpanContextValid(remoteSpan)) {
        parent = remote;
        const http = trace.getSpanContext(active);
        if (http !== undefined && trace.isSpanContextValid(http)) links.push({ context: http });
      }
    }
    const mcp = call.surface === 'mcp';
    const span = tracer.startSpan(
      mcp ? `tools/call ${operation}` : operation,
      {
        kind: mcp ? SpanKind.SERVER : SpanKind.INTERNAL,
        links,
        attributes: {
          'openpm.operation': operation,
          'openpm.surface': call.surface,
          'openpm.key_id': call.caller.keyId,
          'openpm.request_id': call.requestId,
          ...(mcp
            ? {
                'mcp.method.name': 'tools/call',
                'gen_ai.tool.name': operation,
                'gen_ai.operation.name': 'execute_tool',
                ...(call.mcpProtocolVersion === undefined ? {} : { 'mcp.protocol.version': call.mcpProtocolVersion }),
              }
            : {}),
        },
      },
      parent,
    );
    try {
      return await context.with(trace.setSpan(parent, span), run);
    } catch (err) {
      recordRefusal(span, err);
      throw err;
    } finally {
      span.end();
    }
  };
}

/** The contract's code on the span; ERROR status only for what the gateway or backend failed at (5xx). */
export function recordRefusal(span: Span, err: unknown): void {
  if (!(err instanceof ApiError)) {
    span.setAttribute('error.type', err instanceof Error ? err.name : 'unknown');
    span.setStatus({ code: SpanStatusCode.ERROR });
    return;
  }
  span.setAttributes({ 'openpm.error.code': err.code, 'error.type': err.code, 'openpm.status': err.status });
  if (err.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: err.code });
}

/** pino mixin: the ids of the span active when a line is logged. */
export const traceLogFields: TraceLogFields = () => {
  const ctx = trace.getActiveSpan()?.spanContext();
  if (ctx === undefined || !trace.isSpanContextValid(ctx)) return {};
  return { trace_id: ctx.traceId, span_id: ctx.spanId };
};
