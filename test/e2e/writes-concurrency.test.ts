/**
 * Single use across replicas (SPEC 1.2, 3.3; DECISIONS 4): two gateways share the real Redis
 * and one sandbox; 50 parallel executions of one token, spread over both, perform the action
 * exactly once. Orders and backs replay; opinions refuse every other attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { Back, Order, PublishedOpinion } from '../../src/contract/index.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { connectTestRedis, dropPrefix, testPrefix } from '../helpers/redis.ts';
import { KEYS, MARKETS, OPINIONS, SERVICE_TOKEN, USERS, type Reply, type Stack } from '../helpers/stack.ts';
import { V1, coins, counters, expectAuditOk, valid, writeStack } from '../helpers/writes.ts';

const N = 50;
let sandbox: Sandbox;
let a: Stack;
let b: Stack;
let redis: Redis;
const prefix = testPrefix('writes-concurrency');

beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
  [a, b] = await Promise.all([writeStack({ redis: true, prefix, sandbox }), writeStack({ redis: true, prefix, sandbox })]);
  redis = await connectTestRedis();
});
afterAll(async () => {
  await expectAuditOk(a);
  await Promise.all([a.close(), b.close()]);
  await sandbox.close();
  await dropPrefix(redis, prefix);
  redis.disconnect();
});

/** N parallel executions of one token, alternating between the two gateways. */
function storm(path: string, token: string): Promise<Reply[]> {
  return Promise.all(
    Array.from({ length: N }, (_, i) => (i % 2 === 0 ? a : b).post(`${V1}${path}`, KEYS.aliceWrite, { confirm_token: token })),
  );
}

/** Exactly one 201; every other answer a 200 replay equal to it, or 409 RETRY_IDEMPOTENCY_KEY. */
function expectOneAndReplays(replies: Reply[]): any {
  const created = replies.filter((r) => r.status === 201);
  expect(created).toHaveLength(1);
  const first = created[0]?.body;
  expect(first.replayed).toBe(false);
  for (const r of replies) {
    if (r.status === 201) continue;
    if (r.status === 200) expect(r.body).toEqual({ ...first, replayed: true });
    else expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status: 409, code: 'RETRY_IDEMPOTENCY_KEY' });
  }
  return first;
}

describe('one token, 50 parallel executions over two replicas', () => {
  it('place_order: one backend write, one 201, replays', async () => {
    const topic = genericMarketId(0);
    const p = await a.post(`${V1}/topics/${topic}/order-preview`, KEYS.aliceWrite, { option_id: outcomeId(topic, 1), amount_coins: 10 });
    expect(p.body.can_place).toBe(true);
    const before = await counters(a);
    const coinsBefore = await coins(a, USERS.alice);
    // The backend takes its time, so that the other 49 arrive while the first is in flight.
    await a.admin('POST', '/faults', { method: 'POST', pathPrefix: '/internal/prediction/orders', delayMs: 300, times: 1 });

    const first = expectOneAndReplays(await storm('/orders', p.body.confirm_token));
    valid(Order, first);
    const after = await counters(a);
    expect(after.performed['order']).toBe((before.performed['order'] ?? 0) + 1);
    // The other 49 never reached the backend: they waited for the first outcome.
    expect(after.replayed['order']).toBe(before.replayed['order']);
    expect(await coins(a, USERS.alice)).toBe((Number(coinsBefore) - 10).toFixed(4));
    // Either replica answers a later retry from the shared store.
    expect((await b.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token })).body).toEqual({
      ...first,
      replayed: true,
    });
    await expectAuditOk(a);
  });

  it('back_opinion: one backend write, one 201, replays', async () => {
    const p = await b.post(`${V1}/opinions/${OPINIONS.heidiBoosted}/back-preview`, KEYS.aliceWrite, { topic_id: MARKETS.boosted });
    expect(p.body.can_back).toBe(true);
    const before = await counters(a);
    const coinsBefore = await coins(a, USERS.alice);

    await a.admin('POST', '/faults', {
      method: 'POST',
      pathPrefix: `/internal/prediction/opinions/${OPINIONS.heidiBoosted}/backs`,
      delayMs: 300,
      times: 1,
    });

    const first = expectOneAndReplays(await storm('/backs', p.body.confirm_token));
    valid(Back, first);
    const after = await counters(a);
    expect(after.performed['back']).toBe((before.performed['back'] ?? 0) + 1);
    expect(after.replayed['back']).toBe(before.replayed['back']);
    expect(await coins(a, USERS.alice)).toBe((Number(coinsBefore) - Number(p.body.summary.price_coins)).toFixed(4));
    await expectAuditOk(a);
  });

  it('publish_opinion: one backend write, one 201, every other attempt 409 CONFIRM_TOKEN_USED', async () => {
    const p = await a.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, KEYS.aliceWrite, { content: 'Fifty clicks, one opinion.' });
    expect(p.body.can_publish).toBe(true);
    const before = await counters(a);
    const coinsBefore = await coins(a, USERS.alice);

    await a.admin('POST', '/faults', {
      method: 'POST',
      pathPrefix: `/internal/prediction/markets/${MARKETS.aliceOpen}/opinions`,
      delayMs: 300,
      times: 1,
    });
    const replies = await storm('/opinions', p.body.confirm_token);
    const created = replies.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    valid(PublishedOpinion, created[0]?.body);
    for (const r of replies) {
      if (r.status !== 201) expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status: 409, code: 'CONFIRM_TOKEN_USED' });
    }
    expect((await counters(a)).performed['opinion']).toBe((before.performed['opinion'] ?? 0) + 1);
    expect(await coins(a, USERS.alice)).toBe((Number(coinsBefore) - 5).toFixed(4));
    await expectAuditOk(a);
  });

  it('a token signed by one replica verifies on the other (shared CONFIRM_KEYS)', async () => {
    const topic = genericMarketId(1);
    const p = await a.post(`${V1}/topics/${topic}/order-preview`, KEYS.aliceWrite, { option_id: outcomeId(topic, 2) });
    const r = await b.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token });
    expect(r.status).toBe(201);
  });
});
