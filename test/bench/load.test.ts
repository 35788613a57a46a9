/** The benchmark's load generator (scripts/bench/load.ts), against a local server. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { load } from '../../scripts/bench/load.ts';

describe('load', () => {
  it('counts the answered requests and gives their latency percentiles in order', async () => {
    // Every third request waits 30 ms, so the percentiles cannot all be the same.
    let n = 0;
    const server = createServer((_req, res) => {
      n += 1;
      if (n % 3 === 0) setTimeout(() => res.end('ok'), 30);
      else res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await load({ url, steps: [{ method: 'GET', path: '/' }], connections: 1, amount: 30 });
      expect(result.ok).toBe(30);
      expect(result.failed).toBe(0);
      const { p50, p99, max } = result.latency;
      expect(p50).toBeLessThanOrEqual(p99);
      expect(p99).toBeLessThanOrEqual(max);
      expect(max).toBeGreaterThanOrEqual(30);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
