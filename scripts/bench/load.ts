/**
 * The load generator: autocannon, driven from code. autocannon ships no types, so the few
 * options and result fields used here are declared once, at this boundary.
 */
import { createRequire } from 'node:module';

export interface Step {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Reads the answer into the connection's context (a preview's token, for the execution). */
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  /** Shapes the request from the context; returning it unchanged is fine. */
  setupRequest?: (req: Step, context: Record<string, unknown>) => Step;
}

export interface LoadOptions {
  url: string;
  steps: Step[];
  connections: number;
  /** Seconds; or `amount` requests. */
  duration?: number;
  amount?: number;
  /** A 2xx answer that still failed (an MCP tool error). */
  bodyFailed?: (body: string) => boolean;
}

export interface LoadResult {
  /** Requests answered with 2xx. */
  ok: number;
  /** Requests answered otherwise, errors and timeouts included. */
  failed: number;
  seconds: number;
  /** autocannon's latency percentiles over the run, ms (the saturation rounds' own figure is throughput). */
  latency: { p50: number; p99: number; max: number };
  /** One body of a failed answer, to say why. */
  sample?: string;
}

interface AutocannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  latency: { p50: number; p99: number; max: number };
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export async function load(opts: LoadOptions): Promise<LoadResult> {
  let sample: string | undefined;
  let semantic = 0;
  // autocannon calls whatever hooks a request has: absent ones must be left out, not undefined.
  const requests = opts.steps.map((s) => ({
    method: s.method,
    path: s.path,
    ...(s.headers === undefined ? {} : { headers: s.headers }),
    ...(s.body === undefined ? {} : { body: s.body }),
    ...(s.setupRequest === undefined ? {} : { setupRequest: s.setupRequest }),
    onResponse: (status: number, body: string, context: Record<string, unknown>) => {
      const bad = status >= 300 || (opts.bodyFailed?.(body) ?? false);
      if (bad) {
        semantic += status < 300 ? 1 : 0;
        sample ??= `HTTP ${status} ${s.path}: ${body.slice(0, 300)}`;
      }
      s.onResponse?.(status, body, context);
    },
  }));
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    ...(opts.duration === undefined ? {} : { duration: opts.duration }),
    // autocannon notices that `amount` was reached only at its next sampling tick (1 s by
    // default), which made each short counted pass last a second; a 50-ms tick ends it at once.
    ...(opts.amount === undefined ? {} : { amount: opts.amount, sampleInt: 50 }),
    requests,
    // autocannon's own progress bars and tables stay off: the benchmark prints its figures.
    renderProgressBar: false,
    renderResultsTable: false,
    renderLatencyTable: false,
  });
  return {
    ok: result['2xx'] - semantic,
    failed: result.non2xx + result.errors + result.timeouts + semantic,
    seconds: result.duration,
    latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    ...(sample === undefined ? {} : { sample }),
  };
}
