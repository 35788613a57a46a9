/**
 * Latency at a fixed rate, open loop: units of work start at evenly spaced times whatever the
 * target does, each unit's latency running from when it was sent to the end of its last answer.
 * Units sent while every connection is busy wait in the pool, and that wait counts: a pause of
 * the target counts for every unit it held up, not only for those on the wire.
 *
 * Why not autocannon's `overallRate`: it is a quota per connection and second, which each
 * connection sends back to back as soon as the second starts, then idles. Its "fixed rate" is
 * a burst at saturation followed by silence, and its correction for coordinated omission
 * assumes a 1 ms interval, so one slow answer adds a run of made-up slow samples. Here the
 * schedule is the timer's (1 ms granularity: at thousands of units a second, a few units leave
 * together each millisecond) and the latencies are the measured ones. They are measured from
 * the send, not the due time, so that this process's own timer lateness is not charged to the
 * target.
 */
import { Pool } from 'undici';
import { Deadline, exchange } from '../../src/upstream/exchange.ts';
import type { Step } from './load.ts';

export interface PacedOptions {
  url: string;
  /** One unit of work: these requests in order, on one connection's turn each. */
  steps: readonly Step[];
  connections: number;
  unitsPerSecond: number;
  seconds: number;
  /** A 2xx answer that still failed (an MCP tool error). */
  bodyFailed?: (body: string) => boolean;
  /** How long after the last unit is due the unanswered ones are waited for (10 s). */
  drainMs?: number;
  /**
   * Seconds of the same load sent first and left out of the result (0), so that what a target
   * does when load resumes after idling stays out of the figures: the pool's new connections,
   * and a Redis limiter's first call trimming at once every entry that left its minute window
   * meanwhile (docs/performance.md, "Method").
   */
  leadInSeconds?: number;
  /** Called once, when the first measured unit is due (at once without a lead-in). */
  onMeasureStart?: () => void;
}

export interface PacedResult {
  ok: number;
  failed: number;
  /** Units of the lead-in that failed: left out of the figures, but a failure all the same. */
  leadInFailed: number;
  /** Milliseconds from each successful unit's send to its end, in the order they ended. */
  latencies: number[];
  /** One failure, to say why. */
  sample?: string;
}

export async function paced(opts: PacedOptions): Promise<PacedResult> {
  const pool = new Pool(opts.url, { connections: opts.connections, pipelining: 1 });
  const origin = new URL(opts.url).origin;
  // One deadline for the whole run: when it fires, every unit still unanswered is cut short.
  const leadInSeconds = opts.leadInSeconds ?? 0;
  const deadline = new Deadline((leadInSeconds + opts.seconds) * 1000 + (opts.drainMs ?? 10_000));
  const leadIn = Math.round(opts.unitsPerSecond * leadInSeconds);
  const total = Math.max(1, Math.round(opts.unitsPerSecond * opts.seconds));
  const intervalMs = 1000 / opts.unitsPerSecond;
  // Preallocated, no unit's promise kept, and each answer read by the gateway's own lean
  // exchange rather than through a stream: this process must pause as little as possible for
  // its own garbage collection (with undici's request() and every promise kept, its scavenges
  // took 15-20 ms and held up the units due meanwhile).
  const latencies = new Float64Array(total);
  let ok = 0;
  let leadInOk = 0;
  let settled = 0;
  let sample: string | undefined;
  let allSettled = () => {};
  const done = new Promise<void>((resolve) => {
    allSettled = resolve;
  });

  const unit = async (measured: boolean): Promise<void> => {
    const sent = performance.now();
    const context: Record<string, unknown> = {};
    try {
      for (const step of opts.steps) {
        const req = step.setupRequest?.(step, context) ?? step;
        const res = await exchange(
          pool,
          { origin, path: req.path, method: req.method, headers: req.headers ?? {}, body: req.body },
          deadline,
        );
        if (res.status >= 300 || (opts.bodyFailed?.(res.text) ?? false)) {
          sample ??= `HTTP ${res.status} ${req.path}: ${res.text.slice(0, 300)}`;
          return;
        }
        step.onResponse?.(res.status, res.text, context);
      }
      if (measured) latencies[ok++] = performance.now() - sent;
      else leadInOk += 1;
    } catch (err) {
      sample ??= (err as Error).message;
    } finally {
      settled += 1;
      if (settled === leadIn + total) allSettled();
    }
  };

  let started = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      // Every unit due by now starts now, whether or not earlier ones have been answered.
      while (started < leadIn + total && start + started * intervalMs <= performance.now()) {
        if (started === leadIn) opts.onMeasureStart?.();
        started += 1;
        void unit(started > leadIn);
      }
      if (started >= leadIn + total) return resolve();
      setTimeout(tick, Math.max(0, start + started * intervalMs - performance.now()));
    };
    tick();
  });
  // Units still unanswered when the deadline fires fail, like autocannon's timeouts.
  await done;
  deadline.clear();
  await pool.destroy();
  return {
    ok,
    failed: total - ok,
    leadInFailed: leadIn - leadInOk,
    latencies: Array.from(latencies.subarray(0, ok)),
    ...(sample === undefined ? {} : { sample }),
  };
}

/** The p-th percentile (0–100) of values, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}
