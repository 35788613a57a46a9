/**
 * The operation span (src/tracing/operation-span.ts), recorded by an in-memory exporter: named
 * and parented per surface, the MCP conventions' attributes, the `_meta` parent with a link to
 * the HTTP span, a call under an unsampled HTTP span (no span, its trace id still carried on),
 * and refusals carrying the contract code with ERROR only for a 5xx.
 */
import { context, type Span, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { propagation } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/auth/caller.ts';
import { ApiError } from '../../src/errors/api-error.ts';
import type { Invocation, Invoked } from '../../src/operations/invoke.ts';
import { operationTracer, traceLogFields } from '../../src/tracing/operation-span.ts';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer('test');
const traced = operationTracer(tracer);
const manager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(manager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  context.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

const caller: Caller = { userId: 'u1', keyId: 'key_alice_read', keyHash: 'h'.repeat(64), scopes: new Set(['read']) };
const ok: Invoked = { status: 200, body: {}, lang: 'en' };
function call(over: Partial<Invocation> = {}): Invocation {
  return { caller, requestId: 'req-1', log: { error() {}, warn() {}, info() {} } as never, surface: 'rest', language: 'en', ...over };
}
/** Runs `fn` inside a stand-in for the HTTP server span. */
async function underHttp<T>(fn: (http: Span) => Promise<T>): Promise<T> {
  const http = tracer.startSpan('GET /open/v1/me', { kind: SpanKind.SERVER });
  try {
    return await context.with(trace.setSpan(context.active(), http), () => fn(http));
  } finally {
    http.end();
  }
}
const finished = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name);

describe('a REST call', () => {
  it('is an INTERNAL span named after the operation, child of the HTTP span, naming the key by its id', async () => {
    const http = await underHttp(async (h) => {
      await traced('get_my_profile', call(), async () => ok);
      return h;
    });
    const span = finished('get_my_profile');
    expect(span?.kind).toBe(SpanKind.INTERNAL);
    expect(span?.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
    expect(span?.attributes).toEqual({
      'openpm.operation': 'get_my_profile',
      'openpm.surface': 'rest',
      'openpm.key_id': 'key_alice_read',
      'openpm.request_id': 'req-1',
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('makes the span active while the operation runs (backend calls become its children, logs get its ids)', async () => {
    let seen: Record<string, string | undefined> = {};
    await traced('get_my_profile', call(), async () => {
      seen = traceLogFields();
      return ok;
    });
    const span = finished('get_my_profile');
    expect(seen).toEqual({ trace_id: span?.spanContext().traceId, span_id: span?.spanContext().spanId });
    expect(traceLogFields()).toEqual({});
  });
});

describe('a call its HTTP span left unsampled', () => {
  /** The HTTP span as the default parent-based sampler makes it under a caller's `-00` traceparent. */
  async function underUnsampledHttp<T>(fn: () => Promise<T>): Promise<T> {
    const remote = trace.setSpanContext(context.active(), {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.NONE,
      isRemote: true,
    });
    const http = tracer.startSpan('POST /mcp', { kind: SpanKind.SERVER }, remote);
    expect(http.isRecording()).toBe(false);
    return context.with(trace.setSpan(remote, http), fn);
  }

  it('makes no span, runs the operation under the HTTP span, and its trace id still reaches the backend', async () => {
    const carried: Record<string, string> = {};
    const result = await underUnsampledHttp(() =>
      traced('get_my_profile', call(), async () => {
        propagation.inject(context.active(), carried);
        return ok;
      }),
    );
    expect(result).toBe(ok);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(carried.traceparent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-00$/);
  });

  it('is still made for an MCP call whose _meta parent is sampled', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await underUnsampledHttp(() => traced('get_topic', call({ surface: 'mcp', traceCarrier: { traceparent } }), async () => ok));
    const span = finished('tools/call get_topic');
    expect(span?.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span?.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  });
});

describe('an MCP call', () => {
  const REMOTE = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };

  it('is a SERVER span `tools/call <tool>` parented on _meta, linked to the HTTP span', async () => {
    const http = await underHttp(async (h) => {
      await traced(
        'get_topic',
        call({
          surface: 'mcp',
          mcpProtocolVersion: '2026-07-28',
          traceCarrier: { traceparent: `00-${REMOTE.traceId}-${REMOTE.spanId}-01` },
        }),
        async () => ok,
      );
      return h;
    });
    const span = finished('tools/call get_topic');
    expect(span?.kind).toBe(SpanKind.SERVER);
    expect(span?.spanContext().traceId).toBe(REMOTE.traceId);
    expect(span?.parentSpanContext?.spanId).toBe(REMOTE.spanId);
    expect(span?.links.map((l) => l.context.spanId)).toEqual([http.spanContext().spanId]);
    expect(span?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_topic',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
    });
    expect(span?.attributes['mcp.session.id']).toBeUndefined();
  });

  it('stays under the HTTP span when _meta holds no valid trace context', async () => {
    const http = await underHttp(async (h) => {
      await traced('get_topic', call({ surface: 'mcp', traceCarrier: { traceparent: 'garbage' } }), async () => ok);
      return h;
    });
    const span = finished('tools/call get_topic');
    expect(span?.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
    expect(span?.links).toEqual([]);
    expect(span?.attributes['mcp.protocol.version']).toBeUndefined();
  });
});

describe('a refused call', () => {
  it('carries the code; a 4xx leaves the status UNSET', async () => {
    await expect(traced('get_topic', call(), async () => Promise.reject(new ApiError('NOT_FOUND')))).rejects.toThrow(ApiError);
    const span = finished('get_topic');
    expect(span?.attributes).toMatchObject({ 'openpm.error.code': 'NOT_FOUND', 'error.type': 'NOT_FOUND', 'openpm.status': 404 });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a 5xx sets ERROR with the code as its message', async () => {
    await expect(traced('get_topic', call(), async () => Promise.reject(new ApiError('INTERNAL')))).rejects.toThrow(ApiError);
    const span = finished('get_topic');
    expect(span?.attributes['openpm.error.code']).toBe('INTERNAL');
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'INTERNAL' });
  });
});
