/**
 * The backend has the last word on whether an execution ran (docs/internal-api.md, "Writes and
 * idempotency"; docs/contract/writes.md#replay): once Redis comes back empty, the confirm claim
 * store has forgotten every executed token, and a retry reaches the backend again. The backend
 * replays its stored answer with `Idempotent-Replayed: true`, and the gateway must answer that
 * replay (200, `replayed: true`; 409 CONFIRM_TOKEN_USED for an opinion), never a second 201.
 *
 * Each stack uses Redis under a key prefix of its own, which the test deletes to empty it.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { MARKETS, OPINIONS, KEYS, type Stack } from '../helpers/stack.ts';
import { connectTestRedis, dropPrefix } from '../helpers/redis.ts';
import { V1, counters, expectError, writeStack } from '../helpers/writes.ts';

let stack: Stack;
let redis: Redis;

beforeAll(async () => {
  redis = await connectTestRedis();
  stack = await writeStack({ redis: true });
});
afterAll(async () => {
  await stack.close();
  await dropPrefix(redis, stack.prefix);
  redis.disconnect();
});

/** Redis restarted without its data: every key the gateway wrote is gone. */
async function emptyRedis(): Promise<void> {
  await dropPrefix(redis, stack.prefix);
  expect(await redis.keys(`${stack.prefix}confirm:*`)).toEqual([]);
}

describe('an executed token presented again after the claim store lost its record', () => {
  it('an order answers the backend replay: 200, replayed: true, the same Order, one write', async () => {
    const topic = genericMarketId(3);
    const p = await stack.post(`${V1}/topics/${topic}/order-preview`, KEYS.aliceWrite, {
      option_id: outcomeId(topic, 1),
      amount_coins: 20,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const before = await counters(stack);
    const first = await stack.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token });
    expect(first.status).toBe(201);
    expect(first.body.replayed).toBe(false);

    await emptyRedis();
    const again = await stack.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });

    // The outcome is stored again: the next retry is answered by the gateway itself.
    const third = await stack.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token });
    expect(third.status).toBe(200);
    expect(third.body).toEqual({ ...first.body, replayed: true });

    const after = await counters(stack);
    expect(after.performed['order']).toBe((before.performed['order'] ?? 0) + 1);
    expect(after.replayed['order']).toBe((before.replayed['order'] ?? 0) + 1);
  });

  it('a back answers the backend replay: 200, replayed: true, the same Back', async () => {
    const p = await stack.post(`${V1}/opinions/${OPINIONS.frankBackable}/back-preview`, KEYS.aliceWrite, { topic_id: MARKETS.backable });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.can_back, JSON.stringify(p.body)).toBe(true);
    const first = await stack.post(`${V1}/backs`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token });
    expect(first.status).toBe(201);

    await emptyRedis();
    const again = await stack.post(`${V1}/backs`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });
  });

  it('an opinion stays single use: 409 CONFIRM_TOKEN_USED, not a second 201', async () => {
    const p = await stack.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, KEYS.aliceWrite, {
      content: 'Rain bands on the radar point to a wet end of the month.',
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.can_publish, JSON.stringify(p.body)).toBe(true);
    const before = await counters(stack);
    const first = await stack.post(`${V1}/opinions`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token });
    expect(first.status, JSON.stringify(first.body)).toBe(201);

    await emptyRedis();
    const again = await stack.post(`${V1}/opinions`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token });
    expectError(again, 409, 'CONFIRM_TOKEN_USED');
    expect((await counters(stack)).performed['opinion']).toBe((before.performed['opinion'] ?? 0) + 1);
  });
});
