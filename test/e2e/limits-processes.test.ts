/**
 * The per-key windows across real gateway processes (not only app instances in one process):
 * three replicas, one Redis, one burst per window kind, exactly k refusals each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { SERVICE_TOKEN, USERS } from '../helpers/stack.ts';
import { killAll, startGateway, type GatewayProcess } from '../helpers/gateway-process.ts';
import { REDIS_URL, connectTestRedis, dropPrefix, testPrefix } from '../helpers/redis.ts';

const prefix = testPrefix('limits-processes');
let sandbox: Sandbox;
let replicas: GatewayProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
  const env = {
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    CONFIRM_KEYS: `t1:${'p'.repeat(40)}`,
    CURSOR_SECRET: 'limits-processes-cursor-secret',
    PORT: '0',
    ADMIN_PORT: '0',
    LOG_LEVEL: 'info',
  };
  replicas = await Promise.all([startGateway(env), startGateway(env), startGateway(env)]);
}, 30_000);

afterAll(async () => {
  await killAll();
  await sandbox.close();
  const r = await connectTestRedis();
  await dropPrefix(r, prefix);
  r.disconnect();
});

async function newKey(userId: string, scopes: string[]): Promise<string> {
  const res = await fetch(`${sandbox.url}/sandbox/admin/keys`, {
    method: 'POST',
    headers: { 'x-service-token': SERVICE_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ userId, scopes }),
  });
  return ((await res.json()) as { data: { key: string } }).data.key;
}

async function burst(n: number, path: string, key: string, init: RequestInit = {}): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const g = replicas[i % replicas.length] as GatewayProcess;
      const res = await fetch(`${g.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } });
      await res.arrayBuffer();
      return res.status;
    }),
  );
}

const count = (statuses: number[], s: number) => statuses.filter((x) => x === s).length;

describe('limit + k requests over three processes sharing Redis', () => {
  it('read window 120: exactly 5 × 429', async () => {
    const key = await newKey(USERS.kim, ['READ']);
    expect(count(await burst(125, '/open/v1/topic-categories', key), 429)).toBe(5);
  });

  it('search window 30: exactly 3 × 429', async () => {
    const key = await newKey(USERS.leo, ['READ']);
    expect(count(await burst(33, '/open/v1/search?q=will', key), 429)).toBe(3);
  });

  it('write window 10: exactly 2 × 429', async () => {
    const key = await newKey(USERS.judy, ['READ', 'WRITE']);
    const statuses = await burst(12, '/open/v1/orders', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ confirm_token: 'not-a-token' }),
    });
    expect(count(statuses, 429)).toBe(2);
    expect(count(statuses, 400)).toBe(10);
  });
});
