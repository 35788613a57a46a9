/**
 * Time spent waiting on the backend, summed per request for the Server-Timing header
 * (src/plugins/server-timing.ts). The plugin opens a tally when a request arrives; every backend
 * call made on that request's behalf adds its duration. Outside a tally (the plugin off, a call
 * not made for a request) adding is a no-op.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface UpstreamTally {
  /** Milliseconds of backend calls so far. */
  ms: number;
}

const tallies = new AsyncLocalStorage<UpstreamTally>();

/** Run `fn` (and everything it starts) with backend time counted into `tally`. */
export function countingUpstream<T>(tally: UpstreamTally, fn: () => T): T {
  return tallies.run(tally, fn);
}

/** Adds one backend call's duration to the current request's tally, if there is one. */
export function addUpstreamMs(ms: number): void {
  const tally = tallies.getStore();
  if (tally !== undefined) tally.ms += ms;
}
