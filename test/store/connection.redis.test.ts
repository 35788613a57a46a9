/**
 * Connection helpers of src/store/redis.ts that the rest of the gateway relies on to stay up
 * when Redis is not: the readiness wait gives up in time, the probe answers false (never hangs,
 * never throws) for a server that is gone or stalled, and scripts refuse the wrong number of keys.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineScript, probeRedis, redisReady } from '../../src/store/redis.ts';
import { useTestRedis } from '../helpers/redis.ts';

const { prefix, redis } = useTestRedis('store-connection');
/** A TCP server that accepts connections and never answers a byte: a stalled Redis. */
let stalled: Server;
let stalledPort = 0;
const sockets: Socket[] = [];
const clients: Redis[] = [];

beforeAll(async () => {
  stalled = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
  const addr = stalled.address();
  stalledPort = typeof addr === 'object' && addr !== null ? addr.port : 0;
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => stalled.close(resolve));
});

function client(port: number): Redis {
  const c = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, retryStrategy: () => 200 });
  c.on('error', () => {});
  clients.push(c);
  return c;
}

/** A promise's value once it has settled (undefined until then). */
function settled<T>(p: Promise<T>): { value: T | undefined } {
  const box: { value: T | undefined } = { value: undefined };
  void p.then((v) => {
    box.value = v;
  });
  return box;
}

describe('redisReady', () => {
  it('answers true at once for a ready connection', async () => {
    expect(await redisReady(redis, 50)).toBe(true);
  });

  it('gives up after the timeout when the server never becomes ready', async () => {
    const c = client(stalledPort);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const ready = settled(redisReady(c, 300));
      await vi.advanceTimersByTimeAsync(299);
      expect(ready.value).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(ready.value).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('probeRedis', () => {
  it('is true when Redis answers PING', async () => {
    expect(await probeRedis(redis, 1_000)).toBe(true);
  });

  it('is false at the timeout for a stalled server', async () => {
    const c = client(stalledPort);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const probed = settled(probeRedis(c, 300));
      await vi.advanceTimersByTimeAsync(299);
      expect(probed.value).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(probed.value).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is false, not an exception, for a closed connection', async () => {
    const c = client(stalledPort);
    c.disconnect();
    expect(await probeRedis(c, 300)).toBe(false);
  });
});

describe('defineScript', () => {
  it('runs a script with its keys and arguments', async () => {
    const setGet = defineScript(redis, 'openpmTestSetGet', 1, "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[1])");
    expect(await setGet([`${prefix}a`], ['v1'])).toBe('v1');
    const count = defineScript(redis, 'openpmTestCountKeys', 'variable', 'return #KEYS');
    expect(await count([`${prefix}a`, `${prefix}b`, `${prefix}c`], [])).toBe(3);
  });

  it('refuses a call with the wrong number of keys before anything reaches Redis', () => {
    const setGet = defineScript(redis, 'openpmTestSetGet2', 1, "return redis.call('GET', KEYS[1])");
    expect(() => setGet([`${prefix}a`, `${prefix}b`], [])).toThrow('script openpmTestSetGet2 takes 1 keys, got 2');
  });
});
