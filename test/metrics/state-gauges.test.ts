/**
 * The state gauges the chart's alerts watch: read from their sources at every scrape, so each
 * scrape tells the state of that moment (breaker, kill switch, Redis), and the Redis gauge
 * exists only where Redis is configured.
 */
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../src/metrics/metrics.ts';

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('state gauges', () => {
  it('follow the breaker, the kill switch and Redis from one scrape to the next', async () => {
    let breaker: 'closed' | 'open' | 'half-open' = 'closed';
    let mode: 'off' | 'all' | 'writes' = 'off';
    let up = true;
    const metrics = new Metrics({ defaultMetrics: false });
    metrics.watch({ breaker: () => breaker, killSwitch: () => mode, redis: async () => up });

    let text = await metrics.registry.metrics();
    expect(sample(text, 'openpm_upstream_circuit_open')).toBe(0);
    expect(sample(text, 'openpm_kill_switch_state{mode="off"}')).toBe(1);
    expect(sample(text, 'openpm_kill_switch_state{mode="all"}')).toBe(0);
    expect(sample(text, 'openpm_redis_up')).toBe(1);

    breaker = 'open';
    mode = 'writes';
    up = false;
    text = await metrics.registry.metrics();
    expect(sample(text, 'openpm_upstream_circuit_open')).toBe(1);
    expect(sample(text, 'openpm_kill_switch_state{mode="off"}')).toBe(0);
    expect(sample(text, 'openpm_kill_switch_state{mode="writes"}')).toBe(1);
    expect(sample(text, 'openpm_redis_up')).toBe(0);

    breaker = 'half-open'; // still refusing all but the probe
    expect(sample(await metrics.registry.metrics(), 'openpm_upstream_circuit_open')).toBe(1);
  });

  it('has no Redis gauge without Redis', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    metrics.watch({ breaker: () => 'closed', killSwitch: () => 'off', redis: null });
    expect(await metrics.registry.metrics()).not.toContain('openpm_redis_up');
  });
});
