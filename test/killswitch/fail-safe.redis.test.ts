/**
 * The kill switch fails safe (docs/operations.md, "Kill switch"): a replica holding `all` or
 * `writes` never reads a missing key as `off`. Redis restarted empty (a private redis-server,
 * restarted; a Redis Cluster whose shard holding the switch restarts empty), the key deleted:
 * the fleet keeps the switch, writes it back, and converges; only an explicit `off` lifts it,
 * and it wins over a replica writing a vanished state back.
 */
import type { Cluster, Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../src/config.ts';
import { RedisKillSwitch, killSwitchKey, killSwitchSeqKey } from '../../src/killswitch/redis-kill-switch.ts';
import { startupState } from '../../src/killswitch/index.ts';
import { connectRedis, redisOptionsFrom, redisReady, type RedisClient } from '../../src/store/redis.ts';
import { PrivateRedis } from '../helpers/private-redis.ts';
import { FLEET_SECRETS } from '../helpers/redis.ts';
import { TestCluster } from '../redis-cluster/cluster.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quiet = { info() {}, warn() {} };
const PREFIX = 'failsafe:';
const KEY = killSwitchKey(PREFIX);

async function eventually(check: () => boolean | Promise<boolean>, withinMs: number): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > withinMs) throw new Error(`condition not met within ${withinMs} ms`);
    await sleep(20);
  }
}

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function replica(redis: RedisClient, pollMs = 50): Promise<RedisKillSwitch> {
  const ks = await RedisKillSwitch.open(redis, {
    prefix: PREFIX,
    pollMs,
    log: quiet,
    startup: 'off',
    startupState: startupState(configFrom({}), Date.now),
  });
  closers.push(() => ks.close());
  return ks;
}

/** What the store holds now, or null when the key is missing or the store does not answer. */
async function stored(redis: RedisClient): Promise<string | null> {
  const raw = await redis.get(KEY).catch(() => null);
  return raw === null ? null : (JSON.parse(raw) as { mode: string }).mode;
}

describe('on one Redis server restarted empty', () => {
  let server: PrivateRedis;
  const connect = async (): Promise<Redis> => {
    const r = connectRedis({ url: server.url, commandTimeoutMs: 250 });
    r.on('error', () => {});
    closers.push(() => r.disconnect());
    await redisReady(r, 2_000);
    return r;
  };
  beforeAll(async () => {
    server = await PrivateRedis.start();
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(['all', 'writes'] as const)(
    'a fleet holding %s keeps it, writes it back, and only an explicit off lifts it',
    async (mode) => {
      const [ra, rb, admin] = [await connect(), await connect(), await connect()];
      const a = await replica(ra);
      const b = await replica(rb);
      await a.set(mode, 'ops', 'incident');
      await eventually(() => b.current().mode === mode, 2_000);

      await server.restartEmpty();
      // Back up and empty: every replica keeps the switch, and one of them writes it back.
      await eventually(async () => (await stored(admin)) === mode, 10_000);
      expect(a.current()).toMatchObject({ mode, by: 'ops', reason: 'incident' });
      expect(b.current()).toMatchObject({ mode, by: 'ops', reason: 'incident' });
      // Some polls later, still on everywhere.
      await sleep(300);
      expect([a.current().mode, b.current().mode, await stored(admin)]).toEqual([mode, mode, mode]);

      // The explicit off, from either replica, converges the fleet and stays.
      await b.set('off', 'ops', 'resolved');
      await eventually(() => a.current().mode === 'off', 2_000);
      expect(await stored(admin)).toBe('off');
      await server.restartEmpty();
      await eventually(async () => (await ra.ping().catch(() => null)) === 'PONG', 10_000);
      await sleep(300);
      expect([a.current().mode, b.current().mode]).toEqual(['off', 'off']);
    },
    30_000,
  );

  it('a deleted key is written back; an explicit off written before the write-back wins', async () => {
    const [ra, rb, admin] = [await connect(), await connect(), await connect()];
    const a = await replica(ra);
    const b = await replica(rb, 60_000);
    await a.set('all', 'ops', 'incident');
    await eventually(() => b.current().mode === 'all', 2_000);

    await admin.del(KEY);
    await eventually(async () => (await stored(admin)) === 'all', 2_000);
    expect(a.current().mode).toBe('all');

    // b never polls on its own here: the key vanishes, an operator turns the switch off, and
    // only then does b look. It must find and obey the off, not write its `all` back.
    await a.close();
    await admin.del(KEY);
    await admin.set(KEY, JSON.stringify({ mode: 'off', by: 'ops', reason: 'resolved', at: null }));
    await b.refresh();
    expect(b.current().mode).toBe('off');
    expect(await stored(admin)).toBe('off');
  });

  it('an explicit off after Redis lost the write counter is numbered above what the fleet saw', async () => {
    const [ra, rb, admin] = [await connect(), await connect(), await connect()];
    const a = await replica(ra, 60_000);
    const b = await replica(rb, 60_000);
    for (let i = 0; i < 5; i += 1) await a.set(i % 2 === 0 ? 'all' : 'writes', 'ops', `step ${i}`);
    await eventually(() => b.current().reason === 'step 4', 2_000);
    // The state and its counter are lost; no poll runs (60 s) before the operator's off, so b
    // learns of it by its message alone, which it would discard as older than what it holds
    // were the off numbered from a fresh counter.
    const seen = (JSON.parse((await admin.get(KEY)) ?? '{}') as { seq: number }).seq;
    await admin.del(KEY, killSwitchSeqKey(PREFIX));
    await a.set('off', 'ops', 'resolved');
    expect(JSON.parse((await admin.get(KEY)) ?? '{}').seq).toBe(seen + 1);
    await eventually(() => b.current().mode === 'off', 2_000);
  });
});

describe('on a Redis Cluster whose shard holding the switch restarts empty', () => {
  let cluster: TestCluster;
  const connect = async (): Promise<Cluster> => {
    const options = redisOptionsFrom(
      configFrom({
        ...FLEET_SECRETS,
        REDIS_URL: cluster.url,
        REDIS_MODE: 'cluster',
        REDIS_CLUSTER_NODES: cluster.seeds,
        REDIS_COMMAND_TIMEOUT_MS: 500,
      }),
    );
    if (options === null) throw new Error('no redis options');
    const client = connectRedis(options) as Cluster;
    client.on('error', () => {});
    closers.push(() => client.disconnect());
    if (!(await redisReady(client, 10_000))) throw new Error('cluster client not ready');
    return client;
  };
  beforeAll(async () => {
    cluster = await TestCluster.start({ masters: 3 });
  }, 30_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('the fleet keeps `writes`, writes it back once the shard is back, and obeys the explicit off', async () => {
    const [ra, rb, admin] = [await connect(), await connect(), await connect()];
    const a = await replica(ra);
    const b = await replica(rb);
    await a.set('writes', 'ops', 'incident');
    await eventually(() => b.current().mode === 'writes', 3_000);

    const node = cluster.nodeByPort(await cluster.masterOf(KEY));
    await cluster.killNode(node);
    await cluster.startNode(node);
    await cluster.waitHealthy(15_000);
    await eventually(async () => (await stored(admin)) === 'writes', 15_000);
    expect([a.current().mode, b.current().mode]).toEqual(['writes', 'writes']);

    await eventually(
      () =>
        b.set('off', 'ops', 'resolved').then(
          () => true,
          () => false,
        ),
      5_000,
    );
    await eventually(() => a.current().mode === 'off', 3_000);
    expect(await stored(admin)).toBe('off');
  }, 60_000);
});
