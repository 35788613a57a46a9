/**
 * A standalone redis-server of the test's own, on a free loopback port, without persistence, so
 * that restarting it is what a Redis restarted empty looks like to the gateway (the shared Redis
 * of the other tests must never be flushed or restarted).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
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

export class PrivateRedis {
  #child: ChildProcess | null = null;
  readonly port: number;
  private constructor(port: number) {
    this.port = port;
  }

  static async start(): Promise<PrivateRedis> {
    const server = new PrivateRedis(await freePort());
    await server.#spawn();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** SIGKILL and start again on the same port: every key is gone. */
  async restartEmpty(): Promise<void> {
    await this.stop();
    await this.#spawn();
  }

  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = null;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  async #spawn(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', '/tmp'],
      { stdio: 'ignore' },
    );
    this.#child = child;
    children.add(child);
    child.once('exit', () => children.delete(child));
    const deadline = Date.now() + 5_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server on ${this.port} exited with ${child.exitCode}`);
      const probe = new Redis({
        port: this.port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => {});
      const ok = await probe
        .connect()
        .then(() => probe.ping())
        .then(
          (p) => p === 'PONG',
          () => false,
        );
      probe.disconnect();
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`redis-server on ${this.port} did not start`);
      await sleep(50);
    }
  }
}
