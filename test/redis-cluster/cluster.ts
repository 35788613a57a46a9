/**
 * A real Redis Cluster for the tests, started by the test itself: redis-server processes in
 * cluster mode on free loopback ports, joined with `redis-cli --cluster create`, with a short
 * node timeout so that failure detection and failover take a second or two. Each node can be
 * stopped and started again (same node id and slots, from its nodes.conf), so a test can take
 * a shard away and bring it back. Nothing outside 127.0.0.1 is touched.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, PrivateRedis } from '../helpers/private-redis.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ClusterNode {
  port: number;
  /** Port of the cluster bus (gossip), chosen free as well. */
  busPort: number;
  /** Its redis-server while it runs (null once killed). */
  server: PrivateRedis | null;
}

export interface NodeInfo {
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** The master's id, for a replica. */
  masterId: string | null;
  failed: boolean;
}

export class TestCluster {
  readonly nodes: ClusterNode[] = [];
  readonly #dir = mkdtempSync(join(tmpdir(), 'openpm-cluster-'));
  readonly #replicas: number;
  readonly #nodeTimeoutMs: number;

  private constructor(replicas: number, nodeTimeoutMs: number) {
    this.#replicas = replicas;
    this.#nodeTimeoutMs = nodeTimeoutMs;
  }

  /** `masters` masters with `replicas` replicas each, joined and serving every slot. */
  static async start(opts: { masters?: number; replicas?: number; nodeTimeoutMs?: number } = {}): Promise<TestCluster> {
    const masters = opts.masters ?? 3;
    const cluster = new TestCluster(opts.replicas ?? 0, opts.nodeTimeoutMs ?? 1_000);
    const count = masters * (1 + cluster.#replicas);
    const ports = new Set<number>();
    while (ports.size < count * 2) ports.add(await freePort());
    const list = [...ports];
    for (let i = 0; i < count; i++) cluster.nodes.push({ port: list[2 * i] as number, busPort: list[2 * i + 1] as number, server: null });
    try {
      await Promise.all(cluster.nodes.map((n) => cluster.startNode(n)));
      await run('redis-cli', [
        '--cluster',
        'create',
        ...cluster.nodes.map((n) => `127.0.0.1:${n.port}`),
        '--cluster-replicas',
        String(cluster.#replicas),
        '--cluster-yes',
      ]);
      await cluster.waitHealthy(15_000);
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** redis://127.0.0.1:<first node> (any node seeds the client). */
  get url(): string {
    return `redis://127.0.0.1:${this.nodes[0]?.port}`;
  }

  /** The other nodes, as REDIS_CLUSTER_NODES wants them. */
  get seeds(): string {
    return this.nodes
      .slice(1)
      .map((n) => `127.0.0.1:${n.port}`)
      .join(',');
  }

  async startNode(node: ClusterNode): Promise<void> {
    node.server = await PrivateRedis.start({
      port: node.port,
      // Its nodes.conf stays here: started again, the node keeps its id and slots.
      dir: this.#dir,
      args: [
        '--cluster-port',
        String(node.busPort),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${node.port}.conf`,
        '--cluster-node-timeout',
        String(this.#nodeTimeoutMs),
        // Replicas take over at once, whatever their replication lag (a test cluster).
        '--cluster-replica-validity-factor',
        '0',
        '--logfile',
        join(this.#dir, `redis-${node.port}.log`),
      ],
    });
  }

  /** SIGKILL: the node is gone at once, as when its machine dies. */
  async killNode(node: ClusterNode): Promise<void> {
    const server = node.server;
    node.server = null;
    await server?.stop();
  }

  nodeByPort(port: number): ClusterNode {
    const node = this.nodes.find((n) => n.port === port);
    if (node === undefined) throw new Error(`no node on ${port}`);
    return node;
  }

  /** A plain connection to one node (for CLUSTER commands and inspection). */
  async admin<T>(port: number, fn: (r: Redis) => Promise<T>): Promise<T> {
    const r = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      connectTimeout: 500,
      retryStrategy: () => null,
    });
    r.on('error', () => {});
    try {
      await r.connect();
      return await fn(r);
    } finally {
      r.disconnect();
    }
  }

  /** The cluster as one running node sees it. */
  async topology(): Promise<NodeInfo[]> {
    for (const n of this.nodes) {
      if (n.server === null) continue;
      try {
        const raw = String(await this.admin(n.port, (r) => r.cluster('NODES')));
        return raw
          .trim()
          .split('\n')
          .map((line) => {
            const [id = '', addr = '', flags = '', master = '-'] = line.split(' ');
            return {
              id,
              port: Number(addr.split('@')[0]?.split(':')[1]),
              role: flags.includes('master') ? 'master' : 'replica',
              masterId: master === '-' ? null : master,
              failed: flags.includes('fail') && !flags.includes('fail?'),
            } satisfies NodeInfo;
          });
      } catch {
        // try another node
      }
    }
    throw new Error('no node answers');
  }

  /** The port of the master that serves `key` now. */
  async masterOf(key: string): Promise<number> {
    const first = this.nodes.find((n) => n.server !== null);
    if (first === undefined) throw new Error('no node runs');
    const slot = Number(await this.admin(first.port, (r) => r.cluster('KEYSLOT', key)));
    const slots = await this.admin(first.port, (r) => r.cluster('SLOTS'));
    for (const [from, to, master] of slots) if (slot >= from && slot <= to && master !== undefined) return master[1];
    throw new Error(`slot ${slot} is not served`);
  }

  /** Every running node reports `cluster_state:<state>`. */
  async waitState(state: 'ok' | 'fail', withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const running = this.nodes.filter((n) => n.server !== null);
      const states = await Promise.all(
        running.map((n) =>
          this.admin(n.port, async (r) => /cluster_state:(\w+)/.exec(String(await r.cluster('INFO')))?.[1]).catch(() => 'down'),
        ),
      );
      if (states.every((s) => s === state)) return;
      if (Date.now() > deadline) throw new Error(`cluster not ${state} within ${withinMs} ms: ${states.join(',')}`);
      await sleep(100);
    }
  }

  /** Every slot served and every node agreeing on it. */
  async waitHealthy(withinMs: number): Promise<void> {
    await this.waitState('ok', withinMs);
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => this.killNode(n)));
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
