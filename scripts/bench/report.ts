/**
 * The maths and the tables of a run: pure functions of the measured runs, so that they can be
 * tested without starting anything.
 *
 * A ratio to the proxy is taken within each round (the gateway and its floor measured seconds
 * apart, on nearly the same machine), and the median over the rounds is reported: a machine
 * whose speed drifts over a run moves the whole-run figures more than these ratios.
 */
import type { ConfigName } from './options.ts';

/** Who served a run: the floor, this checkout's gateway, or the baseline revision's. */
export type Target = 'proxy' | 'gateway' | 'baseline';

export interface Run {
  config: ConfigName;
  round: number;
  /** A scenario's name, or for the proxy its floor's. */
  scenario: string;
  target: Target;
  /** Requests answered 2xx (and, for MCP, without an error in the body). */
  requests: number;
  failed: number;
  seconds: number;
  /** CPU seconds of the process under test during the run. */
  cpuSeconds: number;
}

export interface ScenarioShape {
  name: string;
  floor: string;
  twin?: string;
}

export interface Figures {
  requestsPerSecond: number;
  cpuMicrosPerRequest: number;
  /** Against the floor in the same round, median over the rounds: throughput ×, CPU per request ×. */
  vsProxy?: Ratio;
  /** Against the twin scenario's gateway in the same round. */
  vsTwin?: Ratio;
  /** This checkout against the baseline revision, same scenario and round. */
  vsBaseline?: Ratio;
  failed: number;
}

export interface Ratio {
  throughput: number;
  cpu: number;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const a = [...xs].sort((x, y) => x - y);
  const m = Math.floor(a.length / 2);
  return a.length % 2 === 1 ? (a[m] as number) : ((a[m - 1] as number) + (a[m] as number)) / 2;
}

const rate = (r: Run) => r.requests / r.seconds;
const cpuPer = (r: Run) => r.cpuSeconds / r.requests;

/** Figures of the runs given (one scenario, one target, one configuration). */
export function figuresOf(runs: readonly Run[]): Omit<Figures, 'vsProxy' | 'vsTwin' | 'vsBaseline'> {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  return {
    requestsPerSecond: median(runs.map(rate)),
    cpuMicrosPerRequest: requests === 0 ? Number.NaN : (runs.reduce((n, r) => n + r.cpuSeconds, 0) / requests) * 1e6,
    failed: runs.reduce((n, r) => n + r.failed, 0),
  };
}

/** `mine` against `theirs` round by round (matched by round), median over the rounds matched. */
export function ratioByRound(mine: readonly Run[], theirs: readonly Run[]): Ratio | undefined {
  const pairs = mine.flatMap((m) => {
    const t = theirs.find((x) => x.round === m.round);
    return t === undefined || t.requests === 0 || m.requests === 0 ? [] : [[m, t] as const];
  });
  if (pairs.length === 0) return undefined;
  return {
    throughput: median(pairs.map(([m, t]) => rate(m) / rate(t))),
    cpu: median(pairs.map(([m, t]) => cpuPer(m) / cpuPer(t))),
  };
}

/** Every scenario's figures in one configuration, for this checkout's gateway and the baseline's. */
export function summarise(
  runs: readonly Run[],
  config: ConfigName,
  scenarios: readonly ScenarioShape[],
): { scenario: string; target: Target; figures: Figures }[] {
  const pick = (scenario: string, target: Target) =>
    runs.filter((r) => r.config === config && r.scenario === scenario && r.target === target);
  const out: { scenario: string; target: Target; figures: Figures }[] = [];
  for (const floor of new Set(scenarios.map((s) => s.floor))) {
    const proxy = pick(floor, 'proxy');
    if (proxy.length > 0) out.push({ scenario: floor, target: 'proxy', figures: figuresOf(proxy) });
  }
  for (const s of scenarios) {
    for (const target of ['gateway', 'baseline'] as const) {
      const mine = pick(s.name, target);
      if (mine.length === 0) continue;
      const vsProxy = ratioByRound(mine, pick(s.floor, 'proxy'));
      const vsTwin = s.twin === undefined ? undefined : ratioByRound(mine, pick(s.twin, target));
      const vsBaseline = target === 'gateway' ? ratioByRound(mine, pick(s.name, 'baseline')) : undefined;
      out.push({
        scenario: s.name,
        target,
        figures: {
          ...figuresOf(mine),
          ...(vsProxy === undefined ? {} : { vsProxy }),
          ...(vsTwin === undefined ? {} : { vsTwin }),
          ...(vsBaseline === undefined ? {} : { vsBaseline }),
        },
      });
    }
  }
  return out;
}

/** A figure for print: `d` decimals, '-' when there is none. */
export function fx(x: number | undefined, d = 2): string {
  return x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(d);
}

/** Rows of cells as columns: the first left-aligned, the others right-aligned. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, c] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, c.length);
  }
  return rows.map((row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')).join('\n');
}

const ratioCells = (r: Ratio | undefined) => [fx(r?.throughput), fx(r?.cpu)];

/** One configuration's table: every target's throughput and CPU, and its ratios. */
export function configTable(rows: ReturnType<typeof summarise>): string {
  return table([
    [
      'scenario',
      'target',
      'req/s',
      'CPU µs',
      '×proxy req/s',
      '×proxy CPU',
      '×twin req/s',
      '×twin CPU',
      '×baseline req/s',
      '×baseline CPU',
      'failed',
    ],
    ...rows.map(({ scenario, target, figures: f }) => [
      scenario,
      target,
      fx(f.requestsPerSecond, 0),
      fx(f.cpuMicrosPerRequest, 0),
      ...ratioCells(f.vsProxy),
      ...ratioCells(f.vsTwin),
      ...ratioCells(f.vsBaseline),
      String(f.failed),
    ]),
  ]);
}

/** The gateway's ratios to the proxy in every configuration, side by side. */
export function sideBySide(byConfig: ReadonlyMap<ConfigName, ReturnType<typeof summarise>>): string {
  const configs = [...byConfig.keys()];
  const names = [...new Set([...byConfig.values()].flatMap((rows) => rows.filter((r) => r.target === 'gateway').map((r) => r.scenario)))];
  return table([
    ['gateway ×proxy', ...configs.flatMap((c) => [`${c} req/s`, `${c} CPU`])],
    ...names.map((name) => [
      name,
      ...configs.flatMap((c) => ratioCells(byConfig.get(c)?.find((r) => r.scenario === name && r.target === 'gateway')?.figures.vsProxy)),
    ]),
  ]);
}
