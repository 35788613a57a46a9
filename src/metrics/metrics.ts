/**
 * Prometheus metrics of one replica (prom-client), served on the admin port: requests by route,
 * status and surface, upstream latency, limiter decisions and confirm-token outcomes. Each
 * app gets its own registry, so several apps in one process (tests) never collide.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Surface = 'rest' | 'mcp' | 'other';

export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'route' | 'method' | 'status' | 'surface'>;
  readonly #duration: Histogram<'surface'>;
  readonly #upstream: Histogram<'endpoint' | 'method' | 'outcome'>;
  readonly #limiter: Counter<'window' | 'decision'>;
  readonly #tokens: Counter<'action' | 'outcome'>;

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
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

  token(action: string, outcome: string): void {
    this.#tokens.inc({ action, outcome });
  }
}

/** Backend paths with their ids replaced, so labels stay few: /internal/users/{id}/profile. */
export function endpointTemplate(path: string): string {
  return path
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}')
    .replace(/\/\d+(?=\/|$)/g, '/{id}')
    .replace(/(by-handle\/)[^/]+/, '$1{handle}');
}
