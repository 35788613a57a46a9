/**
 * The Redis-backed stores on a real three-master Redis Cluster, through the connection the
 * gateway makes (REDIS_MODE=cluster): every multi-key script keeps its keys in one slot, while
 * different API keys spread over the shards; limits, claims, the kill switch and verdicts behave
 * as on one server; and scripts are called by digest (EVALSHA).
 */
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisVerdictStore } from '../../src/auth/verdict-store.ts';
import { RedisClaimStore } from '../../src/confirm/claims.ts';
import { configFrom } from '../../src/config.ts';
import { RedisKillSwitch, killSwitchKey, killSwitchSeqKey } from '../../src/killswitch/redis-kill-switch.ts';
import { startupState } from '../../src/killswitch/index.ts';
import { RedisRateLimitStore } from '../../src/limits/store.ts';
import type { WindowName, WindowSpec } from '../../src/limits/windows.ts';
import { connectRedis, probeRedis, redisOptionsFrom, redisReady, type RedisClient } from '../../src/store/redis.ts';
import { TestCluster } from './cluster.ts';
import { FLEET_SECRETS } from '../helpers/redis.ts';

let cluster: TestCluster;
const clients: RedisClient[] = [];

async function connect(): Promise<Cluster> {
  const options = redisOptionsFrom(
    configFrom({
      ...FLEET_SECRETS,
      REDIS_URL: cluster.url,
      REDIS_MODE: 'cluster',
      REDIS_CLUSTER_NODES: cluster.seeds,
      REDIS_COMMAND_TIMEOUT_MS: 1000,
    }),
  );
  if (options === null) throw new Error('no redis options');
  const client = connectRedis(options) as Cluster;
  client.on('error', () => {});
  clients.push(client);
  if (!(await redisReady(client, 10_000))) throw new Error('cluster client not ready');
  return client;
}

let a: Cluster;
let b: Cluster;

beforeAll(async () => {
  cluster = await TestCluster.start({ masters: 3 });
  [a, b] = await Promise.all([connect(), connect()]);
}, 30_000);

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await cluster?.stop();
});

const slot = (key: string) => cluster.admin(cluster.nodes[0]?.port ?? 0, async (r) => Number(await r.cluster('KEYSLOT', key)));
const minute = (name: WindowName, limit: number): WindowSpec => ({ name, kind: 'minute', limit });
const day = (name: WindowName, limit: number): WindowSpec => ({ name, kind: 'day', limit });

describe('key layout on a cluster', () => {
  it('keeps the windows of one key in one slot, and spreads different keys over the shards', async () => {
    const store = new RedisRateLimitStore(a, 'openpm:');
    const windows = [
      minute('read_minute', 1),
      day('read_day', 1),
      minute('search_minute', 1),
      minute('write_minute', 1),
      day('write_day', 1),
    ];
    const masters = new Set<number>();
    for (let i = 0; i < 24; i++) {
      const subject = `key-${i}`;
      const slots = new Set(await Promise.all(windows.map((w) => slot(store.key(subject, w)))));
      expect(slots.size).toBe(1);
      masters.add(await cluster.masterOf(store.key(subject, minute('read_minute', 1))));
    }
    expect(masters.size).toBe(3);
  });

  it.each(['openpm:', 'tenant-a:openpm:', '{openpm}:'])('keeps the kill switch and its counter in one slot (prefix %s)', async (prefix) => {
    expect(await slot(killSwitchSeqKey(prefix))).toBe(await slot(killSwitchKey(prefix)));
    expect(killSwitchKey(prefix)).toBe(`${prefix}kill-switch`); // the documented name stays
    expect(killSwitchSeqKey(prefix).startsWith(prefix)).toBe(true); // ACL patterns on the prefix cover it
  });
});

describe('stores on a cluster behave as on one server', () => {
  it('admits exactly the limit of a burst over two connections, and a refusal consumes nothing', async () => {
    const stores = [new RedisRateLimitStore(a, 'rl-test:'), new RedisRateLimitStore(b, 'rl-test:')];
    const windows = [minute('read_minute', 10), day('read_day', 100), minute('search_minute', 12)];
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => (stores[i % 2] as RedisRateLimitStore).consume('burst', windows)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    for (const r of results.filter((x) => !x.allowed)) expect(r.windows.map((w) => w.count)).toEqual([10, 10, 10]);
  });

  it('lets exactly one of many concurrent executions claim a token', async () => {
    const stores = [new RedisClaimStore(a, 'claims-test:'), new RedisClaimStore(b, 'claims-test:')];
    const states = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (stores[i % 2] as RedisClaimStore).claim('jti-1', 60_000, `owner-${i}`)),
    );
    expect(states.filter((s) => s.state === 'acquired')).toHaveLength(1);
    expect(states.filter((s) => s.state === 'pending')).toHaveLength(19);
    await stores[1]?.release('jti-1', 'owner-x'); // not the owner: nothing happens
    expect(await stores[0]?.peek('jti-1')).toEqual({ state: 'pending' });
    await stores[0]?.complete('jti-1', { status: 200, body: { ok: true } }, 60_000);
    expect(await stores[1]?.claim('jti-1', 60_000, 'late')).toEqual({ state: 'done', outcome: { status: 200, body: { ok: true } } });
  });

  it('shares the kill switch between replicas through pub/sub', async () => {
    const log = { info: () => {}, warn: () => {} };
    const open = (redis: Cluster) =>
      RedisKillSwitch.open(redis, {
        prefix: 'ks-test:',
        pollMs: 60_000, // pub/sub only: the poll would hide a lost message
        log,
        startup: 'off',
        startupState: startupState(configFrom({}), Date.now),
      });
    const [one, two] = await Promise.all([open(a), open(b)]);
    try {
      await one.set('all', 'ops', 'drill');
      const start = Date.now();
      while (two.current().mode !== 'all') {
        if (Date.now() - start > 2_000) throw new Error('the other replica did not follow');
        await new Promise((r) => setTimeout(r, 10));
      }
      await two.set('writes', 'ops', 'drill 2');
      await new Promise((r) => setTimeout(r, 200));
      expect(one.current()).toMatchObject({ mode: 'writes', by: 'ops', reason: 'drill 2' });
      const stored = JSON.parse((await a.get(killSwitchKey('ks-test:'))) ?? '{}') as { seq: number };
      expect(stored.seq).toBe(2);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('shares key verdicts', async () => {
    const log = { warn: () => {} };
    const verdict = { valid: false as const, checkedAt: 1 };
    await new RedisVerdictStore(a, 'verdict-test:', log).set('f'.repeat(64), verdict, 10_000);
    expect(await new RedisVerdictStore(b, 'verdict-test:', log).get('f'.repeat(64))).toEqual(verdict);
  });

  it('reports the cluster up when every master answers', async () => {
    expect(await probeRedis(a, 500)).toBe(true);
  });
});

describe('scripts on a cluster', () => {
  it('are sent by digest: one EVAL per node connection, EVALSHA afterwards', async () => {
    const fresh = await connect();
    const masters = (await cluster.topology()).filter((n) => n.role === 'master').map((n) => n.port);
    await Promise.all(masters.map((p) => cluster.admin(p, (r) => r.config('RESETSTAT'))));
    const store = new RedisRateLimitStore(fresh, 'evalsha-test:');
    for (let i = 0; i < 30; i++) await store.consume(`subject-${i}`, [minute('read_minute', 100), day('read_day', 1000)]);
    let evals = 0;
    let evalshas = 0;
    for (const p of masters) {
      const stats = String(await cluster.admin(p, (r) => r.info('commandstats')));
      evals += Number(/cmdstat_eval:calls=(\d+)/.exec(stats)?.[1] ?? 0);
      evalshas += Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    }
    expect(evals).toBeLessThanOrEqual(masters.length);
    expect(evals + evalshas).toBe(30);
  });
});
