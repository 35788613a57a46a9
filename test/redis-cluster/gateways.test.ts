/**
 * Three gateway processes sharing a real Redis Cluster (three masters, one replica each,
 * REDIS_MODE=cluster), as a fleet runs in production:
 * - the per-key limits give exact 429 counts across the replicas, as on one server;
 * - a confirm token executes once under concurrent executions over the replicas;
 * - the kill switch flipped on one replica reaches the others;
 * - a master that dies is replaced by its replica, and a used token stays used;
 * - with a whole shard lost (master and replica), reads keep serving, executions fail closed,
 *   the kill switch keeps its state and openpm_redis_up says 0; once the shard is back, the
 *   refused token executes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { killAll, startGateway, within, type GatewayProcess } from '../helpers/gateway-process.ts';
import { SERVICE_TOKEN, USERS } from '../helpers/stack.ts';
import { itRefusesExactlyTheExcess } from '../helpers/limit-bursts.ts';
import { decodeToken } from '../helpers/writes.ts';
import { TestCluster } from './cluster.ts';

const PREFIX = 'openpm-cluster-test:';
/**
 * Longer than any test may run: no answer can come from a Redis command that timed out, so each
 * answer while a shard is lost shows that its commands failed at once (CLUSTERDOWN, no offline
 * queue) and the gateway took its fallback rather than wait for Redis.
 */
const COMMAND_TIMEOUT_MS = 600_000;

let cluster: TestCluster;
let sandbox: Sandbox;
let replicas: GatewayProcess[] = [];

beforeAll(async () => {
  [cluster, sandbox] = await Promise.all([TestCluster.start({ masters: 3, replicas: 1 }), startSandbox({ serviceToken: SERVICE_TOKEN })]);
  const env = {
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
    REDIS_MODE: 'cluster',
    REDIS_URL: cluster.url,
    REDIS_CLUSTER_NODES: cluster.seeds,
    REDIS_KEY_PREFIX: PREFIX,
    REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
    CONFIRM_KEYS: `t1:${'c'.repeat(40)}`,
    CURSOR_SECRET: 'cluster-test-cursor-secret',
    KILL_SWITCH_POLL_MS: '200',
    LOG_LEVEL: 'info', // the 'gateway listening' line the helper waits for is at info
  };
  replicas = await Promise.all([0, 1, 2].map(() => startGateway(env, { startTimeoutMs: 30_000 })));
  // Each replica opens its node connections and loads its scripts before the exact counts.
  const warm = await newKey(USERS.bob, ['READ']);
  for (const g of replicas) {
    await within(5_000, async () => (await call(g, 'GET', '/open/v1/topic-categories', warm)).headers.has('x-ratelimit-limit'));
  }
}, 60_000);

afterAll(async () => {
  await killAll();
  await sandbox?.close();
  await cluster?.stop();
});

const replica = (i: number) => replicas[i % replicas.length] as GatewayProcess;

async function newKey(userId: string, scopes: string[]): Promise<string> {
  const res = await fetch(`${sandbox.url}/sandbox/admin/keys`, {
    method: 'POST',
    headers: { 'x-service-token': SERVICE_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ userId, scopes }),
  });
  return ((await res.json()) as { data: { key: string } }).data.key;
}

async function sandboxAdmin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sandbox.url}/sandbox/admin${path}`, {
    method,
    headers: { 'x-service-token': SERVICE_TOKEN, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return ((await res.json()) as { data: T }).data;
}
const ordersPerformed = async () => (await sandboxAdmin<{ performed: Record<string, number> }>('GET', '/counters')).performed['order'] ?? 0;

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}
async function call(g: GatewayProcess, method: string, path: string, key: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${g.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

async function burst(n: number, path: string, key: string, init: { method?: string; body?: unknown } = {}): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => (await call(replica(i), init.method ?? 'GET', path, key, init.body)).status),
  );
}

async function preview(g: GatewayProcess, key: string, market: number): Promise<string> {
  const topic = genericMarketId(market);
  const r = await call(g, 'POST', `/open/v1/topics/${topic}/order-preview`, key, { option_id: outcomeId(topic, 1), amount_coins: 10 });
  expect(r.status).toBe(200);
  expect(r.body.can_place).toBe(true);
  return r.body.confirm_token as string;
}
const execute = (g: GatewayProcess, key: string, token: string) => call(g, 'POST', '/open/v1/orders', key, { confirm_token: token });

async function metric(g: GatewayProcess, line: RegExp): Promise<number | null> {
  const text = await (await fetch(`${g.adminUrl}/metrics`)).text();
  const m = text.split('\n').find((l) => line.test(l));
  return m === undefined ? null : Number(m.split(' ').at(-1));
}
/** Requests the limiter let through without a decision, because its store failed. */
async function skipped(g: GatewayProcess): Promise<number> {
  const text = await (await fetch(`${g.adminUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('openpm_rate_limit_decisions_total{') && l.includes('decision="skipped"'))
    .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
}
async function setKillSwitch(g: GatewayProcess, mode: string): Promise<number> {
  const res = await fetch(`${g.adminUrl}/kill-switch`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode, reason: 'cluster drill', by: 'tester' }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('three replicas on a Redis Cluster behave as on one server', () => {
  itRefusesExactlyTheExcess({
    newKey,
    burst: (n, path, key, body) => burst(n, path, key, body === undefined ? {} : { method: 'POST', body }),
  });

  it('executes a confirm token once under concurrent executions over the replicas', async () => {
    const key = await newKey(USERS.alice, ['READ', 'WRITE']);
    const token = await preview(replica(0), key, 0);
    const before = await ordersPerformed();
    // The backend takes its time, so the other executions arrive while the first is in flight.
    await sandboxAdmin('POST', '/faults', { method: 'POST', pathPrefix: '/internal/prediction/orders', delayMs: 300, times: 1 });
    const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => execute(replica(i), key, token)));
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(1);
    for (const a of answers) {
      if (a.status === 201) continue;
      if (a.status === 200) expect(a.body).toEqual({ ...created[0]?.body, replayed: true });
      else expect({ status: a.status, code: a.body?.error?.code }).toEqual({ status: 409, code: 'RETRY_IDEMPOTENCY_KEY' });
    }
    expect(await ordersPerformed()).toBe(before + 1);
  });

  it('carries the kill switch from one replica to the others, and back', async () => {
    const key = await newKey(USERS.bob, ['READ']);
    expect(await setKillSwitch(replica(0), 'all')).toBe(200);
    for (const g of replicas) {
      await within(1_000, async () => (await call(g, 'GET', '/open/v1/topic-categories', key)).status === 503);
      expect(await metric(g, /^openpm_kill_switch_state\{mode="all"\}/)).toBe(1);
      expect((await fetch(`${g.url}/livez`)).status).toBe(200);
    }
    expect(await setKillSwitch(replica(1), 'off')).toBe(200);
    for (const g of replicas) await within(1_000, async () => (await call(g, 'GET', '/open/v1/topic-categories', key)).status === 200);
  });
});

describe('when the cluster loses nodes', () => {
  it('fails a dead master over to its replica; a used token stays used', async () => {
    const key = await newKey(USERS.alice, ['READ', 'WRITE']);
    const token = await preview(replica(1), key, 1);
    const first = await execute(replica(1), key, token);
    expect(first.status).toBe(201);

    // Take away the master that holds this token's claim, once its replica has the claim.
    const claimKey = `${PREFIX}confirm:${decodeToken(token).claims.jti as string}`;
    const masterPort = await cluster.masterOf(claimKey);
    const topology = await cluster.topology();
    const masterId = topology.find((n) => n.port === masterPort)?.id;
    const replicaPort = topology.find((n) => n.masterId === masterId)?.port;
    if (replicaPort === undefined) throw new Error('the master has no replica');
    await within(
      2_000,
      async () =>
        (await cluster.admin(replicaPort, async (r) => {
          await r.call('READONLY');
          return r.exists(claimKey);
        })) === 1,
    );
    await cluster.killNode(cluster.nodeByPort(masterPort));
    await within(15_000, async () => {
      const now = await cluster.topology().catch(() => []);
      return now.some((n) => n.port === replicaPort && n.role === 'master');
    });
    await cluster.waitHealthy(10_000);

    // Within a few seconds every replica talks to the new master, without a restart.
    for (const g of replicas) {
      await within(10_000, async () => {
        const again = await execute(g, key, token);
        return again.status === 200 && again.body.replayed === true;
      });
    }
    const other = await preview(replica(2), key, 2);
    expect((await execute(replica(0), key, other)).status).toBe(201);
  });

  it('with a shard lost, reads keep serving and executions fail closed; all recovers when it is back', async () => {
    const key = await newKey(USERS.alice, ['READ', 'WRITE']);
    await call(replica(0), 'GET', '/open/v1/topic-categories', key); // verdict known to replica 0 only
    const token = await preview(replica(0), key, 3);
    expect(await metric(replica(0), /^openpm_redis_up /)).toBe(1);

    // A master whose replica is still its replica (not the pair of the previous test).
    const topology = await cluster.topology();
    const pair = topology
      .filter((n) => n.role === 'master' && !n.failed)
      .map((m) => ({ master: m, replica: topology.find((n) => n.masterId === m.id && !n.failed) }))
      .find((p) => p.replica !== undefined && cluster.nodes.some((n) => n.port === p.master.port && n.server !== null));
    if (pair?.replica === undefined) throw new Error('no master with a live replica');
    await cluster.killNode(cluster.nodeByPort(pair.replica.port));
    await cluster.killNode(cluster.nodeByPort(pair.master.port));
    await cluster.waitState('fail', 10_000);

    const before = await ordersPerformed();
    for (const g of replicas) {
      // Reads: served, the limiter skipped (no headers, counted as skipped), the key checked by
      // the backend.
      const skippedBefore = await skipped(g);
      const read = await call(g, 'GET', '/open/v1/topic-categories', key);
      expect(read.status).toBe(200);
      expect(read.headers.get('x-ratelimit-limit')).toBeNull();
      expect(await skipped(g)).toBe(skippedBefore + 1);
      // Executions: refused before the backend, nothing charged.
      const exec = await execute(g, key, token);
      expect({ status: exec.status, code: exec.body?.error?.code }).toEqual({ status: 500, code: 'CONFIRM_UNAVAILABLE' });
      // The kill switch keeps its last state and cannot be changed.
      expect(await metric(g, /^openpm_kill_switch_state\{mode="off"\}/)).toBe(1);
      expect(await setKillSwitch(g, 'all')).toBe(500);
      expect(await metric(g, /^openpm_redis_up /)).toBe(0);
      const ready = await fetch(`${g.url}/readyz`);
      expect(ready.status).toBe(200);
    }
    expect(await ordersPerformed()).toBe(before);

    // The shard comes back (empty: no persistence); the fleet recovers by itself.
    await cluster.startNode(cluster.nodeByPort(pair.master.port));
    await cluster.startNode(cluster.nodeByPort(pair.replica.port));
    await cluster.waitHealthy(15_000);
    await within(10_000, async () => (await execute(replica(2), key, token)).status === 201);
    expect(await ordersPerformed()).toBe(before + 1);
    for (const g of replicas) await within(10_000, async () => (await metric(g, /^openpm_redis_up /)) === 1);
  });
});
