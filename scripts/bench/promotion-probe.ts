/**
 * Catches a Redis gateway whose scavenges promote tens of megabytes a second (docs/performance.md,
 * change 28: what that was, and the figures of this probe before and after it) and says what it
 * promotes. Each attempt starts a fresh gateway with Redis and limits, drives saturating owner
 * reads for up to 12 one-second steps, and prints per step what its scavenges promoted (V8's own
 * count, through the benchmark's `promotion` trace, written to bench-results/promotion-<time>.txt)
 * and the requests' p50/p99/max latency. An attempt is in that state when three steps running,
 * after the sixth, each promoted over 8 MB; the probe then records a sampling heap profile of the
 * objects that outlive the young generation (those collected by scavenges left out) for 4 s, and
 * stops.
 *
 *   node scripts/bench/promotion-probe.ts [attempts=10]
 *   PROBE_REDIS_URL=redis://127.0.0.1:6379 (the default; keys under a prefix of its own)
 *   PROBE_ENV=RATE_LIMITS=off,… (settings of the gateway over those; to tell which part matters)
 *
 * The profile goes to bench-results/promotion-<time>.heapprofile (Chrome DevTools opens it);
 * its heaviest allocation stacks are printed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { GC_TRACE_FLAGS, GcTrace } from './gc-trace.ts';
import { load, type Step } from './load.ts';
import { envSettings, gatewayEnv, limitedRedisEnv, spawnSandbox } from './parties.ts';
import { freePort, pinToCpus, canPin, spawnChild, startFlags, type Child } from './processes.ts';
import { SCENARIOS } from './scenarios.ts';

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const attempts = Number(process.argv[2] ?? 10);
const redisUrl = process.env.PROBE_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The benchmark's own owner read (`me`), as a client sends it. */
const ownerRead: Step[] = SCENARIOS.find((s) => s.name === 'me')?.gateway ?? [];
if (ownerRead.length === 0) throw new Error('the benchmark has no owner-read scenario');
const probeEnv = envSettings(process.env.PROBE_ENV);
const STEPS = 12;
const TROUBLE_MB = 8;

/** A tiny DevTools-protocol client over the inspector's WebSocket. */
async function inspector(port: number): Promise<{ call: (method: string, params?: object) => Promise<unknown>; close: () => void }> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  if (target === undefined) throw new Error('no inspector target');
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', reject);
  });
  const pending = new Map<number, (result: unknown) => void>();
  ws.addEventListener('message', (e) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result);
  });
  let id = 0;
  return {
    call: (method, params = {}) =>
      new Promise((resolve) => {
        id += 1;
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** The heaviest allocation stacks of a sampling profile, the innermost frames last. */
function heaviest(head: SamplingNode, count: number): string[] {
  const rows: { size: number; stack: string[] }[] = [];
  const walk = (node: SamplingNode, stack: string[]) => {
    const f = node.callFrame;
    const here = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(`${process.cwd()}/`, '')}:${f.lineNumber + 1}`;
    const inner = [...stack, here];
    if (node.selfSize > 0) rows.push({ size: node.selfSize, stack: inner });
    for (const child of node.children) walk(child, inner);
  };
  walk(head, []);
  const total = rows.reduce((sum, r) => sum + r.size, 0);
  rows.sort((a, b) => b.size - a.size);
  return [
    `sampled ${(total / 1e6).toFixed(1)} MB that outlived the young generation; heaviest stacks:`,
    ...rows.slice(0, count).map((r) => `${(r.size / 1e6).toFixed(2)} MB  ${r.stack.slice(-4).join(' < ')}`),
  ];
}

const started = Date.now();
mkdirSync('bench-results', { recursive: true });
const trace = new GcTrace(`bench-results/promotion-${new Date(started).toISOString().replace(/[:.]/g, '-')}.txt`, started, 'promotion');
trace.mark('start');
/** What a gateway's scavenges have promoted so far, in bytes. */
const promotedBy = (name: string) => trace.totals().get(name)?.promotedBytes ?? 0;

const children: Child[] = [];
try {
  const sandbox = await spawnSandbox();
  children.push(sandbox);
  const pin = canPin();
  if (pin) pinToCpus(sandbox.pid, '1');
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const port = await freePort();
    const inspectPort = await freePort();
    const name = `gateway ${attempt}`;
    const gateway = await spawnChild({
      name: 'gateway (redis)',
      args: ['src/server.ts'],
      nodeFlags: [...startFlags(), ...GC_TRACE_FLAGS.promotion, `--inspect=127.0.0.1:${inspectPort}`],
      onLine: (line) => trace.line(name, line),
      env: {
        ...gatewayEnv(sandbox.url, 'info'),
        PORT: String(port),
        ...limitedRedisEnv(redisUrl),
        REDIS_KEY_PREFIX: `promotion-probe-${Date.now()}:`,
        ...probeEnv,
      },
      port,
      readyPath: '/livez',
    });
    children.push(gateway);
    if (pin) pinToCpus(gateway.pid, '0');
    const rates: number[] = [];
    const latencies: string[] = [];
    let troubled = false;
    for (let step = 0; step < STEPS && !troubled; step++) {
      const before = promotedBy(name);
      const { latency } = await load({ url: gateway.url, steps: ownerRead, connections: 32, duration: 1 });
      rates.push((promotedBy(name) - before) / 1e6);
      latencies.push(`${latency.p50}/${latency.p99}/${latency.max}`);
      troubled = step >= 6 && rates.slice(-3).every((r) => r > TROUBLE_MB);
    }
    console.log(`attempt ${attempt}: MB promoted a second ${rates.map((r) => r.toFixed(1)).join(' ')}${troubled ? '  <- promoting' : ''}`);
    console.log(`  latency p50/p99/max, ms: ${latencies.join(' ')}`);
    if (troubled) {
      const devtools = await inspector(inspectPort);
      await devtools.call('HeapProfiler.enable');
      await devtools.call('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: false,
      });
      const before = promotedBy(name);
      await load({ url: gateway.url, steps: ownerRead, connections: 32, duration: 4 });
      const { profile } = (await devtools.call('HeapProfiler.stopSampling')) as { profile: { head: SamplingNode } };
      devtools.close();
      const file = `bench-results/promotion-${new Date().toISOString().replace(/[:.]/g, '-')}.heapprofile`;
      writeFileSync(file, JSON.stringify(profile));
      console.log(`while sampled: ${((promotedBy(name) - before) / 4e6).toFixed(1)} MB promoted a second; profile in ${file}`);
      for (const line of heaviest(profile.head, 8)) console.log(`  ${line}`);
    }
    await gateway.stop();
    children.pop();
    if (troubled) break;
  }
} finally {
  for (const child of children.reverse()) await child.stop();
}
