/** A real Redis for the tests of the Redis-backed stores, with a key prefix of their own. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';

export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** The secrets a fleet (REDIS_URL set) must share, or the configuration refuses to start. */
export const FLEET_SECRETS = {
  CONFIRM_KEYS: `t1:${'f'.repeat(40)}`,
  CURSOR_SECRET: 'fleet-test-cursor-secret',
} as const;

export function testPrefix(name: string): string {
  return `openpm-test:${name}:${randomUUID().slice(0, 8)}:`;
}

function testRedis(): Redis {
  return new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
}

export async function connectTestRedis(): Promise<Redis> {
  const redis = testRedis();
  await redis.connect();
  return redis;
}

/** Remove every key under a prefix (SCAN, never KEYS, so a shared Redis is not blocked). */
export async function dropPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export interface TestRedis {
  /** The key prefix of these tests: every key under it is dropped after them. */
  readonly prefix: string;
  readonly redis: Redis;
  /** A second connection, standing for a second replica (connected on its first command). */
  readonly redis2: Redis;
}

/**
 * The shared Redis for the tests of a file (or describe block) that call it: connected before
 * them; after them, their keys dropped and the connections closed.
 */
export function useTestRedis(name: string): TestRedis {
  const prefix = testPrefix(name);
  // Made now (so the tests can name them), connected only once the tests run.
  const redis = testRedis();
  const redis2 = testRedis();
  beforeAll(async () => {
    await redis.connect();
  });
  afterAll(async () => {
    await dropPrefix(redis, prefix);
    redis.disconnect();
    redis2.disconnect();
  });
  return { prefix, redis, redis2 };
}
