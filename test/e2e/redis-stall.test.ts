/**
 * Redis that stalls (the process frozen: connections open, nothing answers) and Redis that is
 * down when the gateway starts. Both must cost bounded time, never a hang: every command has
 * REDIS_COMMAND_TIMEOUT_MS, after which each function takes its documented fallback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/index.ts';
import { outcomeId } from '../../sandbox/ids.ts';
import { testPrefix } from '../helpers/redis.ts';
import { KEYS, MARKETS, SERVICE_TOKEN, USERS, startStack, type Reply, type Stack } from '../helpers/stack.ts';
import { RedisProcess, freePort } from '../upstream/redis-process.ts';

const V1 = '/open/v1';
const BOUND_MS = 2_000;

async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await p;
  return { value, ms: performance.now() - started };
}

function expectContractError(r: Reply, status: number, code: string): void {
  expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status, code });
  expect(ErrorEnvelope.safeParse(r.body).success).toBe(true);
}

async function until(what: string, check: () => Promise<boolean>, ms = 8_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function helpers(stack: () => Stack) {
  return {
    /** Readiness stays 200 through a Redis outage; its body reports the dependency. */
    readyz: async () => {
      const res = await fetch(`${stack().url}/readyz`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { dependencies: { redis: string } }).dependencies.redis;
    },
    orders: async () => ((await stack().admin('GET', '/counters')) as { performed: { order: number } }).performed.order,
    coins: async (userId: string) => {
      const res = await fetch(`${stack().sandbox.url}/internal/users/${userId}/profile`, { headers: { 'x-service-token': SERVICE_TOKEN } });
      return ((await res.json()) as { data: { wallet: { coin: number } } }).data.wallet.coin;
    },
    preview: (topic: string, key: string = KEYS.aliceWrite) =>
      stack().post(`${V1}/topics/${topic}/order-preview`, key, { option_id: outcomeId(topic, 1), amount_coins: 10 }),
    place: (token: string, key: string = KEYS.aliceWrite) => stack().post(`${V1}/orders`, key, { confirm_token: token }),
  };
}

describe('Redis stalls (frozen process)', () => {
  let redis: RedisProcess;
  let stack: Stack;
  const h = helpers(() => stack);

  beforeAll(async () => {
    redis = new RedisProcess(await freePort());
    await redis.start();
    stack = await startStack({
      env: { REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: 200, REDIS_KEY_PREFIX: testPrefix('redis-stall') },
    });
  });
  afterAll(async () => {
    redis?.thaw();
    await stack?.close();
    await redis?.kill();
  });

  it('reads, key checks and /readyz answer within the bound; a write is refused and charges nothing', async () => {
    const p = await h.preview(MARKETS.uneven);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.can_place).toBe(true);
    const ordersBefore = await h.orders();
    const coinsBefore = await h.coins(USERS.alice);

    redis.freeze();
    try {
      const ready = await timed(h.readyz());
      expect(ready.value).toBe('down');
      expect(ready.ms).toBeLessThan(BOUND_MS);

      const read = await timed(stack.get(`${V1}/topics/${MARKETS.aliceOpen}`, KEYS.aliceWrite));
      expect(read.value.status).toBe(200);
      expect(read.ms).toBeLessThan(BOUND_MS);

      // A key this replica has not seen: throttle, verdict cache and limiter all time out.
      const fresh = await timed(stack.get(`${V1}/me`, KEYS.aliceRead));
      expect(fresh.value.status).toBe(200);
      expect(fresh.ms).toBeLessThan(BOUND_MS);

      const write = await timed(h.place(p.body.confirm_token));
      expectContractError(write.value, 500, 'CONFIRM_UNAVAILABLE');
      expect(write.ms).toBeLessThan(BOUND_MS);

      const load = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          timed(stack.get(i % 2 === 0 ? `${V1}/zones` : `${V1}/topics`, i % 3 === 0 ? KEYS.aliceRead : KEYS.aliceWrite)),
        ),
      );
      for (const { value, ms } of load) {
        expect(ms).toBeLessThan(BOUND_MS);
        expect(value.status).toBe(200);
      }
    } finally {
      redis.thaw();
    }
    expect(await h.orders()).toBe(ordersBefore);
    expect(await h.coins(USERS.alice)).toBe(coinsBefore);
    expect(await stack.admin('GET', '/audit')).toMatchObject({ ok: true });

    // Thawed: a new preview and order go through (a token refused during a stall may stay
    // claimed: its claim can land once Redis resumes; docs/operations.md says to preview again).
    await until('/readyz to report redis up', async () => (await h.readyz()) === 'up');
    const again = await h.preview(MARKETS.multiOutcome);
    expect(again.body.can_place).toBe(true);
    const placed = await h.place(again.body.confirm_token);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(await h.orders()).toBe(ordersBefore + 1);
  });
});

describe('Redis down when the gateway starts', () => {
  let redis: RedisProcess;
  let stack: Stack;
  const h = helpers(() => stack);

  beforeAll(async () => {
    redis = new RedisProcess(await freePort());
    // Nothing listens yet: start-up waits at most 2 s for Redis, then serves with fallbacks.
    const started = performance.now();
    stack = await startStack({
      env: { REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: 200, REDIS_KEY_PREFIX: testPrefix('redis-late') },
    });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
  afterAll(async () => {
    await stack?.close();
    await redis?.kill();
  });

  it('serves reads, refuses writes, stays ready; then recovers when Redis appears', async () => {
    expect(await h.readyz()).toBe('down');
    const read = await timed(stack.get(`${V1}/topics`, KEYS.aliceWrite));
    expect(read.value.status).toBe(200);
    expect(read.ms).toBeLessThan(BOUND_MS);

    // A preview needs no Redis (the token is signed, not stored); its execution does.
    const p = await h.preview(MARKETS.boosted);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const ordersBefore = await h.orders();
    expectContractError(await h.place(p.body.confirm_token), 500, 'CONFIRM_UNAVAILABLE');
    expect(await h.orders()).toBe(ordersBefore);

    await redis.start();
    await until('/readyz to report redis up', async () => (await h.readyz()) === 'up');
    const placed = await h.place(p.body.confirm_token);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(await h.orders()).toBe(ordersBefore + 1);
  });
});
