/**
 * Runs once before the suite. Many tests need a real Redis; without one they would each time out
 * after a while, with only ioredis noise to explain why. So say it once, in one line, and stop.
 */
import { Redis } from 'ioredis';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export default async function redisPreflight(): Promise<void> {
  let firstError: string | undefined;
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', (err: Error) => {
    firstError ??= err.message;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    const reason = firstError ?? (err instanceof Error ? err.message : String(err));
    process.stderr.write(
      `The tests need a Redis at ${REDIS_URL} (set REDIS_URL to use another) and none answers (${reason}): ` +
        'start one with `redis-server --daemonize yes --save ""` (Debian: apt-get install redis-server) or ' +
        '`docker run -d -p 6379:6379 redis:7`, then run the tests again.\n',
    );
    // Exit rather than throw: a thrown error would bury this line under a stack trace.
    process.exit(1);
  } finally {
    redis.disconnect();
  }
}
