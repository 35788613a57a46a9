/**
 * What the OpenTelemetry SDK alone costs per owner read, with no gateway around it, against what
 * the untraced gateway spends on the whole read in the same rounds: the floor under the tracing
 * scenario's ratio (docs/performance.md#what-tracing-costs).
 *
 * This process makes, per simulated read, the spans an owner read makes (the HTTP server span,
 * the operation's, the backend call's with its `traceparent` injected), with the same
 * attributes, through the same SDK set-up as src/tracing/sdk.ts (always-on sampler, batch
 * processor, OTLP/HTTP exporter) to the benchmark's receiver in a child process, once with the
 * protobuf exporter and once with the JSON one. It measures its own CPU per read, the bare loop
 * (no span) subtracted. No instrumentation hooks, no scrubbing: what remains is the least any
 * gateway on this SDK pays at 100% sampling. In the same rounds, two gateways in front of the
 * sandbox serve owner reads under the benchmark's load, their CPU per read read from /proc: the
 * benchmark's untraced one, which every figure is divided by, and one with tracing on that
 * samples nothing (the instrumentations' hooks, non-recording spans, the context carried, the
 * `traceparent` sent), which every read pays at any sampling ratio. A read traced at 100% does
 * all the unsampled one does and records and exports its spans besides, so the unsampled
 * gateway plus the floor is a lower bound of what it costs; a third gateway, tracing every
 * request, shows what it does cost.
 *
 *   npm run bench:tracing-floor            (FLOOR_REQUESTS, FLOOR_ROUNDS)
 */
import { cpuUsage } from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { context, propagation, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, type ReadableSpan, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';
import { load } from './load.ts';
import { type Child, cpuSeconds, spawnGateway, spawnSandbox, spawnSink } from './processes.ts';
import { median } from './report.ts';
import { SCENARIOS } from './scenarios.ts';

const REQUESTS = Number(process.env['FLOOR_REQUESTS'] ?? 20_000);
const ROUNDS = Number(process.env['FLOOR_ROUNDS'] ?? 5);
const SPANS_PER_READ = 3;
/** As the benchmark's BENCH_WARMUP: the tracing gateway's JIT settles later than the untraced one's. */
const WARMUP_SECONDS = 10;

const sink = await spawnSink();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());

interface Pipeline {
  tracer: Tracer;
  provider: TracerProvider;
  /** Spans handed to the exporter: a batch processor whose queue overflows drops spans, and with them their cost. */
  exported(): number;
}

function pipeline(otlp: SpanExporter): Pipeline {
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
  return { tracer: provider.getTracer('tracing-floor'), provider, exported: () => exported };
}

const url = `${sink.url}/v1/traces`;
const pipelines = { protobuf: pipeline(new ProtobufExporter({ url })), json: pipeline(new JsonExporter({ url })) };

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

/** One owner read's three spans, nested as the gateway nests them; none without a tracer. */
async function read(tracer: Tracer | undefined): Promise<void> {
  if (tracer === undefined) return;
  const server = tracer.startSpan('GET /open/v1/me', {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': 'GET', 'url.path': '/open/v1/me', 'http.route': '/open/v1/me', 'url.scheme': 'http' },
  });
  server.setAttributes({ 'client.address': '127.0.0.1' });
  await context.with(trace.setSpan(context.active(), server), async () => {
    const operation = tracer.startSpan('get_my_profile', {
      kind: SpanKind.INTERNAL,
      attributes: {
        'openpm.operation': 'get_my_profile',
        'openpm.surface': 'rest',
        'openpm.key_id': 'key_alice_read',
        'openpm.request_id': '8e788eac-9cc3-413a-b03b-8684609e8107',
      },
    });
    await context.with(trace.setSpan(context.active(), operation), async () => backendCall(tracer));
    operation.end();
  });
  server.setAttribute('http.response.status_code', 200);
  server.end();
}

/** CPU µs per read over `REQUESTS` reads, their export included. */
async function measureSpans(p: Pipeline | undefined): Promise<number> {
  await p?.provider.forceFlush();
  const sent = p?.exported() ?? 0;
  const before = cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    await read(p?.tracer);
    // Paced at about a gateway's rate under load (8 a millisecond at most), so that the batch
    // processor's exports keep up as they do there; sleeping costs no CPU.
    if (i % 8 === 7) await sleep(1);
  }
  await p?.provider.forceFlush();
  const used = cpuUsage(before);
  if (p !== undefined && p.exported() - sent !== SPANS_PER_READ * REQUESTS)
    throw new Error(`${p.exported() - sent} of ${SPANS_PER_READ * REQUESTS} spans exported: the queue overflowed`);
  return (used.user + used.system) / REQUESTS;
}

const scenario = SCENARIOS.find((s) => s.name === 'owner-read');
if (scenario === undefined) throw new Error('no owner-read scenario');
const ownerRead = scenario.steps;
const sandbox = await spawnSandbox();
const gateways = {
  untraced: await spawnGateway('untraced gateway', { upstreamUrl: sandbox.url, logLevel: 'warn' }),
  unsampled: await spawnGateway('unsampled gateway', { upstreamUrl: sandbox.url, logLevel: 'warn', otlpUrl: sink.url, sampleRatio: 0 }),
  traced: await spawnGateway('traced gateway', { upstreamUrl: sandbox.url, logLevel: 'warn', otlpUrl: sink.url }),
};

/** A gateway's CPU µs per owner read, under the benchmark's load. */
async function measureGateway(gateway: Child): Promise<number> {
  const before = cpuSeconds(gateway.pid);
  const result = await load({ url: gateway.url, steps: ownerRead, connections: 32, amount: REQUESTS });
  if (result.failed > 0) throw new Error(`${result.failed} owner reads failed: ${result.sample ?? ''}`);
  return ((cpuSeconds(gateway.pid) - before) / result.ok) * 1e6;
}

type Target = 'loop' | 'protobuf' | 'json' | keyof typeof gateways;
const TARGETS: readonly Target[] = ['loop', 'protobuf', 'json', 'untraced', 'unsampled', 'traced'];
const measure = (t: Target): Promise<number> =>
  t === 'loop' || t === 'protobuf' || t === 'json' ? measureSpans(t === 'loop' ? undefined : pipelines[t]) : measureGateway(gateways[t]);

// Warm-up: the gateways as long as the benchmark warms them, then one pass of everything.
for (const g of Object.values(gateways)) await load({ url: g.url, steps: ownerRead, connections: 32, duration: WARMUP_SECONDS });
for (const t of TARGETS) await measure(t);
const figures = new Map<Target, number[]>(TARGETS.map((t) => [t, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? TARGETS : [...TARGETS].reverse();
  for (const t of order) figures.get(t)?.push(await measure(t));
}

const of = (t: Target) => figures.get(t) ?? [];
const list = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(', ');
/** Each round's figure over that round's untraced read. */
const overUntraced = (xs: number[]) => xs.map((x, i) => x / (of('untraced')[i] ?? Number.NaN));
const line = (label: string, xs: number[], digits: number, ratios?: number[]) =>
  `  ${label}: ${median(xs).toFixed(digits)} µs (rounds: ${list(xs, digits)})` +
  (ratios === undefined ? '\n' : `; the untraced read × ${median(ratios).toFixed(2)} (rounds: ${list(ratios, 2)})\n`);

process.stdout.write(`tracing floor: ${ROUNDS} rounds of ${REQUESTS} owner reads, CPU µs per read\n`);
process.stdout.write(line('untraced gateway', of('untraced'), 0));
process.stdout.write(line('gateway with tracing on, nothing sampled', of('unsampled'), 0, overUntraced(of('unsampled'))));
for (const t of ['protobuf', 'json'] as const) {
  // Each round's spans over that round's bare loop.
  const spans = of(t).map((x, i) => x - (of('loop')[i] ?? Number.NaN));
  process.stdout.write(
    line(
      `${SPANS_PER_READ} spans alone (OTLP/HTTP ${t}), over the untraced read`,
      spans,
      1,
      overUntraced(spans).map((r) => 1 + r),
    ),
  );
  const bound = spans.map((x, i) => x + (of('unsampled')[i] ?? Number.NaN));
  process.stdout.write(line('  the unsampled gateway with them: at least', bound, 0, overUntraced(bound)));
}
process.stdout.write(line('gateway tracing every request (OTLP/HTTP protobuf)', of('traced'), 0, overUntraced(of('traced'))));
await Promise.all([pipelines.protobuf.provider.shutdown(), pipelines.json.provider.shutdown()]);
await Promise.all([...Object.values(gateways).map((g) => g.stop()), sandbox.stop(), sink.stop()]);
