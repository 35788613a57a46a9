/**
 * The listen address (HOST, the chart's `listenAddress`; docs/deployment.md): `::` is what an
 * IPv6-only or dual-stack cluster needs, and on a dual-stack node it takes IPv4 clients on the
 * same port as well, so one setting serves both families.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { KEYS } from '../../sandbox/ids.ts';
import { killAll, startGateway } from '../helpers/gateway-process.ts';

const SERVICE_TOKEN = 'ops-listen-service-token';
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
});
afterAll(async () => {
  await killAll();
  await sandbox?.close();
});

describe('HOST=::', () => {
  it('serves REST on the IPv6 and the IPv4 loopback alike', async () => {
    const gw = await startGateway({
      HOST: '::',
      UPSTREAM_URL: sandbox.url,
      UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
      CONFIRM_KEYS: `t1:${'k'.repeat(40)}`,
      CURSOR_SECRET: 'ops-cursor-secret-0123456789',
      RATE_LIMITS: 'off',
    });
    try {
      const { port } = new URL(gw.url);
      for (const host of ['[::1]', '127.0.0.1']) {
        const res = await fetch(`http://${host}:${port}/open/v1/me`, { headers: { authorization: `Bearer ${KEYS.aliceRead}` } });
        expect(res.status, host).toBe(200);
      }
    } finally {
      await gw.stop();
    }
  });
});
