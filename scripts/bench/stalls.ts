/**
 * Which fixed-rate rounds the benchmark runs again. The backend, redis-server and the load
 * generator share the second core; when the backend's or the load generator's event loop is
 * held up, every request in flight waits, whichever target is being measured, and that one
 * round decides a p99 pooled over a few. A target's own pauses (its garbage collector) are not
 * looked at here: they stay in its figures.
 */
export interface LoopDelays {
  /** The longest the backend's event loop was held up during the round (ms). */
  backendLoopMaxMs: number;
  /** The same for the load generator, i.e. the benchmark process (ms). */
  generatorLoopMaxMs: number;
}

/** Whether a round stalled outside the target: either loop held up longer than `stallMs` (0: never). */
export function stalledOutsideTarget(round: LoopDelays, stallMs: number): boolean {
  return stallMs > 0 && Math.max(round.backendLoopMaxMs, round.generatorLoopMaxMs) > stallMs;
}
