/**
 * Redis trouble, end to end (docs/operations.md, "When Redis fails"): a gateway whose Redis is
 * a process of this test's own is run normally, then Redis is killed, then restarted on the
 * same port. While it is down: reads keep serving (key verdicts from the backend, rate limits
 * skipped and counted as such), writes fail closed with 500 CONFIRM_UNAVAILABLE and charge
 * nothing, /readyz reports redis down (still 200), and every answer comes without waiting for
 * Redis. After the restart the same gateway recovers by itself: the token refused during the
 * outage places its order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/index.ts';
import { outcomeId } from '../../sandbox/ids.ts';
import type { RedisClient } from '../../src/store/redis.ts';
import { testPrefix } from '../helpers/redis.ts';
import { KEYS, MARKETS, SERVICE_TOKEN, USERS, startStack, type Reply, type Stack } from '../helpers/stack.ts';
import { PrivateRedis } from '../helpers/private-redis.ts';

const V1 = '/open/v1';
/**
 * Longer than any test may run: no answer can come from a Redis command that timed out, so each
 * answer during the outage shows that the command failed at once (no offline queue) and the
 * gateway took its fallback rather than wait for Redis.
 */
const COMMAND_TIMEOUT_MS = 600_000;

let redis: PrivateRedis;
let stack: Stack;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  stack = await startStack({
    env: { REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: COMMAND_TIMEOUT_MS, REDIS_KEY_PREFIX: testPrefix('redis-outage') },
  });
});
afterAll(async () => {
  await stack?.close();
  await redis?.stop();
});

async function coins(userId: string): Promise<number> {
  const res = await fetch(`${stack.sandbox.url}/internal/users/${userId}/profile`, { headers: { 'x-service-token': SERVICE_TOKEN } });
  return ((await res.json()) as { data: { wallet: { coin: number } } }).data.wallet.coin;
}

const orders = async () => ((await stack.admin('GET', '/counters')) as { performed: { order: number } }).performed.order;

async function expectAuditOk(): Promise<void> {
  expect(await stack.admin('GET', '/audit')).toMatchObject({ ok: true, problems: [] });
}

/** Readiness stays 200 through a Redis outage; its body reports the dependency. */
async function readyz(): Promise<string> {
  const res = await fetch(`${stack.url}/readyz`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { dependencies: { redis: string } }).dependencies.redis;
}

/** The gateway's own Redis connection, whose status events say when it lost and regained Redis. */
function connection(): RedisClient {
  const client = stack.app.services.redis;
  if (client === null) throw new Error('the gateway has no Redis');
  return client;
}

/** The connection's next `status` event (node:events' once() would reject on the 'error' of a failed reconnection). */
const event = (client: RedisClient, status: 'close' | 'ready') => new Promise<void>((resolve) => client.once(status, () => resolve()));

async function skipped(): Promise<number> {
  const metric = await stack.app.services.metrics.registry.getSingleMetric('openpm_rate_limit_decisions_total')?.get();
  return (metric?.values ?? []).filter((v) => v.labels['decision'] === 'skipped').reduce((n, v) => n + v.value, 0);
}

function expectContractError(r: Reply, status: number, code: string): void {
  expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status, code });
  expect(ErrorEnvelope.safeParse(r.body).success).toBe(true);
}

const TOPIC = MARKETS.boosted; // stakes 10..2000; alice holds nothing there
const preview = () =>
  stack.post(`${V1}/topics/${TOPIC}/order-preview`, KEYS.aliceWrite, { option_id: outcomeId(TOPIC, 1), amount_coins: 10 });
const place = (token: string) => stack.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: token });

/** The token previewed while Redis was up, executed during the outage and after it. */
let token = '';
let ordersBefore = 0;
let coinsBefore = 0;

describe('a gateway whose Redis dies and comes back', () => {
  it('serves normally while Redis is up (limits counted in Redis, a write previewed)', async () => {
    expect(await readyz()).toBe('up');
    const me = await stack.get(`${V1}/me`, KEYS.aliceWrite);
    expect(me.status).toBe(200);
    expect(me.headers.get('x-ratelimit-limit')).toBe('120');
    const p = await preview();
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.can_place).toBe(true);
    token = p.body.confirm_token;
    expect(token).toMatch(/^ct1\./);
    ordersBefore = await orders();
    coinsBefore = await coins(USERS.alice);
  });

  it('Redis killed: /readyz stays 200 and reports redis down, without waiting for Redis', async () => {
    const client = connection();
    const closed = event(client, 'close');
    await redis.stop();
    await closed;
    expect(await readyz()).toBe('down');
  });

  it('reads keep serving: rate limits skipped (counted as skipped), no X-RateLimit headers', async () => {
    const before = await skipped();
    const r = await stack.get(`${V1}/topics`, KEYS.aliceWrite);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
    expect(await skipped()).toBe(before + 1);
  });

  it('key verdicts fall back to the backend: a key never seen before works, a revoked one is refused', async () => {
    const read = await stack.get(`${V1}/me`, KEYS.aliceRead);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expectContractError(await stack.get(`${V1}/me`, KEYS.carolRevoked), 401, 'UNAUTHORIZED');
  });

  it('a write fails closed: 500 CONFIRM_UNAVAILABLE, nothing executed, nothing charged', async () => {
    expectContractError(await place(token), 500, 'CONFIRM_UNAVAILABLE');
    // Asking again changes nothing.
    expectContractError(await place(token), 500, 'CONFIRM_UNAVAILABLE');
    expect(await orders()).toBe(ordersBefore);
    expect(await coins(USERS.alice)).toBe(coinsBefore);
    await expectAuditOk();
  });

  it('under load: 20 concurrent reads all answer 200, each with its rate limit skipped', async () => {
    const paths = [
      `${V1}/topics`,
      `${V1}/topics/${MARKETS.aliceOpen}`,
      `${V1}/topics/${MARKETS.boosted}/price-history`,
      `${V1}/zones`,
      `${V1}/me`,
      `${V1}/search?q=will`,
      `${V1}/topics?type=poll`,
    ];
    const before = await skipped();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.get(paths[i % paths.length] ?? `${V1}/zones`, i % 2 === 0 ? KEYS.aliceRead : KEYS.aliceWrite),
      ),
    );
    // Nothing here depends on Redis: they are all served.
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    expect(answers.filter((r) => r.headers.get('x-ratelimit-limit') !== null)).toEqual([]);
    expect(await skipped()).toBe(before + answers.length);
  });

  it('Redis back on the same port: the gateway recovers without a restart and the same token places its order', async () => {
    const client = connection();
    const ready = event(client, 'ready');
    await redis.resume();
    await ready;
    expect(await readyz()).toBe('up');
    const me = await stack.get(`${V1}/me`, KEYS.aliceWrite);
    expect(me.headers.get('x-ratelimit-limit')).toBe('120');

    // The refused attempts claimed nothing: the token is still good for exactly one order.
    const r = await place(token);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.replayed).toBe(false);
    const again = await place(token);
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(await orders()).toBe(ordersBefore + 1);
    expect(await coins(USERS.alice)).toBe(coinsBefore - 10);
    await expectAuditOk();
  });
});
