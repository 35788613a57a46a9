/** How a benchmark run is chosen from its command line and environment (scripts/bench/options.ts). */
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../scripts/bench/options.ts';

describe('parseOptions', () => {
  it('runs both configurations by default: A unpinned at warn, B pinned at info', () => {
    const o = parseOptions([], {});
    expect(o.configurations).toEqual([
      { name: 'A', logLevel: 'warn', pin: false },
      { name: 'B', logLevel: 'info', pin: true },
    ]);
    expect(o).toMatchObject({ rounds: 3, seconds: 4, connections: 32, warmupSeconds: 10 });
    expect(o.baseline).toBeUndefined();
    expect(o.scenarios).toBeUndefined();
  });

  it('makes a quick run shorter and runs one configuration when asked', () => {
    const o = parseOptions(['--quick', '--config=B'], {});
    expect(o.configurations.map((c) => c.name)).toEqual(['B']);
    expect(o).toMatchObject({ rounds: 1, seconds: 2, warmupSeconds: 1 });
  });

  it('takes the knobs from the environment', () => {
    const o = parseOptions([], {
      BENCH_PIN: '0',
      BENCH_ROUNDS: '5',
      BENCH_SECONDS: '1.5',
      BENCH_SCENARIOS: 'owner-read, public-read,',
      BENCH_BASELINE: 'main',
      BENCH_WARMUP: '20',
    });
    expect(o.configurations[1]).toEqual({ name: 'B', logLevel: 'info', pin: false });
    expect(o).toMatchObject({ rounds: 5, seconds: 1.5, warmupSeconds: 20, scenarios: ['owner-read', 'public-read'], baseline: 'main' });
  });

  it('refuses a knob it cannot read rather than running something else', () => {
    expect(() => parseOptions([], { BENCH_ROUNDS: 'three' })).toThrow(/BENCH_ROUNDS/);
    expect(() => parseOptions([], { BENCH_SECONDS: '0' })).toThrow(/BENCH_SECONDS/);
    expect(() => parseOptions(['--config=C'], {})).toThrow(/--config/);
  });
});
