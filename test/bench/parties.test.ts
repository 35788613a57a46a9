/** What the benchmark reads off a gateway's admin port (scripts/bench/parties.ts). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envSettings, gatewayRecord } from '../../scripts/bench/parties.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import { collectGarbage, eventually } from '../helpers/gc.ts';

// A registry like a gateway's, with prom-client's default metrics, served as its admin port does.
const metrics = new Metrics();
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    void metrics.registry.metrics().then((text) => res.end(text));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  metrics.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('gatewayRecord', () => {
  it('counts the full collections between two readings', async () => {
    const before = await gatewayRecord(url);
    collectGarbage('major');
    collectGarbage('major');
    const after = await eventually(
      () => gatewayRecord(url),
      (r) => r.majorGcs - before.majorGcs >= 2,
    );
    expect(after.majorGcs - before.majorGcs).toBe(2);
  });

  it('reads the resident memory outside the JS heap, and sees it grow', async () => {
    const before = await gatewayRecord(url);
    // Never touched by V8's heap: a native allocation that stays resident while held.
    const held = Buffer.alloc(64 * 2 ** 20, 1);
    const after = await gatewayRecord(url);
    expect(before.outsideHeapMb).toBeGreaterThan(0);
    expect(after.outsideHeapMb - before.outsideHeapMb).toBeGreaterThan(48);
    expect(held.length).toBe(64 * 2 ** 20);
  });

  it("reads the event loop's longest delay, less the sampling interval", async () => {
    const record = await gatewayRecord(url);
    expect(Number.isFinite(record.loopMaxMs)).toBe(true);
    expect(record.loopMaxMs).toBeGreaterThanOrEqual(0);
  });
});

describe('envSettings', () => {
  it('reads NAME=value items, a value keeping any later =, and leaves out items without one', () => {
    expect(envSettings('LOG_LEVEL=warn,RATE_LIMITS=off')).toEqual({ LOG_LEVEL: 'warn', RATE_LIMITS: 'off' });
    expect(envSettings('REDIS_URL=redis://h:1/0?a=b,junk,EMPTY=')).toEqual({ REDIS_URL: 'redis://h:1/0?a=b', EMPTY: '' });
    expect(envSettings(undefined)).toEqual({});
    expect(envSettings('')).toEqual({});
  });
});
