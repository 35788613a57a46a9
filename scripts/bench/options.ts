/**
 * What a benchmark run does, from its command line and a few environment variables. Pure, so
 * that it can be tested without starting anything.
 *
 *   npm run bench                       both configurations, 3 rounds of 4 s
 *   npm run bench -- --quick            1 round of 2 s (a smoke run, not figures)
 *   npm run bench -- --config=A         one configuration only (A or B)
 *   BENCH_SCENARIOS=owner-read,public-read   a subset of the scenarios
 *   BENCH_BASELINE=<git rev>            that revision's gateways beside these, in the same rounds
 *   BENCH_PIN=0                         configuration B without CPU pinning
 *   BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_WARMUP (seconds per target)
 */

/**
 * A: every process unpinned, logging at `warn` (no request lines) on both sides: what the
 * gateway's own work costs. B: the process under test pinned to a core of its own, the others
 * to the rest, request lines at `info` on both sides: as a replica runs in production.
 */
export type ConfigName = 'A' | 'B';

export interface Configuration {
  name: ConfigName;
  logLevel: 'warn' | 'info';
  pin: boolean;
}

export interface Options {
  configurations: Configuration[];
  rounds: number;
  seconds: number;
  connections: number;
  /** Seconds of load per scenario and target before the timed rounds, for the JIT to settle. */
  warmupSeconds: number;
  /** Scenario names to run; undefined: all. */
  scenarios?: string[];
  /** A git revision whose gateway runs beside this checkout's, in-memory. */
  baseline?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A positive number from the environment, or the fallback when unset; anything else is refused. */
function positive(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return n;
}

export function parseOptions(argv: readonly string[], env: Env): Options {
  const quick = argv.includes('--quick');
  const chosen = argv.find((a) => a.startsWith('--config='))?.slice('--config='.length);
  if (chosen !== undefined && chosen !== 'A' && chosen !== 'B') throw new Error(`--config must be A or B, not "${chosen}"`);
  const pinB = env['BENCH_PIN'] !== '0';
  const all: Configuration[] = [
    { name: 'A', logLevel: 'warn', pin: false },
    { name: 'B', logLevel: 'info', pin: pinB },
  ];
  const scenarios = env['BENCH_SCENARIOS']
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const baseline = env['BENCH_BASELINE']?.trim();
  return {
    configurations: all.filter((c) => chosen === undefined || c.name === chosen),
    rounds: Math.round(positive(env, 'BENCH_ROUNDS', quick ? 1 : 3)),
    seconds: positive(env, 'BENCH_SECONDS', quick ? 2 : 4),
    connections: Math.round(positive(env, 'BENCH_CONNECTIONS', 32)),
    // After 4 s, a gateway's first timed round still ran up to 40% slower than the next (its JIT
    // still settling), the tracing ones most (docs/performance.md, Method).
    warmupSeconds: positive(env, 'BENCH_WARMUP', quick ? 1 : 10),
    ...(scenarios === undefined || scenarios.length === 0 ? {} : { scenarios }),
    ...(baseline === undefined || baseline === '' ? {} : { baseline }),
  };
}
