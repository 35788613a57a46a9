/**
 * The per-key windows across real gateway processes (not only app instances in one process):
 * three replicas, one Redis, one burst per window kind, exactly k refusals each.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { SERVICE_TOKEN } from '../helpers/stack.ts';
import { killAll, startGateway, type GatewayProcess } from '../helpers/gateway-process.ts';
import { itRefusesExactlyTheExcess } from '../helpers/limit-bursts.ts';
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

describe('limit + k requests over three processes sharing Redis', () => {
  itRefusesExactlyTheExcess({
    newKey,
    burst: (n, path, key, body) =>
      burst(
        n,
        path,
        key,
        body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      ),
  });
});
