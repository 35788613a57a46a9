/**
 * The listen address (HOST, the chart's `listenAddress`; docs/deployment.md): `::` is what an
 * IPv6-only or dual-stack cluster needs, and on a dual-stack node it takes IPv4 clients on the
 * same port as well, so one setting serves both families. The gateway runs on its built-in
 * sandbox backend here: only where it listens matters.
 */
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS } from '../../sandbox/ids.ts';
import { killAll, startGateway } from '../helpers/gateway-process.ts';

afterAll(killAll);

/** A machine whose kernel has IPv6 off cannot bind `::` at all (docs/deployment.md says so). */
const ipv6 = await new Promise<boolean>((resolve) => {
  const probe = createServer()
    .once('error', () => resolve(false))
    .listen(0, '::1', () => probe.close(() => resolve(true)));
});

describe.runIf(ipv6)('HOST=::', () => {
  it('serves REST on the IPv6 and the IPv4 loopback alike', async () => {
    const gw = await startGateway({ HOST: '::' });
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
