/** The claim-store behaviour against Redis, two connections standing for two replicas. */
import { describe, expect, it } from 'vitest';
import { RedisClaimStore } from '../../src/confirm/claims.ts';
import { connectRedis } from '../../src/store/redis.ts';
import { useTestRedis } from '../helpers/redis.ts';
import { claimStoreBehaviour } from './claims-behaviour.ts';

const { prefix, redis, redis2 } = useTestRedis('claims');

claimStoreBehaviour('redis', {
  make: () => [new RedisClaimStore(redis, prefix), new RedisClaimStore(redis2, prefix)],
  // Redis expires keys on its own clock.
  pass: (ms) => new Promise((r) => setTimeout(r, ms)),
});

describe('redis claim store with Redis down', () => {
  it('throws instead of granting a claim', async () => {
    const dead = connectRedis({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 100 });
    dead.on('error', () => {});
    await expect(new RedisClaimStore(dead, prefix).claim('x', 1000, 'o1')).rejects.toThrow();
    dead.disconnect();
  });
});
