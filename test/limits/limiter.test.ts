/**
 * The per-key limiter (src/limits/limiter.ts): which windows a class of request is counted in,
 * what it reports to metrics, and that a store which cannot answer lets the request through
 * (logged, counted as skipped) instead of refusing it.
 */
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/limits/limiter.ts';
import { MemoryRateLimitStore, type Consumption, type RateLimitStore } from '../../src/limits/store.ts';
import type { LimitSettings, WindowSpec } from '../../src/limits/windows.ts';
import { Metrics } from '../../src/metrics/metrics.ts';

const SETTINGS: LimitSettings = { readPerMinute: 3, readPerDay: 100, searchPerMinute: 2, writePerMinute: 1, writePerDay: 50 };

function setup(store: RateLimitStore = new MemoryRateLimitStore()) {
  const metrics = new Metrics({ defaultMetrics: false });
  const warnings: { obj: object; msg: string }[] = [];
  const limiter = new RateLimiter(store, SETTINGS, metrics, { warn: (obj, msg) => warnings.push({ obj, msg }) });
  return { limiter, metrics, warnings };
}

/** The limiter's decisions counter, as `window/decision → count`. */
async function decisions(metrics: Metrics): Promise<Record<string, number>> {
  const metric = metrics.registry.getSingleMetric('openpm_rate_limit_decisions_total');
  const out: Record<string, number> = {};
  for (const v of (await metric?.get())?.values ?? []) out[`${String(v.labels['window'])}/${String(v.labels['decision'])}`] = v.value;
  return out;
}

/** A store that records the windows it is asked to consume from and admits everything. */
class RecordingStore implements RateLimitStore {
  readonly calls: { subject: string; windows: string[] }[] = [];
  async consume(subject: string, windows: WindowSpec[]): Promise<Consumption> {
    this.calls.push({ subject, windows: windows.map((w) => `${w.name}:${w.limit}`) });
    return { allowed: true, now: Date.now(), windows: windows.map((spec) => ({ spec, count: 1, oldest: null })) };
  }
}

describe('RateLimiter', () => {
  it('counts each class in the windows its settings give it', async () => {
    const store = new RecordingStore();
    const { limiter } = setup(store);
    await limiter.check('k1', 'read');
    await limiter.check('k1', 'search');
    await limiter.check('k2', 'write');
    expect(store.calls).toEqual([
      { subject: 'k1', windows: ['read_minute:3', 'read_day:100'] },
      { subject: 'k1', windows: ['read_minute:3', 'read_day:100', 'search_minute:2'] },
      { subject: 'k2', windows: ['read_minute:3', 'read_day:100', 'write_minute:1', 'write_day:50'] },
    ]);
  });

  it('admits up to the limit, then refuses naming the window, per key', async () => {
    const { limiter } = setup();
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await limiter.check('k1', 'read'))?.allowed);
    expect(seen).toEqual([true, true, true, false]);
    const refused = await limiter.check('k1', 'read');
    expect(refused).toMatchObject({ allowed: false, refusedBy: 'read_minute' });
    expect(refused?.retryAfter).toBeGreaterThan(0);
    // Another key has its own windows.
    expect((await limiter.check('k2', 'read'))?.allowed).toBe(true);
  });

  it('reports admitted calls under their class and refusals under the refusing window', async () => {
    const { limiter, metrics } = setup();
    await limiter.check('k', 'search');
    await limiter.check('k', 'search');
    await limiter.check('k', 'search'); // the search window (2) refuses; the read window (3) would not
    expect(await decisions(metrics)).toEqual({ 'search/allowed': 2, 'search_minute/limited': 1 });
  });

  it('lets the request through when the store fails: null, a warning and a skipped count', async () => {
    const failing: RateLimitStore = {
      consume: async () => {
        throw new Error('connection is closed');
      },
    };
    const { limiter, metrics, warnings } = setup(failing);
    expect(await limiter.check('k', 'write')).toBeNull();
    expect(warnings).toEqual([
      { obj: { err: 'connection is closed', cls: 'write' }, msg: 'rate limiter unavailable: request not counted' },
    ]);
    expect(await decisions(metrics)).toEqual({ 'write/skipped': 1 });
  });
});
