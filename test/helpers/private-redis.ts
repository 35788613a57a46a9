/**
 * A redis-server of the test's own, on a free loopback port, without persistence, so that
 * restarting it is what a Redis restarted empty looks like to the gateway (the shared Redis of
 * the other tests must never be flushed or restarted). Options make it a server with a
 * password, TLS only, a replica, a cluster node or a sentinel; it is ready once it answers PING.
 * A test may kill it, freeze it (SIGSTOP: connections stay open, nothing answers) and start it
 * again on the same port.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const addr = s.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
  await new Promise((r) => s.close(r));
  return port;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

export interface PrivateRedisOptions {
  /** Its port (default: a free one). */
  port?: number;
  /** Where it keeps its files (a cluster node's nodes.conf, a log file). Default: /tmp. */
  dir?: string;
  /** Further redis-server arguments: a password, replication, cluster mode, TLS files. */
  args?: string[];
  /** Serve TLS only, on `port` (the plain port closed). */
  tls?: boolean;
  /** A sentinel, configured by this file (written by the test; the sentinel rewrites it). */
  sentinelConfig?: string;
  /** What redis-cli needs to PING it (TLS files, a password); NOAUTH counts as an answer. */
  cli?: string[];
}

export class PrivateRedis {
  #child: ChildProcess | null = null;
  readonly port: number;
  readonly #opts: PrivateRedisOptions;
  private constructor(port: number, opts: PrivateRedisOptions) {
    this.port = port;
    this.#opts = opts;
  }

  static async start(opts: PrivateRedisOptions = {}): Promise<PrivateRedis> {
    const server = await PrivateRedis.unstarted(opts);
    await server.resume();
    return server;
  }

  /** Its port chosen, nothing listening yet: a Redis that comes up after the gateway. */
  static async unstarted(opts: PrivateRedisOptions = {}): Promise<PrivateRedis> {
    return new PrivateRedis(opts.port ?? (await freePort()), opts);
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** SIGKILL and start again on the same port: every key is gone. */
  async restartEmpty(): Promise<void> {
    await this.stop();
    await this.resume();
  }

  /** Started (again) on its port, empty; ready once it answers. */
  async resume(): Promise<void> {
    await this.#spawn();
  }

  /** SIGKILL: gone at once, as when its machine dies; the connections drop. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = null;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGSTOP: connections stay open but nothing answers, as when Redis stalls. */
  freeze(): void {
    this.#child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.#child?.kill('SIGCONT');
  }

  #args(): string[] {
    const { tls = false, sentinelConfig, dir = '/tmp', args = [] } = this.#opts;
    return [
      ...(sentinelConfig === undefined ? [] : [sentinelConfig, '--sentinel']),
      ...(tls ? ['--port', '0', '--tls-port', String(this.port)] : ['--port', String(this.port)]),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      // A replica syncs at once (the default waits 5 s for more replicas to join).
      '--repl-diskless-sync-delay',
      '0',
      ...args,
    ];
  }

  async #spawn(): Promise<void> {
    const child = spawn('redis-server', this.#args(), { stdio: 'ignore' });
    this.#child = child;
    children.add(child);
    child.once('exit', () => children.delete(child));
    const deadline = Date.now() + 5_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server on ${this.port} exited with ${child.exitCode}`);
      if (await this.#answers()) return;
      if (Date.now() > deadline) throw new Error(`redis-server on ${this.port} did not start`);
      await sleep(50);
    }
  }

  /** redis-cli rather than a client library: it speaks TLS and auth from the same arguments the test gives. */
  async #answers(): Promise<boolean> {
    const out = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(this.port), ...(this.#opts.cli ?? []), 'PING']).then(
      (r) => r.stdout,
      (err: { stdout?: string }) => err.stdout ?? '',
    );
    return out.includes('PONG') || out.includes('NOAUTH');
  }
}
