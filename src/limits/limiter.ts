/**
 * The per-key limiter used by both surfaces. When its store cannot answer (Redis slow or
 * down) it lets the request through, logged and counted as `skipped`: reads keep serving, and
 * writes stay safe because an execution cannot run without its confirm-token claim, which
 * fails closed on the same outage (docs/operations.md).
 */
import type { Metrics } from '../metrics/metrics.ts';
import { decide, type Decision } from './decision.ts';
import type { RateLimitStore } from './store.ts';
import { windowsFor, type LimitClass, type LimitSettings, type WindowSpec } from './windows.ts';

export class RateLimiter {
  readonly #store: RateLimitStore;
  /** The windows of each class: fixed by the settings, so built once. */
  readonly #windows: Record<LimitClass, WindowSpec[]>;
  readonly #metrics: Metrics;
  readonly #log: { warn(obj: object, msg: string): void };

  constructor(store: RateLimitStore, settings: LimitSettings, metrics: Metrics, log: { warn(obj: object, msg: string): void }) {
    this.#store = store;
    this.#windows = {
      read: windowsFor('read', settings),
      search: windowsFor('search', settings),
      write: windowsFor('write', settings),
    };
    this.#metrics = metrics;
    this.#log = log;
  }

  /** Count one request of `cls` for a key; null when the store could not decide. */
  async check(keyId: string, cls: LimitClass): Promise<Decision | null> {
    const windows = this.#windows[cls];
    let decision: Decision;
    try {
      decision = decide(await this.#store.consume(keyId, windows));
    } catch (err) {
      this.#log.warn({ err: (err as Error).message, cls }, 'rate limiter unavailable: request not counted');
      this.#metrics.limiter(cls, 'skipped');
      return null;
    }
    this.#metrics.limiter(decision.refusedBy ?? cls, decision.allowed ? 'allowed' : 'limited');
    return decision;
  }
}
