/**
 * The OpenTelemetry SDK, started by ./start.ts only when an exporter endpoint is configured, and
 * before the app is imported: Fastify, undici and ioredis are patched as they load.
 *
 * - @fastify/otel (the HTTP server span, W3C `traceparent`/`tracestate` read from the
 *   request's headers), undici (every backend call a
 *   CLIENT span, its `traceparent` injected into the backend request), ioredis (the limiter's
 *   and the stores' Redis commands, recorded by command name only);
 * - one span per operation call (./operation-span.ts), trace ids in log lines;
 * - spans exported in batches over OTLP/HTTP (protobuf or JSON), each scrubbed of secrets first
 *   (./redact.ts).
 *
 * ESM modules are patched through import-in-the-middle's loader hook, limited to the modules
 * the instrumentations name: the gateway's own files are never wrapped.
 */
import { register } from 'node:module';
import { context, propagation, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { FastifyRequest } from 'fastify';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { installTracingHooks } from './hooks.ts';
import { operationTracer, traceLogFields } from './operation-span.ts';
import { RedactingExporter } from './exporter.ts';
import type { SamplerName, TracingSettings } from './settings.ts';

/** Routes that are polled, not used: probes and metrics scrapes would drown the traces. */
const UNTRACED_PATHS: ReadonlySet<string> = new Set(['/livez', '/readyz', '/metrics']);

/** How long a shutdown waits for the last spans to be exported. */
const SHUTDOWN_EXPORT_MS = 3_000;

/**
 * @fastify/otel's request span is the HTTP server span (there is no node:http instrumentation:
 * a second server span per request was about 40% of what tracing cost a read). Named and
 * completed here as the HTTP conventions ask: `GET /open/v1/me`, the query apart from the path
 * (both redacted on export), the scheme and the client's address.
 */
function nameServerSpan(span: Span, request: FastifyRequest): void {
  const route = request.routeOptions.url;
  span.updateName(route === undefined ? request.method : `${request.method} ${route}`);
  const mark = request.url.indexOf('?');
  span.setAttributes({
    'url.scheme': request.protocol,
    'client.address': request.ip,
    ...(mark === -1 ? {} : { 'url.path': request.url.slice(0, mark), 'url.query': request.url.slice(mark + 1) }),
  });
}

export interface Tracing {
  /** Exports what is pending and stops (at shutdown). */
  shutdown(): Promise<void>;
}

export function samplerOf(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}

async function otlpExporter(settings: TracingSettings): Promise<SpanExporter> {
  const options = { url: settings.tracesUrl, headers: settings.headers };
  if (settings.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter(options);
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter(options);
}

export async function startSdk(settings: TracingSettings, version: string): Promise<Tracing> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.version': version, ...settings.resourceAttributes, 'service.name': settings.serviceName }),
    sampler: samplerOf(settings.sampler, settings.ratio),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new RedactingExporter(await otlpExporter(settings)),
        scheduledDelayMillis: settings.batchDelayMs,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // Trace context only: a caller's baggage is its own data, not to be handed to the internal backend.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);

  const [{ UndiciInstrumentation }, { IORedisInstrumentation }, { FastifyOtelInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@fastify/otel'),
  ]);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        // A span per hook would be a dozen per request; the route's span and the operation's say
        // enough (the handler span would only repeat the operation span).
        instrumentHooks: false,
        instrumentHandler: false,
        recordExceptions: false,
        ignorePaths: (route) => UNTRACED_PATHS.has(route.url.split('?')[0] ?? ''),
        requestHook: nameServerSpan,
      }),
      new UndiciInstrumentation(),
      // Command names only: a Redis key or argument may be derived from a caller's data.
      new IORedisInstrumentation({ dbStatementSerializer: (command) => command }),
    ],
  });
  await waitForAllMessagesAcknowledged();

  const tracer = provider.getTracer('openpm-gateway', version);
  installTracingHooks({ operation: operationTracer(tracer), logFields: traceLogFields });
  return {
    // Bounded: a receiver that does not answer must not hold the process past its shutdown grace.
    shutdown: () => Promise.race([provider.shutdown(), new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_EXPORT_MS).unref())]),
  };
}
