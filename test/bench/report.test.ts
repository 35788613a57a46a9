/** The benchmark's maths and tables (scripts/bench/report.ts). */
import { describe, expect, it } from 'vitest';
import { configTable, median, ratioByRound, sideBySide, summarise, table, type Run } from '../../scripts/bench/report.ts';

const run = (over: Partial<Run>): Run => ({
  config: 'A',
  round: 0,
  scenario: 'owner-read',
  target: 'gateway',
  requests: 1000,
  failed: 0,
  seconds: 1,
  cpuSeconds: 0.1,
  ...over,
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('ratioByRound', () => {
  it('compares runs of the same round and takes the median over the rounds', () => {
    const mine = [run({ round: 0, requests: 900 }), run({ round: 1, requests: 500 }), run({ round: 2, requests: 1100, cpuSeconds: 0.2 })];
    const theirs = [run({ round: 0 }), run({ round: 1, requests: 1000 }), run({ round: 2, requests: 1000 })];
    const r = ratioByRound(mine, theirs);
    // Throughput 0.9, 0.5, 1.1; CPU per request 0.1/900 ÷ 0.1/1000 = 1.11, 2, 0.2/1100 ÷ 0.1/1000 = 1.82.
    expect(r?.throughput).toBeCloseTo(0.9, 9);
    expect(r?.cpu).toBeCloseTo(0.2 / 1100 / (0.1 / 1000), 9);
  });

  it('leaves out rounds the other side has no run in, and says when none is left', () => {
    expect(ratioByRound([run({ round: 3 })], [run({ round: 0 })])).toBeUndefined();
    expect(ratioByRound([run({ round: 0, requests: 0 })], [run({ round: 0 })])).toBeUndefined();
  });
});

describe('summarise', () => {
  const scenarios = [
    { name: 'owner-read', floor: 'owner-read' },
    { name: 'owner-read-redis', floor: 'owner-read', twin: 'owner-read' },
  ];
  const runs: Run[] = [0, 1].flatMap((round) => [
    run({ round, target: 'proxy', requests: 1000, cpuSeconds: 0.1 }),
    run({ round, requests: 800, cpuSeconds: 0.1 }),
    run({ round, scenario: 'owner-read-redis', requests: 400, cpuSeconds: 0.1 }),
    run({ round, target: 'baseline', requests: 400, cpuSeconds: 0.1 }),
    run({ round, config: 'B', target: 'proxy', requests: 10 }),
  ]);
  const rows = summarise(runs, 'A', scenarios);
  const row = (scenario: string, target: string) => rows.find((r) => r.scenario === scenario && r.target === target)?.figures;

  it('gives each target its throughput and CPU per request, within the configuration asked for', () => {
    expect(row('owner-read', 'proxy')).toMatchObject({ requestsPerSecond: 1000, cpuMicrosPerRequest: 100, failed: 0 });
    expect(row('owner-read', 'gateway')).toMatchObject({ requestsPerSecond: 800, cpuMicrosPerRequest: 125 });
  });

  it('compares the gateway with its floor, its twin and the baseline', () => {
    expect(row('owner-read', 'gateway')?.vsProxy).toEqual({ throughput: 0.8, cpu: 1.25 });
    expect(row('owner-read', 'gateway')?.vsBaseline).toEqual({ throughput: 2, cpu: 0.5 });
    expect(row('owner-read-redis', 'gateway')?.vsTwin).toEqual({ throughput: 0.5, cpu: 2 });
    expect(row('owner-read', 'baseline')?.vsBaseline).toBeUndefined();
  });

  it('prints one table per configuration and the ratios side by side', () => {
    const text = configTable(rows);
    expect(text.split('\n')).toHaveLength(1 + rows.length);
    expect(text).toContain('0.80');
    const both = sideBySide(new Map([['A', rows] as const]));
    expect(both.split('\n')[1]).toMatch(/^owner-read\s+0\.80\s+1\.25$/);
  });
});

describe('table', () => {
  it('lines the columns up, the first to the left and the others to the right', () => {
    expect(
      table([
        ['a', 'bb'],
        ['ccc', 'd'],
      ]),
    ).toBe('a    bb\nccc   d');
  });
});
