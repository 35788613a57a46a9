/**
 * Prometheus metrics of one replica (prom-client), served on the admin port: requests by route,
 * status and surface, upstream latency, limiter decisions and confirm-token outcomes, and the
 * state gauges the chart's alerts watch (breaker, Redis, kill switch), which are read when
 * Prometheus scrapes rather than updated on the request path. Each app gets its own registry,
 * so several apps in one process (tests) never collide.
 * The process and runtime metrics are prom-client's defaults (./runtime.ts).
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { collectRuntimeMetrics } from './runtime.ts';

/** Where the state gauges read their values at scrape time (services.ts wires them). */
export interface StateSources {
  /** The upstream circuit breaker's state. */
  breaker: () => 'closed' | 'open' | 'half-open';
  /** The kill switch's mode on this replica. */
  killSwitch: () => 'off' | 'all' | 'writes';
  /** Null without Redis (no gauge then); else whether it answers now. */
  redis: (() => Promise<boolean>) | null;
}

export type Surface = 'rest' | 'mcp' | 'other';

export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'route' | 'method' | 'status' | 'surface'>;
  readonly #duration: Histogram<'surface'>;
  readonly #upstream: Histogram<'endpoint' | 'method' | 'outcome'>;
  readonly #limiter: Counter<'window' | 'decision'>;
  readonly #tokens: Counter<'action' | 'outcome'>;
  readonly #operations: Counter<'operation' | 'surface' | 'outcome'>;
  readonly #operationDuration: Histogram<'operation'>;
  readonly #auditRecords: Counter<'action' | 'outcome'>;
  readonly #auditStreamFailures: Counter;
  readonly #stopRuntime: () => void;

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    this.#stopRuntime = (opts.defaultMetrics ?? true) ? collectRuntimeMetrics(this.registry) : () => undefined;
    this.#requests = new Counter({
      name: 'openpm_requests_total',
      help: 'Requests answered, by route template, method, status and surface.',
      labelNames: ['route', 'method', 'status', 'surface'],
      registers: [this.registry],
    });
    this.#duration = new Histogram({
      name: 'openpm_request_duration_seconds',
      help: 'Time to answer a request, by surface.',
      labelNames: ['surface'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    this.#upstream = new Histogram({
      name: 'openpm_upstream_request_duration_seconds',
      help: 'Latency of backend calls, by endpoint template, method and outcome (ok, error, failed).',
      labelNames: ['endpoint', 'method', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    this.#limiter = new Counter({
      name: 'openpm_rate_limit_decisions_total',
      help: 'Rate-limit decisions, by binding window and decision (allowed, limited, skipped).',
      labelNames: ['window', 'decision'],
      registers: [this.registry],
    });
    this.#tokens = new Counter({
      name: 'openpm_confirm_tokens_total',
      help: 'Confirm-token events, by action and outcome (issued, executed, replayed, used, invalid, expired, unavailable).',
      labelNames: ['action', 'outcome'],
      registers: [this.registry],
    });
    this.#operations = new Counter({
      name: 'openpm_operations_total',
      help: 'Operation calls from either surface, by operation, surface (rest, mcp) and outcome (ok or the error code).',
      labelNames: ['operation', 'surface', 'outcome'],
      registers: [this.registry],
    });
    this.#operationDuration = new Histogram({
      name: 'openpm_operation_duration_seconds',
      help: "Time from the limit gate to the operation's answer, by operation.",
      labelNames: ['operation'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    this.#auditRecords = new Counter({
      name: 'openpm_audit_records_total',
      help: 'Audit records written (docs/audit.md), by action and outcome (executed, replayed, refused, failed).',
      labelNames: ['action', 'outcome'],
      registers: [this.registry],
    });
    this.#auditStreamFailures = new Counter({
      name: 'openpm_audit_stream_failures_total',
      help: 'Audit records the shared Redis stream did not take (each is still in the JSON-lines trail).',
      registers: [this.registry],
    });
  }

  /** One audit record written; `count` 0 only makes the series exist before the first record. */
  auditRecord(action: string, outcome: string, count = 1): void {
    this.#auditRecords.inc({ action, outcome }, count);
  }

  auditStreamFailure(): void {
    this.#auditStreamFailures.inc();
  }

  request(route: string, method: string, status: number, surface: Surface, seconds: number): void {
    this.#requests.inc({ route, method, status: String(status), surface });
    this.#duration.observe({ surface }, seconds);
  }

  upstream(endpoint: string, method: string, outcome: 'ok' | 'error' | 'failed', seconds: number): void {
    this.#upstream.observe({ endpoint, method, outcome }, seconds);
  }

  limiter(window: string, decision: 'allowed' | 'limited' | 'skipped'): void {
    this.#limiter.inc({ window, decision });
  }

  operation(name: string, surface: Surface, outcome: string, seconds: number): void {
    this.#operations.inc({ operation: name, surface, outcome });
    this.#operationDuration.observe({ operation: name }, seconds);
  }

  token(action: string, outcome: string): void {
    this.#tokens.inc({ action, outcome });
  }

  /** Stops what records in the background for the runtime metrics (the GC observer). */
  close(): void {
    this.#stopRuntime();
  }

  /**
   * Register the state gauges:
   * - `openpm_upstream_circuit_open`: 1 while the breaker refuses calls (open or half-open);
   * - `openpm_kill_switch_state{mode}`: 1 for the replica's current mode, 0 for the others;
   * - `openpm_redis_up`: 1 when Redis answered the probe made for this scrape (with Redis only).
   */
  watch(sources: StateSources): void {
    new Gauge({
      name: 'openpm_upstream_circuit_open',
      help: 'Whether the upstream circuit breaker refuses calls (1: open or half-open, 0: closed).',
      registers: [this.registry],
      collect() {
        this.set(sources.breaker() === 'closed' ? 0 : 1);
      },
    });
    new Gauge({
      name: 'openpm_kill_switch_state',
      help: 'The kill switch mode of this replica: 1 for the current mode (off, all, writes), 0 for the others.',
      labelNames: ['mode'],
      registers: [this.registry],
      collect() {
        const current = sources.killSwitch();
        for (const mode of ['off', 'all', 'writes'] as const) this.set({ mode }, mode === current ? 1 : 0);
      },
    });
    const redis = sources.redis;
    if (redis !== null) {
      new Gauge({
        name: 'openpm_redis_up',
        help: 'Whether the shared Redis answered a probe made for this scrape (cluster: every master, cluster_state ok).',
        registers: [this.registry],
        async collect() {
          this.set((await redis()) ? 1 : 0);
        },
      });
    }
  }
}

/** Backend paths with their ids replaced, so labels stay few: /internal/users/{id}/profile. */
export function endpointTemplate(path: string): string {
  return path
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}')
    .replace(/\/\d+(?=\/|$)/g, '/{id}')
    .replace(/(by-handle\/)[^/]+/, '$1{handle}');
}
