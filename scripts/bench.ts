/**
 * The gateway next to a bare proxy, measured in one run (docs/performance.md, Method).
 *
 * Starts the sandbox backend, a redis-server and an OTLP sink once, and per configuration (A:
 * unpinned, no request logs; B: the process under test pinned to a core of its own, request
 * logs at `info`; bench/options.ts) the floor (a bare @fastify/http-proxy to the backend) and
 * the gateways: in-memory, Redis with limits on, in-memory with tracing on (every request or one
 * in ten sampled), and with BENCH_BASELINE the same gateways of another revision. Every target
 * gets the same warm-up, then rounds in which each scenario runs on each target in turn, the
 * order rotating, so that load from elsewhere on the machine falls on all alike. Figures:
 * requests per second, CPU per request of the process under test (/proc/<pid>/stat), their
 * ratios to the proxy round by round, and peak RSS. It asserts nothing; raw figures go to
 * bench-results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { load } from './bench/load.ts';
import { parseOptions, type ConfigName, type Configuration } from './bench/options.ts';
import {
  canPin,
  checkoutRevision,
  cpuSeconds,
  peakRssMb,
  pinToCpus,
  spawnGateway,
  spawnProxy,
  spawnRedis,
  spawnSandbox,
  spawnSink,
  type Child,
  type GatewaySettings,
} from './bench/processes.ts';
import { configTable, fx, sideBySide, summarise, type Run, type Target } from './bench/report.ts';
import { FLOORS, SCENARIOS, mcpFailed, type FloorName, type GatewayKind, type Scenario } from './bench/scenarios.ts';

const options = parseOptions(process.argv.slice(2), process.env);
const scenarios = SCENARIOS.filter((s) => options.scenarios === undefined || options.scenarios.includes(s.name));
if (scenarios.length === 0) throw new Error(`no scenario among ${SCENARIOS.map((s) => s.name).join(', ')}`);
const floors = [...new Set(scenarios.map((s) => s.floor))];
const needs = (kind: GatewayKind) => scenarios.some((s) => s.gateway === kind);
const baselineDir = options.baseline === undefined ? undefined : checkoutRevision(options.baseline);
const started = Date.now();
const log = (line = '') => process.stdout.write(`${line}\n`);
const cpus = availableParallelism();
const pinnable = cpus >= 2 && canPin();
/** CPU 0 for the process under test, the rest for everything else. */
const REST = cpus === 2 ? '1' : `1-${cpus - 1}`;
const ALL = `0-${cpus - 1}`;

const shared: Child[] = [];
const stopAll = async (children: Child[]) => {
  for (const c of children.splice(0).reverse()) await c.stop().catch(() => undefined);
};
process.on('SIGINT', () => void stopAll(shared).then(() => process.exit(130)));

const sandbox = await spawnSandbox();
shared.push(sandbox);
const redis = needs('redis') ? await spawnRedis() : undefined;
if (redis !== undefined) shared.push(redis);
const sink = needs('tracing') || needs('sampled') ? await spawnSink() : undefined;
if (sink !== undefined) shared.push(sink);

interface Targets {
  proxy: Child;
  /** This checkout's gateways, and the baseline revision's of the same kinds. */
  gateways: Partial<Record<GatewayKind, Child>>;
  baselines: Partial<Record<GatewayKind, Child>>;
}

async function startTargets(c: Configuration): Promise<Targets> {
  const base = { upstreamUrl: sandbox.url, logLevel: c.logLevel };
  const gateways: Targets['gateways'] = {};
  const baselines: Targets['baselines'] = {};
  const proxy = await spawnProxy(sandbox.url, c.logLevel);
  const kinds: Partial<Record<GatewayKind, [string, GatewaySettings]>> = {
    memory: ['in-memory', base],
    ...(redis === undefined ? {} : { redis: ['Redis', { ...base, redisUrl: redis.url }] }),
    ...(sink === undefined
      ? {}
      : {
          tracing: ['tracing', { ...base, otlpUrl: sink.url }],
          sampled: ['tracing 1 in 10', { ...base, otlpUrl: sink.url, sampleRatio: 0.1 }],
        }),
  };
  for (const [kind, [label, settings]] of Object.entries(kinds) as [GatewayKind, [string, GatewaySettings]][]) {
    if (!needs(kind)) continue;
    gateways[kind] = await spawnGateway(`gateway (${label})`, settings);
    if (baselineDir !== undefined) baselines[kind] = await spawnGateway(`baseline (${label})`, { ...settings, dir: baselineDir });
  }
  return { proxy, gateways, baselines };
}

/** One timed job: a scenario (or a floor) on one target. */
interface Job {
  scenario: string;
  target: Target;
  child: Child;
  steps: Scenario['steps'];
  mcp: boolean;
}

function jobsOf(t: Targets): Job[] {
  const jobs: Job[] = floors.map((f: FloorName) => ({ scenario: f, target: 'proxy', child: t.proxy, steps: FLOORS[f], mcp: false }));
  for (const s of scenarios) {
    const mine = t.gateways[s.gateway] as Child;
    jobs.push({ scenario: s.name, target: 'gateway', child: mine, steps: s.steps, mcp: s.mcp === true });
    const baseline = t.baselines[s.gateway];
    if (baseline !== undefined) jobs.push({ scenario: s.name, target: 'baseline', child: baseline, steps: s.steps, mcp: s.mcp === true });
  }
  return jobs;
}

function drive(job: Job, seconds: number) {
  return load({
    url: job.child.url,
    steps: job.steps,
    connections: options.connections,
    duration: seconds,
    ...(job.mcp ? { bodyFailed: mcpFailed } : {}),
  });
}

const runs: Run[] = [];
const peakRss = new Map<ConfigName, Record<string, number>>();

log(
  `bench: ${options.rounds} round(s) of ${options.seconds} s, ${options.connections} connections; ${cpus} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}${baselineDir === undefined ? '' : `; baseline ${options.baseline}`}`,
);
for (const c of options.configurations) {
  const pin = c.pin && pinnable;
  log(`configuration ${c.name}: LOG_LEVEL=${c.logLevel}, ${pin ? 'process under test on CPU 0, the others on the rest' : 'no pinning'}`);
  const targets = await startTargets(c);
  const mine = [targets.proxy, ...Object.values(targets.gateways), ...Object.values(targets.baselines)];
  try {
    const others = [sandbox, redis, sink].filter((x): x is Child => x !== undefined);
    if (pinnable) {
      for (const t of mine) pinToCpus(t.pid, pin ? '0' : ALL);
      for (const o of others) pinToCpus(o.pid, pin ? REST : ALL);
      pinToCpus(process.pid, pin ? REST : ALL);
    }
    const jobs = jobsOf(targets);
    // Warm-up: every job answers correctly before anything is timed, and its JIT settles.
    for (const job of jobs) {
      const r = await drive(job, options.warmupSeconds);
      if (r.ok === 0 || r.failed > 0)
        throw new Error(`${job.scenario} on ${job.child.name}: ${r.failed} failed, ${r.ok} ok; ${r.sample ?? ''}`);
    }
    for (let round = 0; round < options.rounds; round++) {
      // Rotate the order each round, and reverse it every other round, so that no target
      // always comes first after a pause or always follows the same one.
      const rotated = jobs.map((_, i) => jobs[(i + round) % jobs.length] as Job);
      const order = round % 2 === 1 ? rotated.reverse() : rotated;
      for (const job of order) {
        const before = cpuSeconds(job.child.pid);
        const r = await drive(job, options.seconds);
        runs.push({
          config: c.name,
          round,
          scenario: job.scenario,
          target: job.target,
          requests: r.ok,
          failed: r.failed,
          seconds: r.seconds,
          cpuSeconds: cpuSeconds(job.child.pid) - before,
        });
        if (r.failed > 0) log(`  ${job.scenario} on ${job.child.name}: ${r.failed} failed (${r.sample ?? ''})`);
      }
      log(`  round ${round + 1}/${options.rounds} done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    peakRss.set(c.name, Object.fromEntries(mine.map((t) => [t.name, peakRssMb(t.pid)])));
  } finally {
    await stopAll(mine);
  }
}
await stopAll(shared);

const summaries = new Map(options.configurations.map((c) => [c.name, summarise(runs, c.name, scenarios)] as const));
for (const c of options.configurations) {
  log();
  log(`configuration ${c.name} (LOG_LEVEL=${c.logLevel}, ${c.pin && pinnable ? 'pinned' : 'unpinned'})`);
  log(configTable(summaries.get(c.name) ?? []));
  const rss = peakRss.get(c.name) ?? {};
  const proxyRss = rss['proxy'] ?? Number.NaN;
  log(
    `peak RSS (MB): ${Object.entries(rss)
      .map(([name, mb]) => `${name} ${fx(mb, 0)}${name === 'proxy' ? '' : ` (${fx(mb / proxyRss)}×)`}`)
      .join(', ')}`,
  );
}
log();
log(sideBySide(summaries));
log('(×proxy: the gateway against the bare proxy in the same round, median over rounds; CPU: µs per request of the process under test)');

mkdirSync('bench-results', { recursive: true });
const file = `bench-results/bench-${new Date(started).toISOString().replace(/[:.]/g, '-')}.json`;
writeFileSync(
  file,
  JSON.stringify({ options, runs, peakRss: Object.fromEntries(peakRss), summaries: Object.fromEntries(summaries) }, null, 2),
);
log(`raw figures: ${file}; took ${((Date.now() - started) / 1000).toFixed(0)} s`);
