/** The benchmark's count of Redis round trips (scripts/bench/redis.ts), against a real Redis. */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { roundTrips } from '../../scripts/bench/redis.ts';
import { REDIS_URL, connectTestRedis } from '../helpers/redis.ts';

let redis: Redis;
beforeAll(async () => {
  redis = await connectTestRedis();
});
afterAll(() => {
  redis.disconnect();
});

// Commands no other test sends, so tests running beside this one on the same server do not count.
describe('roundTrips', () => {
  it('counts what clients send from the first command on, with no settle time, and not a script’s own calls', async () => {
    const seen = await roundTrips(
      REDIS_URL,
      async () => {
        await redis.echo('a');
        await redis.echo('b');
        await redis.lastsave();
        await redis.eval("return redis.call('echo', 'c')", 0);
      },
      0,
    );
    expect(seen['echo']).toBe(2);
    expect(seen['lastsave']).toBe(1);
    expect(seen['eval']).toBe(1);
    expect(seen['monitor']).toBeUndefined();
  });

  it('leaves out what was sent before counting began', async () => {
    let sent = 0;
    const early = setInterval(() => {
      sent += 1;
      void redis.lastsave();
    }, 5);
    const seen = await roundTrips(
      REDIS_URL,
      async () => {
        clearInterval(early);
        await redis.echo('only');
      },
      100,
    );
    expect(sent).toBeGreaterThan(0);
    expect(seen['echo']).toBe(1);
    // About 20 were sent while it settled; one sent in the same turn as the settle timer can be
    // answered after the reset and be counted, none of the others.
    expect(seen['lastsave'] ?? 0).toBeLessThanOrEqual(1);
  });
});

describe('roundTrips against a server that refuses MONITOR', () => {
  it('fails at once instead of waiting for an answer that never comes', async () => {
    const server = createServer((socket) => {
      socket.on('data', () => socket.write('-NOPERM this user has no permissions to run the monitor command\r\n'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    let worked = false;
    await expect(
      roundTrips(`redis://127.0.0.1:${port}`, async () => {
        worked = true;
      }),
    ).rejects.toThrow(/MONITOR refused: NOPERM/);
    expect(worked).toBe(false);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
