/** The rate-limit store behaviour against Redis (two connections standing for two replicas), and what only the Redis store does. */
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decide } from '../../src/limits/decision.ts';
import { MAX_BATCH, RedisRateLimitStore, type Consumption } from '../../src/limits/store.ts';
import type { WindowSpec } from '../../src/limits/windows.ts';
import { connectTestRedis, useTestRedis } from '../helpers/redis.ts';
import { day, minute, rateLimitStoreBehaviour, subject } from './store-behaviour.ts';

const { prefix, redis, redis2 } = useTestRedis('limits');

rateLimitStoreBehaviour('redis', () => [new RedisRateLimitStore(redis, prefix), new RedisRateLimitStore(redis2, prefix)] as const);

describe('redis rate-limit store: what each window reports', () => {
  it('reports no oldest entry for a day window, and the oldest request of a minute window in any position', async () => {
    const s = new RedisRateLimitStore(redis, prefix);
    const key = subject();
    const windows = [day(10), minute(10)];
    const first = await s.consume(key, windows);
    await new Promise((r) => setTimeout(r, 5));
    const second = await s.consume(key, windows);
    expect(second.now).toBeGreaterThan(first.now);
    expect(second.windows).toEqual([
      { spec: day(10), count: 2, oldest: null },
      { spec: minute(10), count: 2, oldest: first.now },
    ]);
  });

  it('names the keys as docs/deployment.md lists them: one hash tag per API key, minute logs under …:log', () => {
    const s = new RedisRateLimitStore(redis, prefix);
    expect(s.key('key-1', day(1))).toBe(`${prefix}rl:{key-1}:read_day`);
    expect(s.key('key-1', minute(1))).toBe(`${prefix}rl:{key-1}:read_minute:log`);
  });

  it('keeps a day window as one counter for the day, not a log of requests', async () => {
    const s = new RedisRateLimitStore(redis, prefix);
    const key = subject();
    await s.consume(key, [day(10)]);
    expect(await redis.type(s.key(key, day(10)))).toBe('hash');
    expect(await redis.hget(s.key(key, day(10)), 'count')).toBe('1');
  });

  it("keeps a minute window as the list of its requests' times, oldest first", async () => {
    const s = new RedisRateLimitStore(redis, prefix);
    const key = subject();
    const first = await s.consume(key, [minute(10)]);
    const second = await s.consume(key, [minute(10)]);
    expect(await redis.type(s.key(key, minute(10)))).toBe('list');
    expect(await redis.lrange(s.key(key, minute(10)), 0, -1)).toEqual([String(first.now), String(second.now)]);
  });

  // The script finds the end of the aged-out run at the log's head by doubling, then halving,
  // its steps: every boundary of those steps, none aged out, and all of them.
  it.each([
    [0, 0],
    [0, 3],
    [1, 0],
    [1, 1],
    [2, 2],
    [3, 1],
    [4, 3],
    [5, 0],
    [7, 2],
    [8, 1],
    [9, 4],
    [100, 0],
    [1000, 5],
  ])('drops %i requests older than 60 s from the head of a minute log that holds %i newer ones', async (aged, recent) => {
    const s = new RedisRateLimitStore(redis, prefix);
    const key = subject();
    const [seconds, micros] = await redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    // Aged out: 60.5 s old or more; recent: 30 s old or less, one per millisecond.
    const times = [
      ...Array.from({ length: aged }, (_, i) => now - 60_500 - (aged - i)),
      ...Array.from({ length: recent }, (_, i) => now - 30_000 + i),
    ];
    const log = s.key(key, minute(10_000));
    if (times.length > 0) await redis.rpush(log, ...times.map(String));
    const c = await s.consume(key, [minute(10_000)]);
    expect(c.allowed).toBe(true);
    expect(c.windows[0]).toEqual({ spec: minute(10_000), count: recent + 1, oldest: recent > 0 ? now - 30_000 : c.now });
    expect(await redis.lrange(log, 0, -1)).toEqual([...times.slice(aged), c.now].map(String));
  });
});

describe('redis rate-limit store: one call for the requests a key sends while its call is in flight', () => {
  // The store over a connection of its own, with the script calls it sends counted.
  let conn: Redis;
  let store: RedisRateLimitStore;
  let scriptCalls = 0;
  /** The most script calls sent and not yet answered at one time. */
  let mostInFlight = 0;
  beforeEach(async () => {
    conn = await connectTestRedis();
    scriptCalls = 0;
    mostInFlight = 0;
    let inFlight = 0;
    const send = conn.sendCommand.bind(conn);
    conn.sendCommand = ((command: Parameters<Redis['sendCommand']>[0], stream?: Parameters<Redis['sendCommand']>[1]) => {
      if (command.name === 'evalsha' || command.name === 'eval') {
        scriptCalls += 1;
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        const answered = () => {
          inFlight -= 1;
        };
        command.promise.then(answered, answered);
      }
      return send(command, stream);
    }) as Redis['sendCommand'];
    store = new RedisRateLimitStore(conn, prefix);
  });
  afterEach(() => {
    conn.disconnect();
  });

  it('counts a burst in two calls, admitting the first ones in arrival order as single calls would', async () => {
    const key = subject();
    const windows = [minute(25), day(1000)];
    const burst = Promise.all(Array.from({ length: 40 }, () => store.consume(key, windows)));
    expect(store.pending).toBe(1);
    const results = await burst;
    await new Promise((r) => setImmediate(r));
    expect(store.pending).toBe(0); // an idle key holds nothing
    // The first request goes at once; the 39 that came while it was in flight go together.
    expect(scriptCalls).toBe(2);
    expect(mostInFlight).toBe(1);
    expect(results.map((r) => r.allowed)).toEqual(Array.from({ length: 40 }, (_, i) => i < 25));
    expect(results.map((r) => r.windows[0]?.count)).toEqual(Array.from({ length: 40 }, (_, i) => Math.min(i + 1, 25)));
    expect(results.map((r) => r.windows[1]?.count)).toEqual(results.map((r) => r.windows[0]?.count));
    for (const r of results) expect(r.windows[0]?.oldest).toBe(results[0]?.now);
    expect(await redis.llen(store.key(key, minute(25)))).toBe(25);
    expect(await redis.hget(store.key(key, day(1000)), 'count')).toBe('25');
    const d = decide(results[39] as Consumption);
    expect(d.headers['x-ratelimit-remaining']).toBe('0');
    expect(decide(results[9] as Consumption).headers['x-ratelimit-remaining']).toBe('15');
  });

  it('refuses a whole batch when a window is already full, counting nothing', async () => {
    const key = subject();
    const windows = [minute(100), day(3)];
    for (let i = 0; i < 3; i++) await store.consume(key, windows);
    const results = await Promise.all(Array.from({ length: 6 }, () => store.consume(key, windows)));
    expect(results.every((r) => !r.allowed)).toBe(true);
    for (const r of results) expect(r.windows.map((w) => w.count)).toEqual([3, 3]);
    expect(await redis.llen(store.key(key, minute(100)))).toBe(3);
  });

  it('reports an empty minute window as empty to requests a full day window refuses', async () => {
    const key = subject();
    const windows = [minute(100), day(3)];
    // A key that used its day a minute or more ago: its minute log has aged out.
    const [seconds] = await redis.time();
    await redis.hset(store.key(key, day(3)), 'day', Math.floor(Number(seconds) / 86_400), 'count', 3);
    const results = await Promise.all(Array.from({ length: 3 }, () => store.consume(key, windows)));
    for (const r of results) {
      expect(r.allowed).toBe(false);
      expect(r.windows[0]).toEqual({ spec: minute(100), count: 0, oldest: null });
      expect(decide(r).headers['x-ratelimit-reset']).toBe('0');
    }
  });

  it('counts the requests of one key in arrival order across classes: a search behind waiting reads waits its turn', async () => {
    const [k1, k2] = [subject(), subject()];
    const reads = [minute(3)];
    const searches = [minute(3), { name: 'search_minute', kind: 'minute', limit: 2 } satisfies WindowSpec];
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => store.consume(k1, reads)),
      ...Array.from({ length: 4 }, () => store.consume(k2, reads)),
      store.consume(k1, searches),
      store.consume(k1, reads),
    ]);
    // As one call each would count them: k1's fourth read and its search find the read window full.
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, true, true, true, false, false, false]);
    // Each key's first request alone; then k1's waiting reads, its search and its last read in
    // three calls (runs of the same windows, in order), and k2's in one.
    expect(scriptCalls).toBe(6);
  });

  it('batches equal windows whoever built them, and keeps a different limit for the same window apart', async () => {
    const key = subject();
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => store.consume(key, [minute(3)])),
      store.consume(key, [minute(10)]),
    ]);
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, true]);
    expect(scriptCalls).toBe(3);
  });

  it('splits a burst larger than one call may count', async () => {
    const key = subject();
    const windows = [minute(100_000)];
    const results = await Promise.all(Array.from({ length: 2 * MAX_BATCH + 12 }, () => store.consume(key, windows)));
    expect(results.every((r) => r.allowed)).toBe(true);
    expect(results.map((r) => r.windows[0]?.count)).toEqual(results.map((_, i) => i + 1));
    // The first alone, then the 523 that waited in three calls sent together: a request waits
    // for the calls in flight when it came and its own, however long the queue.
    expect(scriptCalls).toBe(4);
    expect(mostInFlight).toBe(3);
  });

  it('fails the requests that waited behind a failed call, and serves the key again afterwards', async () => {
    const key = subject();
    conn.disconnect(); // a closed connection fails a call at once
    await connClosed(conn);
    const windows = [minute(10)];
    const failed = await Promise.allSettled(Array.from({ length: 5 }, () => store.consume(key, windows)));
    expect(failed.map((r) => r.status)).toEqual(Array.from({ length: 5 }, () => 'rejected'));
    // The four behind the first call were released with its failure, not sent after it.
    expect(scriptCalls).toBe(1);
    await conn.connect();
    const again = await Promise.all(Array.from({ length: 3 }, () => store.consume(key, windows)));
    expect(again.map((r) => r.windows[0]?.count)).toEqual([1, 2, 3]);
  });
});

async function connClosed(conn: Redis): Promise<void> {
  while (conn.status !== 'end') await new Promise((r) => setTimeout(r, 5));
}
