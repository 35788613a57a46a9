/**
 * The processes of a run, each a child of the benchmark, so that its CPU time and peak memory
 * can be read from /proc/<pid> with no help from the process itself.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVICE_TOKEN } from './scenarios.ts';

export interface Child {
  name: string;
  pid: number;
  url: string;
  stop(): Promise<void>;
}

/** Children still running: killed when the benchmark exits, however it exits. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ). */
const TICKS_PER_SECOND = 100;

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

interface SpawnOptions {
  name: string;
  /** A node script and its arguments, or with `command` that program's arguments. */
  args: string[];
  env: Record<string, string>;
  nodeFlags?: readonly string[];
  command?: string;
  cwd?: string;
  /** The port it listens on (given to it as PORT); a free one when absent. */
  port?: number;
  /** Ready when this path answers over HTTP (any status), or, when absent, when the port accepts. */
  readyPath?: string;
}

export async function spawnChild(opts: SpawnOptions): Promise<Child> {
  const port = opts.port ?? (await freePort());
  const command = opts.command ?? process.execPath;
  const args = opts.command === undefined ? [...(opts.nodeFlags ?? []), ...opts.args] : opts.args;
  const child = spawn(command, args, {
    env: { ...process.env, ...opts.env, PORT: String(port) },
    // Log lines go to /dev/null: the child pays for writing them, as it would in production, and
    // no reader on the load generator's core can fall behind and hold up a synchronous writer.
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!(await answers(port, url, opts.readyPath))) {
    if (child.exitCode !== null) throw new Error(`${opts.name} exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name} did not start in 30 s: ${stderr}`);
    }
    await sleep(100);
  }
  if (child.pid === undefined) throw new Error(`${opts.name} has no pid`);
  return { name: opts.name, pid: child.pid, url, stop: () => stopChild(child) };
}

async function answers(port: number, url: string, readyPath: string | undefined): Promise<boolean> {
  if (readyPath === undefined) {
    return new Promise((done) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        done(true);
      });
      s.once('error', () => done(false));
    });
  }
  try {
    await (await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(forced);
}

export function spawnSandbox(): Promise<Child> {
  return spawnChild({ name: 'sandbox', args: ['sandbox/main.ts'], env: { UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN }, readyPath: '/' });
}

export async function spawnRedis(): Promise<Child> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = await spawnChild({ name: 'redis-server', command: 'redis-server', args, env: {}, port });
  return { ...child, url: `redis://127.0.0.1:${port}` };
}

/** The floor: a bare @fastify/http-proxy to the backend, logging as the gateway does. */
export function spawnProxy(upstreamUrl: string, logLevel: string): Promise<Child> {
  return spawnChild({ name: 'proxy', args: ['scripts/bench/proxy.ts'], env: { UPSTREAM_URL: upstreamUrl, LOG_LEVEL: logLevel } });
}

export function spawnSink(): Promise<Child> {
  return spawnChild({ name: 'OTLP sink', args: ['scripts/bench/sink.ts'], env: {} });
}

export interface GatewaySettings {
  upstreamUrl: string;
  logLevel: string;
  /** Redis and limits on, every window raised so nothing is refused; in-memory without limits when absent. */
  redisUrl?: string;
  /** An OTLP endpoint: tracing on, every request sampled unless `sampleRatio` says otherwise. */
  otlpUrl?: string;
  /** The share of requests without a caller's trace context that are sampled. */
  sampleRatio?: number;
  /** Another checkout to run the gateway of. */
  dir?: string;
}

export function spawnGateway(name: string, s: GatewaySettings): Promise<Child> {
  const big = '1000000000';
  const store: Record<string, string> =
    s.redisUrl === undefined
      ? { RATE_LIMITS: 'off' }
      : {
          REDIS_URL: s.redisUrl,
          RATE_LIMITS: 'on',
          RATE_LIMIT_READ_PER_MINUTE: big,
          RATE_LIMIT_READ_PER_DAY: big,
          RATE_LIMIT_SEARCH_PER_MINUTE: big,
          RATE_LIMIT_WRITE_PER_MINUTE: big,
          RATE_LIMIT_WRITE_PER_DAY: big,
        };
  const dir = s.dir ?? '.';
  return spawnChild({
    name,
    args: ['src/server.ts'],
    cwd: dir,
    nodeFlags: startFlags(dir),
    readyPath: '/livez',
    env: {
      HOST: '127.0.0.1',
      ADMIN_PORT: '0',
      NODE_ENV: 'production',
      UPSTREAM_URL: s.upstreamUrl,
      UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
      LOG_LEVEL: s.logLevel,
      CONFIRM_KEYS: 'bench:benchmark-confirm-secret-0123456789abcdef',
      CURSOR_SECRET: 'benchmark-cursor-secret-0123456789',
      ...store,
      ...(s.otlpUrl === undefined ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: s.otlpUrl, ...sampler(s.sampleRatio) }),
    },
  });
}

function sampler(ratio: number | undefined): Record<string, string> {
  return ratio === undefined
    ? { OTEL_TRACES_SAMPLER: 'always_on' }
    : { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(ratio) };
}

/** The node flags of `npm start` in checkout `dir`, so that each gateway runs as deployed. */
export function startFlags(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  const words = (pkg.scripts?.start ?? '').split(/\s+/).filter((w) => w !== '');
  if (words[0] !== 'node' || words.at(-1) !== 'src/server.ts')
    throw new Error(`${dir}/package.json: start is not "node [flags] src/server.ts"`);
  return words.slice(1, -1);
}

/**
 * The tree of a git revision in a temporary directory, sharing this checkout's node_modules
 * (a baseline whose dependencies differ needs its own checkout, installed). Removed at exit.
 */
export function checkoutRevision(rev: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  execFileSync('sh', ['-c', `git archive --format=tar "$1" | tar -x -C "$2"`, 'sh', rev, dir]);
  if (!existsSync(join(dir, 'src/server.ts'))) throw new Error(`${rev} has no src/server.ts`);
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** CPU seconds (user + system) the process has used so far, all its threads. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces); utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Peak resident set size (VmHWM), MB. */
export function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? Number.NaN : Number(m[1]) / 1024;
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

/** Bind every thread of a process (and those it starts later) to the CPUs given, e.g. "0" or "1-3". */
export function pinToCpus(pid: number, cpus: string): void {
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' });
}
