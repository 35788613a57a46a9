/** The failed-authentication throttle over a Redis shared by two replicas. */
import { afterEach, describe, expect, it } from 'vitest';
import { useTestRedis } from '../helpers/redis.ts';
import { closeGateways, gateway } from './auth-throttle-harness.ts';

afterEach(closeGateways);

describe('auth throttle on a shared Redis', () => {
  const { prefix, redis } = useTestRedis('auth-throttle');

  it('counts failures fleet-wide, under <prefix>auth-fail:', async () => {
    const one = await gateway({ perMinute: 3, totalPerMinute: 1_000, redis, prefix });
    const two = await gateway({ perMinute: 3, totalPerMinute: 1_000, redis, prefix });
    await one.fail('10.0.0.1', 3);
    expect((await two.admit('10.0.0.1', 'x')).status).toBe(200);
    expect((await two.admit('10.0.0.1', 'y')).status).toBe(429);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}auth-fail:*`, 'COUNT', 500);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    expect(keys.length).toBeGreaterThan(0);
  });
});
