/**
 * The per-key windows across real gateway processes (not only app instances in one process):
 * three replicas, one Redis, one burst per window kind, exactly k refusals each.
 */
import { beforeAll, describe } from 'vitest';
import { startGateway, useFleet, type GatewayProcess } from '../helpers/gateway-process.ts';
import { itRefusesExactlyTheExcess } from '../helpers/limit-bursts.ts';

const fleet = useFleet('limits-processes');
let replicas: GatewayProcess[] = [];

beforeAll(async () => {
  const env = fleet.env();
  replicas = await Promise.all([startGateway(env), startGateway(env), startGateway(env)]);
}, 30_000);

async function newKey(userId: string, scopes: string[]): Promise<string> {
  const res = await fetch(`${fleet.sandbox.url}/sandbox/admin/keys`, {
    method: 'POST',
    headers: { 'x-service-token': fleet.serviceToken, 'content-type': 'application/json' },
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
