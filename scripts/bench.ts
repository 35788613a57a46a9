/**
 * The gateway next to a bare proxy, measured in one run (docs/performance.md).
 *
 * Starts, each as its own process: the sandbox backend, a redis-server of its own, a bare
 * `@fastify/http-proxy` passthrough to the backend (the floor), and the gateway twice (in-memory
 * with limits off; Redis with limits on, raised so nothing is refused). Then, per scenario:
 *
 * - every target on CPU 0, the backend, redis-server and the load generator on the others;
 * - first, a warm-up: every scenario on every target, in passes, until the target's JIT has
 *   settled (its V8 worker threads nearly idle), so the timed runs see steady-state code;
 * - before each round, a fixed piece of CPU work on CPU 0: when its time varies over the run
 *   by more than BENCH_STEADY_SPREAD (1.15×), the summary says the machine was unsteady;
 * - throughput with 32 connections, in interleaved rounds (every target once per round, the
 *   order rotating), so load from elsewhere on the machine falls on all of them alike, and
 *   the ratios to the proxy round by round;
 * - CPU per request of the process under test, from /proc/<pid>/stat;
 * - p50/p99 latency at a fixed rate of half the slowest target's throughput, the same rate for
 *   every target, evenly paced and open loop (bench/paced.ts), in rounds too (BENCH_RATE_ROUNDS,
 *   3, of 1 s, each after a lead-in of BENCH_RATE_LEAD_IN_SECONDS, 0.2, of the same load left
 *   out; percentiles over the units of all rounds), with the CPU and the read and write
 *   system calls per unit of the process under test at that rate, and beside each owner-read
 *   round how long the backend's, this process's and a gateway's own event loops were held
 *   up, redis-server's longest command and the gateway's full garbage collections (whose
 *   slowness a slow round was), with each gateway's full collections over all those runs; an
 *   owner-read round in which the backend or this process stalled (BENCH_STALL_MS, 10) is run
 *   once more and the repeat counts (BENCH_STALL_REPEATS, 4, at most per run, and only while
 *   the time budget has room);
 * - Redis commands per request (INFO commandstats) and round trips (a short MONITOR pass);
 * - peak RSS of each process at the end (VmHWM), and its RSS after the warm-up and at the end,
 *   for a gateway with the part outside V8's heap (memory kept growing shows there).
 *
 * It asserts nothing. Figures go to stdout and, raw, to bench-results/bench-<time>.json.
 *
 *   npm run bench                      # warm-up, then 3 rounds of 3 s (about 4.8 minutes on 2 cores, held under five)
 *   npm run bench -- --quick           # 1 round of 2 s (about 2 minutes)
 *   BENCH_ROUNDS, BENCH_SECONDS, BENCH_RATE_ROUNDS, BENCH_RATE_SECONDS, BENCH_CONNECTIONS,
 *   BENCH_WARMUP_SECONDS (per scenario and pass, 0.8), BENCH_WARMUP_PASSES (at most, 8),
 *   BENCH_WARMUP_MAX_SECONDS (per target, 25),
 *   BENCH_JIT_QUIET (settled below this share of a core, 0.05), BENCH_PIN=0 (no CPU pinning),
 *   BENCH_STEADY_SPREAD (1.15), BENCH_STALL_MS (10; 0: no round run again), BENCH_STALL_REPEATS (4),
 *   BENCH_BUDGET_SECONDS (285, none with a baseline: the timed rounds end by then; warm-ups and
 *   repeated rounds take only what it leaves, bench/budget.ts),
 *   BENCH_SCENARIOS=me,positions (a subset), BENCH_LOG_LEVEL (info), BENCH_PROFILE=1
 *   (the gateways run with --cpu-prof and --heapsnapshot-signal; profiles under bench-results/),
 *   BENCH_GC_TRACE=1 (V8's trace of the gateways' full collections) or =promotion (of what each
 *   collection promoted and of pretenuring; bench/gc-trace.ts), in bench-results/gc-trace-<time>.txt,
 *   BENCH_BASELINE=<directory of another checkout> (a fourth target: that gateway, in-memory,
 *   in the same interleaved rounds; how each optimisation was measured against its parent),
 *   BENCH_BASELINE_REDIS=1 (the baseline runs with Redis and limits, like the redis target,
 *   under its own key prefix, and is compared with that target),
 *   BENCH_BASELINE_FLAGS="--max-semi-space-size=64" (node flags of the baseline gateway
 *   instead of its checkout's `npm start` flags; a V8 flag in NODE_OPTIONS would lose to them),
 *   BENCH_BASELINE_ENV=LOG_LEVEL=warn (environment of the baseline gateway only; with
 *   BENCH_BASELINE=. it measures what one setting costs)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { USERS } from '../sandbox/ids.ts';
import { fits, rateRunSeconds, timedSeconds, warmUpAllowance, type TimedPlan } from './bench/budget.ts';
import { load, type LoadResult } from './bench/load.ts';
import { paced, percentile } from './bench/paced.ts';
import {
  cpuSeconds,
  describeWarmUp,
  freePort,
  peakRssMb,
  rssMb,
  canPin,
  pinToCpus,
  referenceWorkMs,
  spawnChild,
  startFlags,
  systemCalls,
  warmUntilSettled,
  type Child,
  type WarmUp,
} from './bench/processes.ts';
import { commandDelta, commandStats, longestCommandMs, roundTrips, total, type CommandCounts } from './bench/redis.ts';
import { envSettings, gatewayEnv, gatewayRecord, limitedRedisEnv, spawnProxy, spawnSandbox } from './bench/parties.ts';
import { GC_TRACE_FLAGS, GcTrace, gcTraceMode } from './bench/gc-trace.ts';
import { SCENARIOS, SERVICE_TOKEN, mcpFailed, type Scenario } from './bench/scenarios.ts';
import { stalledOutsideTarget } from './bench/stalls.ts';

const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? Number.NaN);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const settings = {
  rounds: num('BENCH_ROUNDS', quick ? 1 : 3),
  seconds: num('BENCH_SECONDS', quick ? 2 : 3),
  rateSeconds: num('BENCH_RATE_SECONDS', quick ? 2 : 1),
  rateRounds: num('BENCH_RATE_ROUNDS', quick ? 1 : 3),
  /** Seconds of each rate run sent before the measured ones and left out (paced.ts, leadInSeconds). */
  rateLeadInSeconds:
    process.env.BENCH_RATE_LEAD_IN_SECONDS === undefined ? 0.2 : Math.max(0, Number(process.env.BENCH_RATE_LEAD_IN_SECONDS) || 0),
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 0.8),
  /** Passes of every scenario at most, per target, before its JIT counts as settled. */
  warmupPasses: num('BENCH_WARMUP_PASSES', quick ? 2 : 8),
  /**
   * Seconds of warm-up at most, per target: a pass that would end later is not started. Three
   * passes (the usual) take about 21 s for a gateway; this keeps a whole run under five minutes
   * when the compilers do not quieten.
   */
  warmupMaxSeconds: num('BENCH_WARMUP_MAX_SECONDS', 25),
  /** Settled: V8 worker threads below this share of a core over a warm-up pass. */
  jitQuiet: num('BENCH_JIT_QUIET', 0.05),
  connections: num('BENCH_CONNECTIONS', 32),
  /** Owner-read rate rounds with the backend or this process held up longer (ms) run again (0: never). */
  stallMs: process.env.BENCH_STALL_MS === undefined ? 10 : Math.max(0, Number(process.env.BENCH_STALL_MS) || 0),
  /** Repeated owner-read rounds at most, per run (each costs about 1.4 s). */
  stallRepeats: num('BENCH_STALL_REPEATS', 4),
  /**
   * Seconds from the start by which the last timed round ends (bench/budget.ts); the Redis round
   * trips, the report and the shutdown after it take about 7 s. A run with a baseline has a
   * fourth target and is not held to five minutes.
   */
  budgetSeconds: num('BENCH_BUDGET_SECONDS', process.env.BENCH_BASELINE === undefined ? 285 : Number.POSITIVE_INFINITY),
  /** A run is steady when the reference work's slowest time is within this factor of its fastest. */
  steadySpread: num('BENCH_STEADY_SPREAD', 1.15),
  /** Pin the process under test to CPU 0 and the others to the remaining CPUs (BENCH_PIN=0: off). */
  pin: process.env.BENCH_PIN !== '0',
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
  profile: process.env.BENCH_PROFILE === '1',
  /** Each gateway's collections as V8 reports them, with the runs marked (bench/gc-trace.ts). */
  gcTrace: gcTraceMode(process.env.BENCH_GC_TRACE),
};
const only = process.env.BENCH_SCENARIOS?.split(',').map((s) => s.trim());
const scenarios = SCENARIOS.filter((s) => only === undefined || only.includes(s.name) || only.includes(s.name.split(' ')[0] ?? ''));

type TargetName = 'proxy' | 'memory' | 'redis' | 'baseline';
/** Another checkout of the gateway (a directory), run in-memory next to this one: before/after in one run. */
const baselineDir = process.env.BENCH_BASELINE;
/** The baseline as a Redis gateway (compared with `redis`) rather than in-memory (compared with `memory`). */
const baselineRedis = process.env.BENCH_BASELINE_REDIS === '1';
const baselineTwin: 'memory' | 'redis' = baselineRedis ? 'redis' : 'memory';
/**
 * Node flags of the baseline instead of its start script's: flags on the command line win over
 * NODE_OPTIONS, so a V8 setting is compared here rather than through BENCH_BASELINE_ENV.
 */
const baselineFlags = process.env.BENCH_BASELINE_FLAGS?.split(/\s+/).filter((f) => f !== '');
/** BENCH_BASELINE_ENV=LOG_LEVEL=warn,… : settings of the baseline gateway only (what a setting costs). */
const baselineEnv = (): Record<string, string> => envSettings(process.env.BENCH_BASELINE_ENV);
const TARGETS: readonly TargetName[] = baselineDir === undefined ? ['proxy', 'memory', 'redis'] : ['proxy', 'memory', 'baseline', 'redis'];

interface Round {
  target: TargetName;
  scenario: string;
  round: number;
  unitsPerSecond: number;
  units: number;
  failed: number;
  cpuSeconds: number;
  /** CPU of the other processes during the run: the backend, the load generator (this process), redis-server. */
  others: { backend: number; generator: number; redis: number };
  redisCommands?: CommandCounts;
}

const started = Date.now();
const outDir = 'bench-results';
mkdirSync(`${outDir}/profiles`, { recursive: true });
const log = (line: string) => process.stdout.write(`${line}\n`);
const gcTrace =
  settings.gcTrace === undefined
    ? undefined
    : new GcTrace(`${outDir}/gc-trace-${new Date(started).toISOString().replace(/[:.]/g, '-')}.txt`, started, settings.gcTrace);
/** A figure for print: `d` decimals, or '-' when there is none. */
const fx = (x: number | undefined, d = 2) => (x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(d));

// ---------------------------------------------------------------------------------------------
// Processes

const children: Child[] = [];
async function start(): Promise<
  Record<Exclude<TargetName, 'baseline'>, Child> & {
    baseline?: Child;
    redisUrl: string;
    adminUrls: Partial<Record<TargetName, string>>;
    sandbox: Child;
    redisServer: Child;
  }
> {
  const redisPort = await freePort();
  const redisServer = await spawnChild({
    name: 'redis-server',
    command: 'redis-server',
    // Commands of 1 ms or more are recorded, to show the server's own stalls in the latency rounds.
    args: ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--latency-monitor-threshold', '1'],
    env: {},
    port: redisPort,
    tcpReady: true,
  });
  children.push(redisServer);
  const redisUrl = `redis://127.0.0.1:${redisPort}`;

  const sandbox = await spawnSandbox();
  children.push(sandbox);
  const proxy = await spawnProxy(sandbox.url, settings.logLevel);
  children.push(proxy);

  const gatewayEnvironment = gatewayEnv(sandbox.url, settings.logLevel);
  const redisGatewayEnv = limitedRedisEnv(redisUrl);
  // A gateway's diagnostic flags and output: CPU profiles, and V8's trace of its full collections.
  const traced = (name: string) => (gcTrace === undefined ? {} : { onLine: (line: string) => gcTrace.line(name, line) });
  const profileFlags = (name: string) =>
    settings.profile
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${outDir}/profiles`,
          `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`,
          '--heapsnapshot-signal=SIGUSR2',
          `--diagnostic-dir=${outDir}/profiles`,
        ]
      : [];
  const diagnosticFlags = (name: string) => [...(gcTrace === undefined ? [] : GC_TRACE_FLAGS[gcTrace.mode]), ...profileFlags(name)];
  // Each gateway's admin port, for its /metrics (its own event-loop record in the latency rounds).
  const adminUrls: Partial<Record<TargetName, string>> = {};
  const adminPort = async (t: TargetName) => {
    const port = await freePort();
    adminUrls[t] = `http://127.0.0.1:${port}`;
    return String(port);
  };
  const memoryPort = await freePort();
  const memory = await spawnChild({
    name: 'gateway (memory)',
    args: ['src/server.ts'],
    nodeFlags: [...startFlags(), ...diagnosticFlags('memory')],
    ...traced('memory'),
    env: { ...gatewayEnvironment, PORT: String(memoryPort), ADMIN_PORT: await adminPort('memory'), RATE_LIMITS: 'off' },
    port: memoryPort,
    readyPath: '/livez',
  });
  children.push(memory);

  let baseline: Child | undefined;
  if (baselineDir !== undefined) {
    const baselinePort = await freePort();
    baseline = await spawnChild({
      name: 'gateway (baseline)',
      args: [`${baselineDir}/src/server.ts`],
      nodeFlags: [...(baselineFlags ?? startFlags(baselineDir)), ...diagnosticFlags('baseline')],
      ...traced('baseline'),
      env: {
        ...gatewayEnvironment,
        PORT: String(baselinePort),
        ADMIN_PORT: await adminPort('baseline'),
        ...(baselineRedis ? { ...redisGatewayEnv, REDIS_KEY_PREFIX: 'bench-baseline:' } : { RATE_LIMITS: 'off' }),
        ...baselineEnv(),
      },
      port: baselinePort,
      readyPath: '/livez',
    });
    children.push(baseline);
  }

  const redisGatewayPort = await freePort();
  const redis = await spawnChild({
    name: 'gateway (redis)',
    args: ['src/server.ts'],
    nodeFlags: [...startFlags(), ...diagnosticFlags('redis')],
    ...traced('redis'),
    env: { ...gatewayEnvironment, PORT: String(redisGatewayPort), ADMIN_PORT: await adminPort('redis'), ...redisGatewayEnv },
    port: redisGatewayPort,
    readyPath: '/livez',
  });
  children.push(redis);
  return { proxy, memory, redis, redisUrl, adminUrls, sandbox, redisServer, ...(baseline === undefined ? {} : { baseline }) };
}

async function stopAll(): Promise<void> {
  for (const c of children.reverse()) await c.stop().catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------
// Measuring

const procs: Partial<Record<TargetName, Child>> & {
  redis: Child;
  memory: Child;
  proxy: Child;
  redisUrl: string;
  adminUrls: Partial<Record<TargetName, string>>;
  sandbox: Child;
  redisServer: Child;
} = await start().catch(async (err: unknown) => {
  await stopAll();
  throw err;
});
process.on('SIGINT', () => {
  void stopAll().then(() => process.exit(130));
});

// The process under test gets a core of its own, and everything else (the backend, redis-server,
// this load generator) the others, so every target meets the same placement, as a replica in
// production has its own CPU with the backend and Redis elsewhere. (It did not make runs
// steadier on the machine of docs/performance.md: that drift comes from outside.)
const cpuCount = availableParallelism();
const pinned = settings.pin && cpuCount >= 2 && canPin();
if (settings.pin && cpuCount >= 2 && !pinned) log('taskset (util-linux) not found: no CPU pinning');
if (pinned) {
  const rest = cpuCount === 2 ? '1' : `1-${cpuCount - 1}`;
  for (const t of TARGETS) pinToCpus((procs[t] as Child).pid, '0');
  for (const other of [procs.sandbox, procs.redisServer]) pinToCpus(other.pid, rest);
  pinToCpus(process.pid, rest);
}
const redisClient = new Redis(procs.redisUrl);

// Opinions cost coins; enough for any run.
await fetch(`${procs.sandbox.url}/sandbox/admin/wallet/grant`, {
  method: 'POST',
  headers: { 'x-service-token': SERVICE_TOKEN, 'content-type': 'application/json' },
  body: JSON.stringify({ userId: USERS.alice, currency: 'COIN', amount: 100_000_000 }),
}).then((r) => r.arrayBuffer());

/**
 * CPU seconds so far of the processes that share the machine with the one under test. The
 * throughput ratios depend on them too: on two cores, what the backend and the load generator
 * spend per request is taken from the target's share.
 */
function otherCpu(): { backend: number; generator: number; redis: number } {
  const self = process.cpuUsage();
  return {
    backend: cpuSeconds(procs.sandbox.pid),
    generator: (self.user + self.system) / 1e6,
    redis: cpuSeconds(procs.redisServer.pid),
  };
}

const stepsOf = (s: Scenario, t: TargetName) => (t === 'proxy' ? s.proxy : s.gateway);
const targetsOf = (s: Scenario) => TARGETS.filter((t) => stepsOf(s, t) !== undefined && !(t === 'proxy' && s.proxyOf !== undefined));
const isMcp = (s: Scenario) => s.gateway[0]?.path === '/mcp';

function drive(s: Scenario, t: TargetName, extra: { duration?: number; amount?: number; connections?: number }): Promise<LoadResult> {
  const steps = stepsOf(s, t) ?? [];
  return load({
    url: (procs[t] as Child).url,
    steps,
    connections: extra.connections ?? settings.connections,
    duration: extra.duration,
    amount: extra.amount,
    ...(isMcp(s) && t !== 'proxy' ? { bodyFailed: mcpFailed } : {}),
  });
}

log(
  `bench: ${settings.rounds} round(s) of ${settings.seconds} s, ${settings.connections} connections, ${settings.rateRounds} round(s) of rate runs of ${settings.rateSeconds} s after ${settings.rateLeadInSeconds} s unmeasured${settings.stallMs > 0 ? ` (an owner-read round with the backend or the load generator held up over ${settings.stallMs} ms run again, ${settings.stallRepeats} at most)` : ''}, log level ${settings.logLevel}${settings.gcTrace === undefined ? '' : `, V8 tracing the gateways' ${settings.gcTrace === 'promotion' ? 'promotion and pretenuring' : 'full collections'} (its printing costs them CPU)`}`,
);
log(
  `machine: ${cpuCount} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${pinned ? 'process under test on CPU 0, the others on the rest' : 'no CPU pinning'}`,
);

// Sanity and warm-up. Every target answers every scenario correctly before anything is timed,
// and goes on serving them, in passes of every scenario, until its JIT has settled: until its
// V8 worker threads (the optimising compilers, and concurrent GC) use less than
// settings.jitQuiet of a core over a pass. From a cold start the gateway's compilers keep a
// fifth to a third of a core busy for 15–20 s of load, and the proxy's (less code) for less:
// counted in the timed rounds, that start-up cost would read as CPU per request, and more so
// for the gateway. Each target's warm-up is printed and kept in the raw figures.
const warmups: Partial<Record<TargetName, WarmUp>> = {};
const plan: TimedPlan = {
  runsPerRound: scenarios.reduce((n, s) => n + targetsOf(s).length, 0),
  rounds: settings.rounds,
  seconds: settings.seconds,
  rateRounds: settings.rateRounds,
  rateSeconds: settings.rateSeconds,
  leadInSeconds: settings.rateLeadInSeconds,
};
/** Seconds left of the budget (bench/budget.ts). */
const secondsLeft = () => settings.budgetSeconds - (Date.now() - started) / 1000;
for (const [i, t] of TARGETS.entries()) {
  const served = scenarios.filter((s) => targetsOf(s).includes(t));
  const w = await warmUntilSettled(
    (procs[t] as Child).pid,
    async () => {
      for (const s of served) {
        const r = await drive(s, t, { duration: settings.warmupSeconds });
        if (r.ok === 0 || r.failed > 0) throw new Error(`${s.name} on ${t}: ${r.failed} failed, ${r.ok} ok; ${r.sample ?? ''}`);
      }
    },
    settings.jitQuiet,
    settings.warmupPasses,
    warmUpAllowance(secondsLeft(), timedSeconds(plan), TARGETS.length - i, settings.warmupMaxSeconds),
  );
  warmups[t] = w;
  log(describeWarmUp(t, w));
}

/**
 * Each process's resident memory now, and for a gateway the part outside V8's heap (from its
 * metrics): taken after the warm-up and again at the end, so that memory a process keeps
 * growing under load shows apart from its peak (VmHWM), which a growing young generation or a
 * late full collection also raises.
 */
interface MemoryNow {
  rssMb: number;
  outsideHeapMb?: number;
}
async function memoryNow(): Promise<Partial<Record<TargetName, MemoryNow>>> {
  const out: Partial<Record<TargetName, MemoryNow>> = {};
  for (const t of TARGETS) {
    const adminUrl = procs.adminUrls[t];
    const outside = adminUrl === undefined ? undefined : (await gatewayRecord(adminUrl)).outsideHeapMb;
    out[t] = { rssMb: rssMb((procs[t] as Child).pid), ...(outside === undefined ? {} : { outsideHeapMb: outside }) };
  }
  return out;
}
const memoryAfterWarmUp = await memoryNow();

const rounds: Round[] = [];
/** CPU ms of a fixed piece of work on the targets' CPU before each round, and after the last. */
const reference: number[] = [];
const measureReference = () => reference.push(referenceWorkMs(pinned ? '0' : undefined));
for (let round = 0; round < settings.rounds; round++) {
  measureReference();
  for (const s of scenarios) {
    const targets = targetsOf(s);
    // Rotate the order each round, so no target is always first after a pause.
    const order = targets.map((_, i) => targets[(i + round) % targets.length] as TargetName);
    for (const t of order) {
      const pid = (procs[t] as Child).pid;
      const statsBefore = t === 'redis' ? await commandStats(redisClient) : undefined;
      const cpuBefore = cpuSeconds(pid);
      const othersBefore = otherCpu();
      gcTrace?.mark(`${s.name} on ${t}, saturation round ${round + 1}`);
      const r = await drive(s, t, { duration: settings.seconds });
      gcTrace?.mark('end');
      const cpu = cpuSeconds(pid) - cpuBefore;
      const othersAfter = otherCpu();
      const units = r.ok / s.requestsPerUnit;
      const entry: Round = {
        target: t,
        scenario: s.name,
        round,
        unitsPerSecond: units / r.seconds,
        units,
        failed: r.failed,
        cpuSeconds: cpu,
        others: {
          backend: othersAfter.backend - othersBefore.backend,
          generator: othersAfter.generator - othersBefore.generator,
          redis: othersAfter.redis - othersBefore.redis,
        },
      };
      if (statsBefore !== undefined) entry.redisCommands = commandDelta(statsBefore, await commandStats(redisClient));
      rounds.push(entry);
      if (r.failed > 0) {
        log(`  warning: ${s.name} on ${t}: ${r.failed} failed (${r.sample ?? ''})`);
        for (const line of procs[t]?.errors.splice(0) ?? []) log(`    logged: ${line}`);
      }
    }
  }
  log(
    `round ${round + 1}/${settings.rounds} done (${((Date.now() - started) / 1000).toFixed(0)} s); reference work before it: ${fx(reference[round], 0)} ms of CPU`,
  );
}

interface Figures {
  unitsPerSecond: number;
  cpuMicrosPerUnit: number;
  /** Milliseconds, over the units of all latency rounds, at `rate`. */
  p50?: number;
  p99?: number;
  /** Units per second of the paced latency runs: half the slowest target's throughput. */
  rate?: number;
  /** CPU per unit during the fixed-rate run: every target under the same load. */
  cpuMicrosAtRate?: number;
  /** Read and write system calls per unit during the fixed-rate run (all the process's threads). */
  systemCallsAtRate?: { reads: number; writes: number };
  /** CPU per unit of the backend, the load generator and redis-server during the saturation runs. */
  othersMicrosPerUnit: { backend: number; generator: number; redis: number };
  /**
   * Throughput and CPU per unit against the proxy's in the same round, median over the rounds.
   * The machine's speed drifts over a run (the proxy's CPU per owner read went 105 → 139 →
   * 202 µs over the three rounds of one run); targets measured seconds apart in one round see
   * nearly the same machine, so these ratios move less than those of the whole-run figures.
   */
  perRound?: { throughput: number; cpu: number };
  redisCommandsPerUnit?: number;
  redisCommands?: CommandCounts;
  roundTripsPerUnit?: number;
  roundTrips?: CommandCounts;
}
const figures: Record<string, Partial<Record<TargetName, Figures>>> = {};
const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  const m = Math.floor(a.length / 2);
  return a.length % 2 === 1 ? (a[m] as number) : ((a[m - 1] as number) + (a[m] as number)) / 2;
};
for (const s of scenarios) {
  figures[s.name] = {};
  for (const t of targetsOf(s)) {
    const mine = rounds.filter((r) => r.scenario === s.name && r.target === t);
    const units = mine.reduce((a, r) => a + r.units, 0);
    const f: Figures = {
      unitsPerSecond: median(mine.map((r) => r.unitsPerSecond)),
      cpuMicrosPerUnit: (mine.reduce((a, r) => a + r.cpuSeconds, 0) / units) * 1e6,
      othersMicrosPerUnit: {
        backend: (mine.reduce((a, r) => a + r.others.backend, 0) / units) * 1e6,
        generator: (mine.reduce((a, r) => a + r.others.generator, 0) / units) * 1e6,
        redis: (mine.reduce((a, r) => a + r.others.redis, 0) / units) * 1e6,
      },
    };
    if (t === 'redis') {
      const sum: CommandCounts = {};
      for (const r of mine) for (const [k, v] of Object.entries(r.redisCommands ?? {})) sum[k] = (sum[k] ?? 0) + v;
      f.redisCommands = Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, round2(v / units)]));
      f.redisCommandsPerUnit = total(sum) / units;
    }
    (figures[s.name] as Record<TargetName, Figures>)[t] = f;
  }
}

for (const s of scenarios) {
  const floorName = s.proxyOf ?? s.name;
  for (const t of targetsOf(s)) {
    if (t === 'proxy') continue;
    const pairs = rounds
      .filter((r) => r.scenario === s.name && r.target === t)
      .map((r) => [r, rounds.find((p) => p.scenario === floorName && p.target === 'proxy' && p.round === r.round)] as const)
      .filter((pair): pair is readonly [Round, Round] => pair[1] !== undefined);
    if (pairs.length === 0) continue;
    (figures[s.name]?.[t] as Figures).perRound = {
      throughput: median(pairs.map(([r, p]) => r.unitsPerSecond / p.unitsPerSecond)),
      cpu: median(pairs.map(([r, p]) => r.cpuSeconds / r.units / (p.cpuSeconds / p.units))),
    };
  }
}

// Latency at a fixed rate: half of the slowest target's throughput (a gateway's, but for the
// topic read, where the proxy is the slowest), for every target alike, in rounds like the
// saturation runs (the order rotating). The load is open loop and evenly paced
// (bench/paced.ts): a rate above a target's capacity would only measure its growing queue.
// p50 and p99 are taken over the units of all rounds together, so a pause counts as often as
// it happens instead of deciding a round's p99 whenever it falls in one.
const rateOf = (s: Scenario) => {
  const fs = figures[s.name] as Partial<Record<TargetName, Figures>>;
  return Math.max(1, Math.floor(Math.min(...targetsOf(s).map((t) => fs[t]?.unitsPerSecond ?? Infinity)) / 2));
};
interface LatencyRound {
  scenario: string;
  target: TargetName;
  round: number;
  p50: number;
  p99: number;
  cpuSeconds: number;
  units: number;
  systemCalls: { reads: number; writes: number };
  /**
   * The longest the backend's and this process's event loops were held up during the run (ms,
   * sampled every 5 ms). On two cores they share one, and a round in which either stalled
   * takes that stall in the target's p99 whatever the target did (docs/performance.md).
   */
  backendLoopMaxMs: number;
  generatorLoopMaxMs: number;
  /** A gateway's rounds: the longest its own event loop was held up (ms; resolution 10 ms). */
  targetLoopMaxMs?: number;
  /** A gateway's rounds: its full (mark-compact) collections during the run, lead-in included. */
  targetMajorGcs?: number;
  /** The Redis gateways' rounds: the longest single command of redis-server meanwhile (ms). */
  redisCommandMaxMs?: number;
  /** Run again because the backend or the load generator stalled in it: kept, not counted. */
  repeated?: true;
}
const latency: LatencyRound[] = [];
const latencies = new Map<string, number[]>();
/** The backend's event-loop delay since the last call, restarting the count (sandbox admin API). */
async function backendLoopMaxMs(): Promise<number> {
  const res = await fetch(`${procs.sandbox.url}/sandbox/admin/event-loop/reset`, {
    method: 'POST',
    headers: { 'x-service-token': SERVICE_TOKEN },
  });
  const body = (await res.json()) as { data?: { maxMs?: number } };
  return body.data?.maxMs ?? Number.NaN;
}
// Like the backend's: every 5 ms, and the delay is what lies beyond that interval.
const GENERATOR_LOOP_SAMPLE_MS = 5;
const generatorLoop = monitorEventLoopDelay({ resolution: GENERATOR_LOOP_SAMPLE_MS });
generatorLoop.enable();
/** One fixed-rate run of a scenario on a target: its record, and the latency of every unit. */
async function rateRun(s: Scenario, t: TargetName, round: number): Promise<{ record: LatencyRound; latencies: number[] }> {
  const pid = (procs[t] as Child).pid;
  const usesRedis = t === 'redis' || (t === 'baseline' && baselineRedis);
  const adminUrl = procs.adminUrls[t];
  // The gateway's own record is read over its admin port, which costs it CPU: before the run,
  // so its record covers the lead-in as well. The other records restart with the measured units.
  const recordBefore = adminUrl === undefined ? undefined : await gatewayRecord(adminUrl);
  let cpuBefore = 0;
  let callsBefore = { reads: 0, writes: 0 };
  const r = await paced({
    url: (procs[t] as Child).url,
    steps: stepsOf(s, t) ?? [],
    connections: settings.connections,
    unitsPerSecond: rateOf(s),
    seconds: settings.rateSeconds,
    leadInSeconds: settings.rateLeadInSeconds,
    onMeasureStart: () => {
      gcTrace?.mark(`${s.name} on ${t}, fixed-rate round ${round + 1} (its lead-in before this)`);
      cpuBefore = cpuSeconds(pid);
      callsBefore = systemCalls(pid);
      generatorLoop.reset();
      void backendLoopMaxMs().catch(() => undefined);
      if (usesRedis) void longestCommandMs(redisClient).catch(() => undefined);
    },
    ...(isMcp(s) && t !== 'proxy' ? { bodyFailed: mcpFailed } : {}),
  });
  const cpuAfter = cpuSeconds(pid);
  gcTrace?.mark('end');
  const callsAfter = systemCalls(pid);
  if (r.failed + r.leadInFailed > 0) {
    log(`  warning: ${s.name} on ${t} at the fixed rate: ${r.failed} failed, ${r.leadInFailed} in the lead-in (${r.sample ?? ''})`);
  }
  const record: LatencyRound = {
    scenario: s.name,
    target: t,
    round,
    p50: percentile(r.latencies, 50),
    p99: percentile(r.latencies, 99),
    cpuSeconds: cpuAfter - cpuBefore,
    units: r.ok,
    systemCalls: { reads: callsAfter.reads - callsBefore.reads, writes: callsAfter.writes - callsBefore.writes },
    backendLoopMaxMs: await backendLoopMaxMs(),
    generatorLoopMaxMs: generatorLoop.count === 0 ? 0 : Math.max(0, generatorLoop.max / 1e6 - GENERATOR_LOOP_SAMPLE_MS),
    ...(adminUrl === undefined || recordBefore === undefined
      ? {}
      : await gatewayRecord(adminUrl).then((after) => ({
          targetLoopMaxMs: after.loopMaxMs,
          targetMajorGcs: after.majorGcs - recordBefore.majorGcs,
        }))),
    ...(usesRedis ? { redisCommandMaxMs: await longestCommandMs(redisClient) } : {}),
  };
  return { record, latencies: r.latencies };
}
// Owner-read rounds run again after a stall outside the target (bench/stalls.ts says why).
let stallRepeats = 0;
/** Owner-read rounds with such a stall that were kept: no repeat left, or no time for one. */
let stallsKept = 0;
// Latency runs still to come after the current one, so a repeat is made only if it fits the budget.
let rateRunsAhead = settings.rateRounds * plan.runsPerRound;
for (let round = 0; round < settings.rateRounds; round++) {
  for (const s of scenarios) {
    const targets = targetsOf(s);
    for (const t of targets.map((_, i) => targets[(i + round) % targets.length] as TargetName)) {
      let run = await rateRun(s, t, round);
      rateRunsAhead -= 1;
      if (s.name === 'me' && stalledOutsideTarget(run.record, settings.stallMs)) {
        if (stallRepeats < settings.stallRepeats && fits(secondsLeft(), rateRunsAhead * rateRunSeconds(plan), rateRunSeconds(plan))) {
          stallRepeats += 1;
          latency.push({ ...run.record, repeated: true });
          run = await rateRun(s, t, round);
        } else {
          stallsKept += 1;
        }
      }
      latency.push(run.record);
      const key = `${s.name}\0${t}`;
      latencies.set(key, [...(latencies.get(key) ?? []), ...run.latencies]);
    }
  }
}
for (const s of scenarios) {
  for (const t of targetsOf(s)) {
    const mine = latency.filter((l) => l.scenario === s.name && l.target === t && l.repeated !== true);
    const all = latencies.get(`${s.name}\0${t}`) ?? [];
    const f = figures[s.name]?.[t] as Figures;
    f.rate = rateOf(s);
    f.p50 = percentile(all, 50);
    f.p99 = percentile(all, 99);
    const units = mine.reduce((a, l) => a + l.units, 0);
    f.cpuMicrosAtRate = (mine.reduce((a, l) => a + l.cpuSeconds, 0) / units) * 1e6;
    f.systemCallsAtRate = {
      reads: mine.reduce((a, l) => a + l.systemCalls.reads, 0) / units,
      writes: mine.reduce((a, l) => a + l.systemCalls.writes, 0) / units,
    };
  }
}
measureReference();
log(`latency runs done (${((Date.now() - started) / 1000).toFixed(0)} s); reference work after them: ${fx(reference.at(-1), 0)} ms of CPU`);

// Round trips: a short sequential pass on the Redis gateway with MONITOR on.
for (const [i, s] of scenarios.entries()) {
  const units = 50;
  // Only the first pass follows a load run that may have left requests queued (bench/redis.ts).
  const settleMs = i === 0 ? 1000 : 0;
  const seen = await roundTrips(
    procs.redisUrl,
    async () => {
      await drive(s, 'redis', { amount: units * s.requestsPerUnit, connections: 1 });
    },
    settleMs,
  );
  const f = figures[s.name]?.redis as Figures;
  f.roundTrips = Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, round2(v / units)]));
  f.roundTripsPerUnit = total(seen) / units;
}

log(`Redis round trips counted (${((Date.now() - started) / 1000).toFixed(0)} s)`);

const memoryAtEnd = await memoryNow();
const rss: Record<TargetName, number> = {
  proxy: peakRssMb(procs.proxy.pid),
  memory: peakRssMb(procs.memory.pid),
  redis: peakRssMb(procs.redis.pid),
  baseline: procs.baseline === undefined ? Number.NaN : peakRssMb(procs.baseline.pid),
};

// ---------------------------------------------------------------------------------------------
// Report

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
const floorOf = (s: Scenario): Figures | undefined => figures[s.proxyOf ?? s.name]?.proxy;

log('');
log(
  [
    'scenario'.padEnd(24),
    'target'.padEnd(7),
    'unit/s'.padStart(7),
    '×proxy'.padStart(7),
    'CPU µs'.padStart(7),
    '×proxy'.padStart(7),
    '@rate'.padStart(6),
    'CPU@r'.padStart(6),
    '×proxy'.padStart(7),
    'p50'.padStart(5),
    'p99'.padStart(5),
    'cmds'.padStart(5),
    'trips'.padStart(5),
  ].join(' '),
);
for (const s of scenarios) {
  const floor = floorOf(s);
  for (const t of targetsOf(s)) {
    const f = figures[s.name]?.[t] as Figures;
    log(
      [
        s.name.padEnd(24),
        t.padEnd(7),
        fx(f.unitsPerSecond, 0).padStart(7),
        fx(floor === undefined ? undefined : f.unitsPerSecond / floor.unitsPerSecond).padStart(7),
        fx(f.cpuMicrosPerUnit, 0).padStart(7),
        fx(floor === undefined ? undefined : f.cpuMicrosPerUnit / floor.cpuMicrosPerUnit).padStart(7),
        fx(f.rate, 0).padStart(6),
        fx(f.cpuMicrosAtRate, 0).padStart(6),
        fx(floor?.cpuMicrosAtRate === undefined ? undefined : (f.cpuMicrosAtRate ?? Number.NaN) / floor.cpuMicrosAtRate).padStart(7),
        fx(f.p50, 1).padStart(5),
        fx(f.p99, 1).padStart(5),
        fx(f.redisCommandsPerUnit, 1).padStart(5),
        fx(f.roundTripsPerUnit, 1).padStart(5),
      ].join(' '),
    );
  }
}
log('');
log('CPU µs per unit of the other processes during the saturation runs (backend / load generator / redis-server):');
for (const s of scenarios) {
  const cells = targetsOf(s).map((t) => {
    const o = (figures[s.name] as Partial<Record<TargetName, Figures>>)[t]?.othersMicrosPerUnit;
    if (o === undefined) return `${t} -`;
    return `${t} ${fx(o.backend, 0)} / ${fx(o.generator, 0)} / ${fx(o.redis, 0)}`;
  });
  log(`  ${s.name.padEnd(24)} ${cells.join('   ')}`);
}
log('System calls per unit of the process under test at the fixed rate (read / write, from /proc/<pid>/io):');
for (const s of scenarios) {
  const cells = targetsOf(s).map((t) => {
    const c = (figures[s.name] as Partial<Record<TargetName, Figures>>)[t]?.systemCallsAtRate;
    return c === undefined ? `${t} -` : `${t} ${fx(c.reads, 2)} / ${fx(c.writes, 2)}`;
  });
  log(`  ${s.name.padEnd(24)} ${cells.join('   ')}`);
}
log('Against the proxy within each round, median over the rounds (throughput × / CPU per unit ×):');
for (const s of scenarios) {
  const cells = targetsOf(s)
    .filter((t) => t !== 'proxy')
    .map((t) => {
      const r = figures[s.name]?.[t]?.perRound;
      return r === undefined ? '' : `${t} ${fx(r.throughput)} / ${fx(r.cpu)}`;
    })
    .filter((c) => c !== '');
  if (cells.length > 0) log(`  ${s.name.padEnd(24)} ${cells.join('   ')}`);
}
log(
  `peak RSS (MB): proxy ${fx(rss.proxy, 0)}, gateway memory ${fx(rss.memory, 0)} (${fx(rss.memory / rss.proxy)}×), gateway redis ${fx(rss.redis, 0)} (${fx(rss.redis / rss.proxy)}×)${baselineDir === undefined ? '' : `, baseline ${fx(rss.baseline, 0)}`}`,
);
log(
  `RSS (MB) after the warm-up → at the end [outside the JS heap, gateways]: ${TARGETS.map((t) => {
    const a = memoryAfterWarmUp[t];
    const b = memoryAtEnd[t];
    const outside =
      a?.outsideHeapMb === undefined || b?.outsideHeapMb === undefined ? '' : ` [${fx(a.outsideHeapMb, 0)} → ${fx(b.outsideHeapMb, 0)}]`;
    return `${t} ${fx(a?.rssMb, 0)} → ${fx(b?.rssMb, 0)}${outside}`;
  }).join(', ')}`,
);
log(
  '(units: a request, or a preview + execution pair; CPU µs: per unit at saturation; CPU@r, p50, p99 (ms): at the fixed rate "@rate" units/s, evenly paced, the same load for every target; cmds: Redis commands per unit, scripts\' included; trips: round trips per unit)',
);
// A p99 over all rounds can be one slow round's; whether the backend or the load generator
// stalled in it says whose slowness it was.
const meRounds = latency.filter((l) => l.scenario === 'me');
if (meRounds.length > 0) {
  log(
    `Owner read at the fixed rate, p99 (ms) round by round [longest event-loop delay of the backend / the load generator / a gateway itself, and redis-server's longest command for a Redis gateway, ms; a gateway's full garbage collections in the round]${settings.stallMs > 0 ? `; in parentheses a round run again because the backend or the load generator was held up over ${settings.stallMs} ms` : ''}:`,
  );
  for (const t of TARGETS) {
    const mine = meRounds.filter((l) => l.target === t).sort((a, b) => a.round - b.round);
    if (mine.length > 0)
      log(
        `  ${t.padEnd(8)} ${mine
          .map((l) => {
            const text = `${fx(l.p99, 1)} [${[l.backendLoopMaxMs, l.generatorLoopMaxMs, l.targetLoopMaxMs, l.redisCommandMaxMs]
              .filter((ms) => ms !== undefined)
              .map((ms) => fx(ms, 0))
              .join(' / ')}${l.targetMajorGcs === undefined ? '' : `; ${l.targetMajorGcs} GC`}]`;
            return l.repeated === true ? `(${text})` : text;
          })
          .join('   ')}`,
      );
  }
}

// Full collections: their marking takes the gateway's core from its requests (docs/performance.md).
const collected = TARGETS.filter((t) => procs.adminUrls[t] !== undefined).map((t) => {
  const mine = latency.filter((l) => l.target === t);
  const gcs = mine.reduce((a, l) => a + (l.targetMajorGcs ?? 0), 0);
  return `${t} ${gcs} in ${mine.reduce((a, l) => a + l.units, 0)} units`;
});
if (collected.length > 0)
  log(`Full garbage collections of each gateway over all fixed-rate runs (lead-ins included): ${collected.join(', ')}`);

// One line of ratios: the owner read against the proxy, and MCP against REST.
const summary: string[] = [];
const me = figures['me'];
if (me?.proxy !== undefined) {
  const p = me.proxy;
  const part = (t: TargetName) => {
    const f = me[t];
    return f === undefined
      ? ''
      : `${t} ${fx(f.unitsPerSecond / p.unitsPerSecond)}× req/s, ${fx(f.cpuMicrosPerUnit / p.cpuMicrosPerUnit)}× CPU (round by round ${fx(f.perRound?.throughput)}× and ${fx(f.perRound?.cpu)}×; ${fx((f.cpuMicrosAtRate ?? Number.NaN) / (p.cpuMicrosAtRate ?? Number.NaN))}× CPU at the fixed rate), p99 ${fx((f.p99 ?? 0) - (p.p99 ?? 0), 1)} ms over, RSS ${fx(rss[t] / rss.proxy)}×`;
  };
  summary.push(`owner read vs proxy: ${part('memory')}; ${part('redis')}`);
}
for (const s of scenarios.filter((x) => x.restTwin !== undefined)) {
  const mcp = figures[s.name]?.memory;
  const rest = figures[s.restTwin as string]?.memory;
  if (mcp !== undefined && rest !== undefined) {
    summary.push(
      `${s.name.replace('mcp ', 'MCP ')} vs REST ${fx(mcp.unitsPerSecond / rest.unitsPerSecond)}× req/s, ${fx(mcp.cpuMicrosPerUnit / rest.cpuMicrosPerUnit)}× CPU`,
    );
  }
}
const pair = figures['opinion preview+publish']?.redis;
if (pair?.roundTripsPerUnit !== undefined) summary.push(`preview+execution: ${fx(pair.roundTripsPerUnit, 1)} Redis round trips`);
if (me?.redis?.roundTripsPerUnit !== undefined) {
  // One at a time (the round-trip pass) against 32 connections of one key, whose concurrent
  // requests share the limiter's calls (docs/operations.md, rate limits).
  const shared = me.redis.redisCommands?.['evalsha'];
  summary.push(
    `owner read: ${fx(me.redis.roundTripsPerUnit, 1)} Redis round trip(s) one at a time${shared === undefined ? '' : `, ${fx(shared, 2)} EVALSHA a read at saturation`}`,
  );
}
if (stallRepeats > 0) summary.push(`${stallRepeats} owner-read rate round(s) run again after a stall of the backend or the load generator`);
if (stallsKept > 0) summary.push(`${stallsKept} owner-read rate round(s) with such a stall kept (no repeat or time left for them)`);
if (baselineDir !== undefined) {
  summary.push(
    `this checkout vs baseline (${baselineRedis ? 'Redis and limits' : 'in-memory'}): ${scenarios
      .map((s) => {
        const f = figures[s.name];
        const [a, b] = [f?.[baselineTwin], f?.baseline];
        return a === undefined || b === undefined
          ? ''
          : `${s.name} ${fx(a.unitsPerSecond / b.unitsPerSecond)}× req/s, ${fx(a.cpuMicrosPerUnit / b.cpuMicrosPerUnit)}× CPU`;
      })
      .filter((x) => x !== '')
      .join('; ')}`,
  );
}
// The reference work took the same CPU time before every round only when nothing outside this
// benchmark slowed the machine down; otherwise the ratios of this run mix different machines.
const unsettled = TARGETS.filter((t) => warmups[t]?.settled === false);
if (unsettled.length > 0)
  summary.push(`JIT NOT SETTLED after the warm-up on ${unsettled.join(', ')}: their first round includes compiler work, run again`);
const referenceSpread = Math.max(...reference) / Math.min(...reference);
const steady = referenceSpread <= settings.steadySpread;
summary.push(
  steady
    ? `machine steady (reference work ${fx(Math.min(...reference), 0)}–${fx(Math.max(...reference), 0)} ms)`
    : `MACHINE UNSTEADY: the reference work took ${fx(Math.min(...reference), 0)}–${fx(Math.max(...reference), 0)} ms over the run (×${fx(referenceSpread)}); its ratios are not to be trusted, run again`,
);
log('');
log(`SUMMARY ${summary.join(' | ')}`);

const file = `${outDir}/bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
writeFileSync(
  file,
  JSON.stringify(
    {
      settings,
      scenarios: scenarios.map((s) => s.name),
      warmups,
      reference,
      steady,
      rounds,
      latency,
      figures,
      peakRssMb: rss,
      memory: { afterWarmUp: memoryAfterWarmUp, atEnd: memoryAtEnd },
      took: (Date.now() - started) / 1000,
    },
    null,
    2,
  ),
);
if (gcTrace !== undefined) {
  for (const [name, t] of gcTrace.totals())
    log(
      `${name} after the warm-up: ${t.scavenges} scavenges promoted ${(t.promotedBytes / 1e6).toFixed(1)} MB, ${t.fullCollections} full collections, ${t.tenured} allocation sites tenured, ${t.untenured} untenured`,
    );
  log(`collections as V8 traced them: ${gcTrace.file}`);
}
log(`raw figures: ${file}; took ${((Date.now() - started) / 1000).toFixed(0)} s`);

redisClient.disconnect();
await stopAll();
