/**
 * A circuit breaker for the one backend behind an UpstreamClient, so that a dead or failing
 * backend is answered fast instead of making every request wait for its deadline.
 *
 * - closed: calls go through. `threshold` consecutive failures (transport errors, timeouts,
 *   5xx that carry no business error code), all within `windowMs` of the first of them, open it.
 *   Any call that gets an answer (a success, a business error such as "not found", a 4xx)
 *   resets the streak: the backend is alive.
 * - open: calls are refused at once, for `cooldownMs`.
 * - half-open: after the cool-down one call (the probe) goes through; the others are still
 *   refused. The probe's success closes the breaker, its failure opens it for another
 *   cool-down. A probe that never reports (it always does: calls have a deadline) is replaced
 *   after `probeTimeoutMs`.
 *
 * `threshold <= 0` disables it: every call is admitted and nothing is counted.
 * Every state change is returned to the caller, which logs it once.
 */

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  threshold: number;
  cooldownMs: number;
  /** Failures further apart than this from the first of a streak start a new streak. */
  windowMs: number;
  /** How long a probe may stay unreported before another one is let through. */
  probeTimeoutMs: number;
  now?: () => number;
}

export interface Transition {
  from: BreakerState;
  to: BreakerState;
  /** Consecutive failures that led to it (when opening). */
  failures: number;
}

/** Admission of one call: `ticket` is handed back with its outcome; null means refused. */
export interface Admission {
  ticket: Ticket | null;
  transition: Transition | null;
}

export interface Ticket {
  readonly probe: boolean;
}

export class CircuitBreaker {
  readonly #opts: BreakerOptions;
  readonly #now: () => number;
  #state: BreakerState = 'closed';
  #failures = 0;
  #streakStartedAt = 0;
  #openedAt = 0;
  #probeStartedAt: number | null = null;

  constructor(opts: BreakerOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.#opts.threshold > 0;
  }

  get state(): BreakerState {
    return this.#state;
  }

  /** Whether a call may go to the backend now. */
  admit(): Admission {
    if (!this.enabled || this.#state === 'closed') return { ticket: { probe: false }, transition: null };
    const now = this.#now();
    let transition: Transition | null = null;
    if (this.#state === 'open') {
      if (now - this.#openedAt < this.#opts.cooldownMs) return { ticket: null, transition: null };
      transition = this.#move('half-open');
      this.#probeStartedAt = null;
    }
    // half-open: one probe at a time.
    if (this.#probeStartedAt !== null && now - this.#probeStartedAt < this.#opts.probeTimeoutMs) {
      return { ticket: null, transition };
    }
    this.#probeStartedAt = now;
    return { ticket: { probe: true }, transition };
  }

  /** The backend answered (whatever the answer): the streak ends, a probe closes the breaker. */
  success(ticket: Ticket): Transition | null {
    if (!this.enabled) return null;
    if (ticket.probe) {
      if (this.#state !== 'half-open') return null;
      this.#probeStartedAt = null;
      this.#failures = 0;
      return this.#move('closed');
    }
    if (this.#state === 'closed') this.#failures = 0;
    return null;
  }

  /** The backend did not answer usefully (transport error, timeout, 5xx). */
  failure(ticket: Ticket): Transition | null {
    if (!this.enabled) return null;
    const now = this.#now();
    if (ticket.probe) {
      if (this.#state !== 'half-open') return null;
      this.#probeStartedAt = null;
      this.#openedAt = now;
      return this.#move('open');
    }
    // Calls admitted before the breaker opened report late: they change nothing any more.
    if (this.#state !== 'closed') return null;
    if (this.#failures === 0 || now - this.#streakStartedAt > this.#opts.windowMs) {
      this.#failures = 0;
      this.#streakStartedAt = now;
    }
    this.#failures += 1;
    if (this.#failures < this.#opts.threshold) return null;
    this.#openedAt = now;
    return this.#move('open');
  }

  #move(to: BreakerState): Transition {
    const t = { from: this.#state, to, failures: this.#failures };
    this.#state = to;
    return t;
  }
}

/** The cause attached to the INTERNAL error of a call refused by an open breaker. */
export class CircuitOpenError extends Error {
  override name = 'CircuitOpenError';
  constructor() {
    super('upstream circuit open: call refused without reaching the backend');
  }
}
