/**
 * The processes under test: spawned as children of the benchmark, so each one's CPU time and
 * peak memory can be read from /proc/<pid> without any help from the process itself.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Child {
  name: string;
  pid: number;
  url: string;
  /** Log lines at error level (pino level 50 and above) the process wrote, the last few. */
  errors: string[];
  stop(): Promise<void>;
}

/** Error lines kept per process: enough to say why a request failed. */
const KEPT_ERRORS = 5;

/** Children still running: killed when the benchmark exits, however it exits. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface SpawnOptions {
  name: string;
  args: string[];
  env: Record<string, string>;
  port: number;
  /** A path that answers once the process serves (any HTTP status counts). */
  readyPath?: string;
  /** Extra node flags (e.g. --cpu-prof). */
  nodeFlags?: readonly string[];
  /** Command other than node (redis-server). */
  command?: string;
  /** Readiness by TCP connect instead of HTTP. */
  tcpReady?: boolean;
  /** Every line of the process's standard output, besides the error lines kept (bench/gc-trace.ts). */
  onLine?: (line: string) => void;
}

export async function spawnChild(opts: SpawnOptions): Promise<Child> {
  const command = opts.command ?? process.execPath;
  const args = opts.command === undefined ? [...(opts.nodeFlags ?? []), ...opts.args] : opts.args;
  const child = spawn(command, args, { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  // Log lines are read and dropped: the child pays for writing them, as it would in production.
  let tail = '';
  const errors: string[] = [];
  // Dropped, except error lines: a failed request in a run should come with its reason.
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    if (!/"level":[5-6]0/.test(text)) return;
    for (const line of text.split('\n')) if (/"level":[5-6]0/.test(line)) errors.push(line.slice(0, 600));
    errors.splice(0, Math.max(0, errors.length - KEPT_ERRORS));
  });
  if (opts.onLine !== undefined && child.stdout !== null) createInterface({ input: child.stdout }).on('line', opts.onLine);
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-2000);
  });
  const url = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${opts.name} exited with ${child.exitCode}: ${tail}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name} did not start in 30 s: ${tail}`);
    }
    if (await answers(opts, url)) break;
    await sleep(100);
  }
  if (child.pid === undefined) throw new Error(`${opts.name} has no pid`);

  return { name: opts.name, pid: child.pid, url, errors, stop: () => stopChild(child) };
}

async function answers(opts: SpawnOptions, url: string): Promise<boolean> {
  if (opts.tcpReady === true) {
    const { connect } = await import('node:net');
    return new Promise((resolve) => {
      const s = connect(opts.port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
  }
  try {
    const res = await fetch(`${url}${opts.readyPath ?? '/'}`, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(forced);
}

/**
 * The node flags `npm start` gives the gateway in checkout `dir` (its package.json's start
 * script, `node <flags> src/server.ts`), so the benchmark runs each gateway as it is deployed;
 * the image sets the same flags (test/deploy/image.test.ts).
 */
export function startFlags(dir = '.'): string[] {
  const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { scripts?: { start?: string } };
  const words = (pkg.scripts?.start ?? '').split(/\s+/).filter((w) => w !== '');
  if (words[0] !== 'node' || words.at(-1) !== 'src/server.ts')
    throw new Error(`${dir}/package.json: start is not "node [flags] src/server.ts"`);
  return words.slice(1, -1);
}

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / TICKS_PER_SECOND;
}

/**
 * Read and write system calls the process (all its threads) has made so far, from
 * /proc/<pid>/io. Unlike CPU time they do not change with the machine's speed: a change that
 * saves a socket or log write per request shows here exactly, however noisy the CPU figures.
 */
export function systemCalls(pid: number): { reads: number; writes: number } {
  const fields = new Map(
    readFileSync(`/proc/${pid}/io`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(': ') as [string, string]),
  );
  return { reads: Number(fields.get('syscr')), writes: Number(fields.get('syscw')) };
}

/**
 * CPU seconds so far of the process's V8 worker threads: the optimising compilers and the
 * concurrent garbage collector. While code is still being compiled it is most of their time;
 * once the hot paths are optimised only concurrent marking is left, a few percent of a core.
 */
export function v8WorkerCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'V8Worker') continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

export interface WarmUp {
  passes: number;
  seconds: number;
  /** CPU seconds of the V8 worker threads over the whole warm-up. */
  v8WorkerCpuSeconds: number;
  /** Their share of a core over the last pass; settled when below the threshold. */
  lastPassShare: number;
  settled: boolean;
}

/**
 * Run `pass` (a load on the process) again and again until the process's JIT has settled: its
 * V8 worker threads below `quiet` of a core over a pass. It stops unsettled after `maxPasses`,
 * or before a pass that would end past `maxSeconds`, so a machine on which the compilers never
 * quieten still gets through the benchmark in its time.
 */
export async function warmUntilSettled(
  pid: number,
  pass: () => Promise<void>,
  quiet: number,
  maxPasses: number,
  maxSeconds = Number.POSITIVE_INFINITY,
): Promise<WarmUp> {
  const begun = performance.now();
  const before = v8WorkerCpuSeconds(pid);
  let passes = 0;
  let share = Number.NaN;
  let passSeconds = 0;
  const elapsed = () => (performance.now() - begun) / 1000;
  do {
    const passBegun = performance.now();
    const passBefore = v8WorkerCpuSeconds(pid);
    await pass();
    passes += 1;
    passSeconds = (performance.now() - passBegun) / 1000;
    share = (v8WorkerCpuSeconds(pid) - passBefore) / passSeconds;
  } while (share >= quiet && passes < maxPasses && elapsed() + passSeconds <= maxSeconds);
  return {
    passes,
    seconds: (performance.now() - begun) / 1000,
    v8WorkerCpuSeconds: v8WorkerCpuSeconds(pid) - before,
    lastPassShare: share,
    settled: share < quiet,
  };
}

/** One line saying how a warm-up went. */
export function describeWarmUp(who: string, w: WarmUp): string {
  return `warm-up ${who}: ${w.passes} pass(es) in ${w.seconds.toFixed(0)} s; V8 workers ${w.v8WorkerCpuSeconds.toFixed(1)} s of CPU, ${(w.lastPassShare * 100).toFixed(0)}% of a core in the last pass${w.settled ? '' : ' (not settled: pass or time limit reached)'}`;
}

/** Whether util-linux's taskset is here to pin processes with. */
export function canPin(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Bind every thread of a process (and the threads it starts later, which inherit it) to the
 * given CPUs, e.g. "0" or "1-3", with util-linux's taskset.
 */
export function pinToCpus(pid: number, cpus: string): void {
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' });
}

/**
 * A fixed piece of CPU work (JSON, strings, objects, SHA-256: what a request is made of) run in
 * a fresh process, optionally bound to `cpus`; returns the CPU milliseconds it took. Run before
 * each round, it says how fast the machine was then: the same work took from 1× to 2× as long
 * from one round to the next on the shared virtual machine these figures come from.
 */
export function referenceWorkMs(cpus?: string): number {
  const work = `
    const { createHash } = require('node:crypto');
    const doc = { id: 'x'.repeat(36), items: Array.from({ length: 20 }, (_, i) => ({ i, name: 'item ' + i, price: i * 0.37 })) };
    const text = JSON.stringify(doc);
    const run = (n) => { let h = 0; for (let k = 0; k < n; k++) { const o = JSON.parse(text); o.items.push({ i: k }); h ^= createHash('sha256').update(JSON.stringify(o)).digest()[0]; } return h; };
    run(2000);
    const before = process.cpuUsage();
    run(10000);
    const used = process.cpuUsage(before);
    process.stdout.write(String((used.user + used.system) / 1000));
  `;
  const args = ['-e', work];
  const out =
    cpus === undefined
      ? execFileSync(process.execPath, args, { encoding: 'utf8' })
      : execFileSync('taskset', ['--cpu-list', cpus, process.execPath, ...args], { encoding: 'utf8' });
  return Number(out);
}

/** Peak resident set size (VmHWM) in MB. */
export function peakRssMb(pid: number): number {
  return statusMb(pid, 'VmHWM');
}

/** Resident set size now (VmRSS) in MB. */
export function rssMb(pid: number): number {
  return statusMb(pid, 'VmRSS');
}

function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return m === null ? Number.NaN : Number(m[1]) / 1024;
}
