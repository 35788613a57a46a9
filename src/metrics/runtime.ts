/**
 * prom-client's default (process and Node runtime) metrics, with one family fed differently:
 * `nodejs_gc_duration_seconds{kind}`, the same name, help, buckets and kinds as prom-client's,
 * read from V8's GC profiler instead of a `perf_hooks` observer of `gc` entries.
 *
 * Why: while anyone observes `gc` entries, Node builds a performance entry (several JS objects)
 * after every collection. Under load, with a scavenge every few hundred requests, those objects
 * were about 40% of what each scavenge moved to the old generation, and that is what brings the
 * next full collection, whose marking holds requests up (docs/performance.md, change 20). The
 * GC profiler records in C++; its records are read in batches, every second and at each scrape,
 * so the histogram is as fresh as before when Prometheus reads it.
 */
import { createRequire } from 'node:module';
import { GCProfiler } from 'node:v8';
import { collectDefaultMetrics, Histogram, type Registry } from 'prom-client';

/** How often the profiler's records are folded into the histogram between scrapes. */
const DRAIN_MS = 1_000;

/** prom-client's own, so dashboards and alerts written for its metric read this one alike. */
const GC_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5];

/** V8's collection types as the profiler names them, by the kind prom-client labels them with. */
const GC_KINDS: Readonly<Record<string, string>> = {
  Scavenge: 'minor',
  MinorMarkSweep: 'minor',
  MarkSweepCompact: 'major',
  IncrementalMarking: 'incremental',
  ProcessWeakCallbacks: 'weakcb',
};

/** The part of a GC profiler record read here (`cost` is in microseconds). */
interface GcRecord {
  gcType: string;
  cost: number;
}

type DefaultMetric = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void;

const requireFromHere = createRequire(import.meta.url);

/**
 * Registers the default metrics on `registry`; the returned function stops the GC profiler
 * (a registry dropped without it keeps a profiler recording every collection).
 */
export function collectRuntimeMetrics(registry: Registry): () => void {
  // prom-client lists its default collectors by module name; each is a function of the
  // registry, which is what collectDefaultMetrics calls for every one of them.
  for (const name of collectDefaultMetrics.metricsList) {
    if (name === 'gc') continue;
    const collector = requireFromHere(`prom-client/lib/metrics/${name}`) as DefaultMetric;
    collector(registry, { eventLoopMonitoringPrecision: 10 });
  }
  return collectGcDurations(registry);
}

function collectGcDurations(registry: Registry): () => void {
  let profiler = new GCProfiler();
  profiler.start();
  const histogram = new Histogram({
    name: 'nodejs_gc_duration_seconds',
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'],
    buckets: GC_BUCKETS,
    registers: [registry],
    collect: () => drain(),
  });
  let stopped = false;

  function drain(): void {
    if (stopped) return;
    // The next profiler starts before this one stops, so no collection falls between them.
    const next = new GCProfiler();
    next.start();
    const records = (profiler.stop()?.statistics ?? []) as GcRecord[];
    profiler = next;
    for (const { gcType, cost } of records) {
      const kind = GC_KINDS[gcType];
      if (kind !== undefined) histogram.observe({ kind }, cost / 1e6);
    }
  }

  const timer = setInterval(drain, DRAIN_MS);
  timer.unref();
  return () => {
    if (stopped) return;
    drain();
    stopped = true;
    clearInterval(timer);
    profiler.stop();
  };
}
