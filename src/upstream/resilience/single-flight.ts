/**
 * Request coalescing: identical calls in flight at the same time share one execution. The
 * first caller (the leader) runs it; callers arriving before it settles get the same promise.
 * Nothing is cached: the entry is removed as soon as the promise settles, success or failure,
 * so a failure reaches exactly the callers that were waiting for it and the next caller makes
 * a fresh call.
 */

export interface Flight<T> {
  promise: Promise<T>;
  /** Who started it (the leader's request id). */
  leader: string;
  /** Whether this caller joined a flight already in the air. */
  joined: boolean;
}

export class SingleFlight<T> {
  readonly #inFlight = new Map<string, { promise: Promise<T>; leader: string }>();

  get size(): number {
    return this.#inFlight.size;
  }

  run(key: string, leader: string, fn: () => Promise<T>): Flight<T> {
    const existing = this.#inFlight.get(key);
    if (existing !== undefined) return { ...existing, joined: true };
    const promise = fn();
    const entry = { promise, leader };
    this.#inFlight.set(key, entry);
    const done = () => {
      if (this.#inFlight.get(key) === entry) this.#inFlight.delete(key);
    };
    // Both branches handled, so the bookkeeping chain never raises an unhandled rejection.
    promise.then(done, done);
    return { promise, leader, joined: false };
  }
}
