/**
 * What the OpenTelemetry SDK alone costs per request, with no gateway around it: the floor under
 * the tracing scenario's figure (docs/performance.md#what-tracing-costs).
 *
 * One process makes, per simulated request, the spans an owner read makes (the HTTP server
 * span, the operation's, the backend call's with its `traceparent` injected), with the same
 * attributes, through the same SDK set-up as src/tracing/sdk.ts (always-on sampler, batch
 * processor, OTLP/HTTP protobuf exporter) to the benchmark's sink in a child process. It
 * measures its own CPU per request for 0 to 3 spans, in alternating rounds, and prints the
 * medians; 0 spans is the loop itself, subtracted from the others. No instrumentation hooks, no
 * scrubbing: what remains is the least any gateway on this SDK pays at 100% sampling.
 *
 *   node scripts/bench/tracing-floor.ts            (FLOOR_REQUESTS, FLOOR_ROUNDS)
 */
import { cpuUsage } from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { context, propagation, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, type ReadableSpan, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import { spawnSink } from './processes.ts';

const REQUESTS = Number(process.env['FLOOR_REQUESTS'] ?? 20_000);
const ROUNDS = Number(process.env['FLOOR_ROUNDS'] ?? 5);
const SPAN_COUNTS = [0, 1, 2, 3] as const;

const sink = await spawnSink();
const otlp = new OTLPTraceExporter({ url: `${sink.url}/v1/traces` });
/** Spans handed to the exporter: a batch processor whose queue overflows drops spans, and with them their cost. */
let exported = 0;
const counting: SpanExporter = {
  export: (spans: ReadableSpan[], done) => {
    exported += spans.length;
    otlp.export(spans, done);
  },
  shutdown: () => otlp.shutdown(),
};
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'tracing-floor' }),
  sampler: new AlwaysOnSampler(),
  spanProcessors: [new BatchSpanProcessor({ exporter: counting })],
});
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const tracer = provider.getTracer('tracing-floor');

const backendPath = '/internal/users/00000000-0000-4000-8000-0000000a0001/profile';

/** The backend call's CLIENT span, as the undici instrumentation makes it. */
function backendCall(t: Tracer): void {
  const span = t.startSpan('GET', {
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': 'GET',
      'http.request.method_original': 'GET',
      'url.full': `http://127.0.0.1:4901${backendPath}`,
      'url.path': backendPath,
      'url.query': '',
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
      'server.port': 4901,
    },
  });
  propagation.inject(trace.setSpan(context.active(), span), {});
  span.setAttributes({ 'network.peer.address': '127.0.0.1', 'network.peer.port': 4901, 'network.protocol.version': '1.1' });
  span.setAttributes({ 'http.response.status_code': 200 });
  span.end();
}

/** One owner read's spans, `spans` of them, nested as the gateway nests them. */
async function request(spans: number): Promise<void> {
  if (spans === 0) return;
  const server = tracer.startSpan('GET /open/v1/me', {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': 'GET', 'url.path': '/open/v1/me', 'http.route': '/open/v1/me', 'url.scheme': 'http' },
  });
  server.setAttributes({ 'client.address': '127.0.0.1' });
  await context.with(trace.setSpan(context.active(), server), async () => {
    if (spans === 1) return;
    const operation = tracer.startSpan('get_my_profile', {
      kind: SpanKind.INTERNAL,
      attributes: {
        'openpm.operation': 'get_my_profile',
        'openpm.surface': 'rest',
        'openpm.key_id': 'key_alice_read',
        'openpm.request_id': '8e788eac-9cc3-413a-b03b-8684609e8107',
      },
    });
    await context.with(trace.setSpan(context.active(), operation), async () => {
      if (spans === 3) backendCall(tracer);
    });
    operation.end();
  });
  server.setAttribute('http.response.status_code', 200);
  server.end();
}

/** CPU µs per request over `REQUESTS` requests, their export included. */
async function measure(spans: number): Promise<number> {
  await provider.forceFlush();
  const sent = exported;
  const before = cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    await request(spans);
    // Paced at about a gateway's rate under load (8 a millisecond at most), so that the batch
    // processor's exports keep up as they do there; sleeping costs no CPU.
    if (i % 8 === 7) await sleep(1);
  }
  await provider.forceFlush();
  const used = cpuUsage(before);
  if (exported - sent !== spans * REQUESTS)
    throw new Error(`${exported - sent} of ${spans * REQUESTS} spans exported: the queue overflowed`);
  return (used.user + used.system) / REQUESTS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

for (const spans of SPAN_COUNTS) await measure(spans); // warm-up
const figures = new Map<number, number[]>(SPAN_COUNTS.map((n) => [n, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? SPAN_COUNTS : [...SPAN_COUNTS].reverse();
  for (const spans of order) figures.get(spans)?.push(await measure(spans));
}
const loop = median(figures.get(0) ?? []);
process.stdout.write(
  `tracing floor: ${ROUNDS} rounds of ${REQUESTS} requests; CPU µs per request over the bare loop (${loop.toFixed(1)} µs)\n`,
);
for (const spans of SPAN_COUNTS.slice(1)) {
  const all = figures.get(spans) ?? [];
  const extra = all.map((x) => x - loop);
  process.stdout.write(
    `  ${spans} span(s): ${median(extra).toFixed(1)} µs (rounds: ${extra.map((x) => x.toFixed(1)).join(', ')}), ${(median(extra) / spans).toFixed(1)} µs a span\n`,
  );
}
await provider.shutdown();
await sink.stop();
