/**
 * The one Redis connection of a replica. Commands fail fast instead of queueing while Redis is
 * away (no offline queue, one retry, a short command timeout), so every caller can apply its
 * own documented fallback (docs/operations.md) within a bounded time.
 */
import { Redis } from 'ioredis';

export interface RedisOptions {
  url: string;
  commandTimeoutMs: number;
}

export function connectRedis(opts: RedisOptions): Redis {
  return new Redis(opts.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: opts.commandTimeoutMs,
    connectTimeout: Math.max(1_000, opts.commandTimeoutMs),
    // Keep reconnecting in the background, at most once a second.
    retryStrategy: (times) => Math.min(times * 100, 1_000),
    lazyConnect: false,
  });
}

/** Wait until the connection is ready, or give up after `timeoutMs` (start-up and tests). */
export async function redisReady(redis: Redis, timeoutMs = 2_000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
