/**
 * Where the gateway's CPU per request goes beyond the proxy's: both run under --cpu-prof at
 * the same fixed rate of one scenario, and the profiles are compared by area (package or
 * source folder) in microseconds per request, busy time only.
 *
 *   node scripts/bench/diff-profile.ts [scenario=me] [rate=1500] [seconds=10]
 *   DIFF_REDIS_URL=redis://127.0.0.1:6379 node scripts/bench/diff-profile.ts me   # the gateway with Redis and limits
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { load } from './load.ts';
import { paced } from './paced.ts';
import { describeWarmUp, freePort, spawnChild, startFlags, warmUntilSettled, type Child } from './processes.ts';
import { areaOf, selfTimes, type Profile } from './profile-top.ts';
import { gatewayEnv, limitedRedisEnv, spawnProxy, spawnSandbox } from './parties.ts';
import { SCENARIOS } from './scenarios.ts';

const [name = 'me', rateArg = '1500', secondsArg = '10'] = process.argv.slice(2);
const scenario = SCENARIOS.find((s) => s.name === name);
if (scenario === undefined) throw new Error(`no scenario ${name}`);
const proxySteps = scenario.proxy ?? SCENARIOS.find((s) => s.name === scenario.proxyOf)?.proxy;
if (proxySteps === undefined) throw new Error(`${name} has no proxy floor`);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
const dir = `bench-results/diff-${Date.now()}`;
mkdirSync(dir, { recursive: true });
/** With a Redis, the gateway runs with limits on, raised so nothing is refused, under its own key prefix. */
const redisUrl = process.env.DIFF_REDIS_URL;
const redisEnv: Record<string, string> =
  redisUrl === undefined ? { RATE_LIMITS: 'off' } : { ...limitedRedisEnv(redisUrl), REDIS_KEY_PREFIX: `diff-profile-${Date.now()}:` };
const prof = (who: string) => ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${who}.cpuprofile`];

const children: Child[] = [];
try {
  const sandbox = await spawnSandbox();
  children.push(sandbox);
  const proxyStarted = performance.now();
  const proxy = await spawnProxy(sandbox.url, 'info', prof('proxy'));
  children.push(proxy);
  const gatewayPort = await freePort();
  const gatewayStarted = performance.now();
  const gateway = await spawnChild({
    name: 'gateway',
    args: ['src/server.ts'],
    nodeFlags: [...startFlags(), ...prof('gateway')],
    env: { ...gatewayEnv(sandbox.url, 'info'), PORT: String(gatewayPort), ...redisEnv },
    port: gatewayPort,
    readyPath: '/livez',
  });
  children.push(gateway);

  // Samples before the measured run (start-up, and a warm-up until the JIT has settled) are left
  // out of each profile.
  const counts: Record<string, number> = {};
  const skipUs: Record<string, number> = {};
  const spawned = { proxy: proxyStarted, gateway: gatewayStarted };
  for (const [who, url, steps] of [
    ['proxy', proxy.url, proxySteps],
    ['gateway', gateway.url, scenario.gateway],
  ] as const) {
    const pid = (children.find((c) => c.url === url) as Child).pid;
    const warm = await warmUntilSettled(
      pid,
      async () => void (await load({ url, steps: [...steps], connections: 32, duration: 2 })),
      0.05,
      15,
    );
    console.log(describeWarmUp(who, warm));
    skipUs[who] = (performance.now() - spawned[who]) * 1000;
    const r = await paced({ url, steps, connections: 32, unitsPerSecond: rate, seconds });
    counts[who] = r.ok;
  }
  for (const c of children.reverse()) await c.stop();
  children.length = 0;

  const areas = new Map<string, Record<string, number>>();
  for (const who of ['proxy', 'gateway']) {
    const file = readdirSync(dir).find((f) => f.startsWith(who));
    if (file === undefined) throw new Error(`no profile for ${who}`);
    const profile = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as Profile;
    for (const [area, us] of selfTimes(profile, skipUs[who] ?? 0, areaOf)) {
      const row = areas.get(area) ?? {};
      row[who] = us / (counts[who] ?? 1);
      areas.set(area, row);
    }
  }
  const rows = [...areas].sort((a, b) => (b[1].gateway ?? 0) - (b[1].proxy ?? 0) - ((a[1].gateway ?? 0) - (a[1].proxy ?? 0)));
  const total = (who: string) => rows.reduce((s, [, r]) => s + (r[who] ?? 0), 0);
  console.log(
    `${name} at ${rate}/s for ${seconds} s, ${redisUrl === undefined ? 'in-memory' : 'Redis and limits'}; requests: proxy ${counts.proxy}, gateway ${counts.gateway}`,
  );
  console.log(`busy µs per request: proxy ${total('proxy').toFixed(0)}, gateway ${total('gateway').toFixed(0)}`);
  console.log('area'.padEnd(44), 'proxy'.padStart(8), 'gateway'.padStart(8), 'diff'.padStart(8));
  for (const [area, r] of rows) {
    const p = r.proxy ?? 0;
    const g = r.gateway ?? 0;
    console.log(area.padEnd(44), p.toFixed(1).padStart(8), g.toFixed(1).padStart(8), (g - p).toFixed(1).padStart(8));
  }
} finally {
  for (const c of children.reverse()) await c.stop().catch(() => undefined);
}
