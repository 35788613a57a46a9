/**
 * prom-client's default (process and Node runtime) metrics, with one family fed by our own
 * collector: `nodejs_gc_duration_seconds{kind}`, the same name, help, buckets and kinds as
 * prom-client's, from a `gc` performance observer like prom-client's, with two differences:
 *
 * - every entry an observer callback receives is counted: prom-client's reads only the first, so
 *   collections that come close together (a scavenge and a full collection, two forced ones)
 *   went uncounted;
 * - the observer is disconnected when the app closes (prom-client's never is).
 *
 * V8's GC profiler (`v8.GCProfiler`), which creates no JS object per collection, was used here
 * for a while and dropped: a stopped profiler goes on recording every collection into native
 * memory until a full collection frees it, so swapping profilers to read them made a replica
 * grow by hundreds of megabytes between full collections.
 */
import { createRequire } from 'node:module';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { collectDefaultMetrics, Histogram, type Registry } from 'prom-client';

/** prom-client's own, so dashboards and alerts written for its metric read this one alike. */
const GC_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5];

/** Node's collection kinds as prom-client labels them. */
const GC_KINDS: Readonly<Record<number, string>> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

type DefaultMetric = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void;

const requireFromHere = createRequire(import.meta.url);

/**
 * Registers the default metrics on `registry`; the returned function disconnects the GC
 * observer (a registry dropped without it would go on being fed every collection).
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
  const histogram = new Histogram({
    name: 'nodejs_gc_duration_seconds',
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'],
    buckets: GC_BUCKETS,
    registers: [registry],
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[gcKind(entry)];
      if (kind !== undefined) histogram.observe({ kind }, entry.duration / 1000);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/** A `gc` entry's kind, in its `detail` (Node's typings give the base entry no `detail`). */
function gcKind(entry: PerformanceEntry): number {
  const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } | null };
  return detail?.kind ?? -1;
}
