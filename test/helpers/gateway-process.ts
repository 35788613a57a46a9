/**
 * Real gateway processes for the operations tests: `node src/server.ts` with an environment of
 * its own, free ports (PORT=0, ADMIN_PORT=0) read back from the `gateway listening` log line,
 * its stdout kept as parsed JSON log lines; and the CLI, `node bin/openpm-gateway.ts`.
 * Every child is killed by `killAll()` (call it in afterAll) and, as a last resort, on exit.
 * `useFleet` gives the replicas of one test file their backend, Redis prefix and secrets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { connectTestRedis, dropPrefix, FLEET_SECRETS, REDIS_URL, testPrefix } from './redis.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface GatewayProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  /** http://127.0.0.1:ADMIN_PORT */
  adminUrl: string;
  /** stdout lines that were JSON log records, in order. */
  logs: Record<string, unknown>[];
  /** Raw stdout (every line, JSON or not). */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** The environment a child sees: nothing inherited but what Node needs to run. */
function baseEnv(env: Record<string, string>): Record<string, string> {
  const keep: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) {
    const v = process.env[k];
    if (v !== undefined) keep[k] = v;
  }
  // A busy test machine must not read as a Redis outage: the suites that test outages set their own.
  return { ...keep, NODE_ENV: 'test', REDIS_COMMAND_TIMEOUT_MS: '2000', ...env };
}

/** A gateway's environment: free loopback ports, and info logs (the `gateway listening` line). */
function gatewayEnv(env: Record<string, string>): Record<string, string> {
  return baseEnv({ PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
}

export interface StartOptions {
  startTimeoutMs?: number;
  /** Where `src/server.ts` is run from (default: this repository), e.g. a file set laid out as an image holds it. */
  cwd?: string;
}

export async function startGateway(env: Record<string, string>, opts: StartOptions = {}): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ['src/server.ts'], {
    cwd: opts.cwd ?? ROOT,
    env: gatewayEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    });
  });

  const logs: Record<string, unknown>[] = [];
  let out = '';
  let err = '';
  let partial = '';
  let onListening: ((rec: Record<string, unknown>) => void) | null = null;
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const rec = JSON.parse(line) as Record<string, unknown>;
        logs.push(rec);
        if (rec['msg'] === 'gateway listening') onListening?.(rec);
      } catch {
        // not a log record
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });

  // Generous: a gateway boots in a second or two, but a machine busy with parallel suites is slower.
  const timeoutMs = opts.startTimeoutMs ?? 30_000;
  const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`));
    }, timeoutMs);
    onListening = (rec) => {
      clearTimeout(timer);
      resolve(rec);
    };
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited early (code ${code}, signal ${signal})\nstdout:\n${out}\nstderr:\n${err}`));
    });
  });

  const stop: GatewayProcess['stop'] = async (graceMs = 12_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    }
    return exited;
  };

  return {
    child,
    url: `http://127.0.0.1:${Number(listening['port'])}`,
    adminUrl: `http://127.0.0.1:${Number(listening['adminPort'])}`,
    logs,
    stdout: () => out,
    stderr: () => err,
    exited,
    stop,
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `node <script> ...args` and wait for it to exit (killed after `timeoutMs`). */
async function runToExit(script: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<RunResult> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  children.delete(child);
  return { code, stdout, stderr };
}

/** Run `node bin/openpm-gateway.ts ...args` and wait for it (killed after `timeoutMs`). */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 10_000): Promise<RunResult> {
  return runToExit('bin/openpm-gateway.ts', args, baseEnv(env), timeoutMs);
}

/**
 * A gateway expected not to start: `node src/server.ts` run until it exits (killed after
 * `timeoutMs`, so one that starts after all ends with a null code).
 */
export function runGateway(env: Record<string, string>, timeoutMs = 20_000): Promise<RunResult> {
  return runToExit('src/server.ts', [], gatewayEnv(env), timeoutMs);
}

/** Kill every child still running (afterAll). */
export async function killAll(): Promise<void> {
  const waits = [...children].map(
    (c) =>
      new Promise<void>((resolve) => {
        if (c.exitCode !== null || c.signalCode !== null) return resolve();
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      }),
  );
  await Promise.all(waits);
  children.clear();
}

/** Poll `check` every 25 ms until it holds; returns the time it took, throws past `withinMs`. */
export async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Poll `check` every 25 ms until it holds. No deadline of its own: the test's timeout bounds it,
 * for a test that asserts what happens, not how soon.
 */
export async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 25));
}

/** What the gateway processes of one test file share. */
export interface Fleet {
  /** Their backend (started before the file's tests). */
  readonly sandbox: Sandbox;
  readonly serviceToken: string;
  /** Their key prefix on the shared Redis. */
  readonly prefix: string;
  /** A replica's environment: the backend, the shared Redis under the prefix, the secrets a fleet shares; `extra` on top. */
  env(extra?: Record<string, string>): Record<string, string>;
}

/**
 * A fleet for the file (or describe block) it is called in: a sandbox started before its tests;
 * after them, every gateway still running killed, the sandbox closed and the prefix's keys dropped.
 */
export function useFleet(name: string, serviceToken = `${name}-service-token`): Fleet {
  const prefix = testPrefix(name);
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ serviceToken });
  });
  afterAll(async () => {
    await killAll();
    await sandbox?.close();
    const redis = await connectTestRedis();
    await dropPrefix(redis, prefix);
    redis.disconnect();
  });
  const started = (): Sandbox => {
    if (sandbox === undefined) throw new Error('the fleet starts its sandbox in beforeAll: use it from a hook or a test');
    return sandbox;
  };
  return {
    get sandbox() {
      return started();
    },
    serviceToken,
    prefix,
    env: (extra = {}) => ({
      UPSTREAM_URL: started().url,
      UPSTREAM_SERVICE_TOKEN: serviceToken,
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      ...FLEET_SECRETS,
      ...extra,
    }),
  };
}
