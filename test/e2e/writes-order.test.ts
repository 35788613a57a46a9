/**
 * preview_order and place_order end to end (SPEC 2.10, 4.1; DECISIONS 4, 5): the sandbox
 * behind a gateway, over real HTTP. Every 200/201 body is parsed with its contract schema.
 */
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope, Order, OrderPreview } from '../../src/contract/index.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { KEYS, MARKETS, POLLS, USERS, type Stack } from '../helpers/stack.ts';
import { V1, coins, counters, decodeToken, expectAuditOk, expectError, newWriteKey, valid, writeStack } from '../helpers/writes.ts';

let stack: Stack;
/** A write key of carol, who moves markets under alice's feet. */
let carolKey: string;

beforeAll(async () => {
  stack = await writeStack();
  carolKey = await newWriteKey(stack, USERS.carol);
  await stack.admin('POST', '/wallet/grant', { userId: USERS.carol, amount: 10_000 });
});
afterAll(async () => {
  await expectAuditOk(stack);
  await stack.close();
});

const opt = (topicId: string, k = 1) => outcomeId(topicId, k);
const preview = (topicId: string, body: Record<string, unknown>, key: string = KEYS.aliceWrite, headers?: Record<string, string>) =>
  stack.post(`${V1}/topics/${topicId}/order-preview`, key, body, headers);
const place = (token: string, key: string = KEYS.aliceWrite) => stack.post(`${V1}/orders`, key, { confirm_token: token });

/** A preview that must be possible; returns the parsed preview. */
async function possible(topicId: string, body: Record<string, unknown>, key?: string): Promise<OrderPreview> {
  const r = await preview(topicId, body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const p = valid(OrderPreview, r.body);
  expect(p.can_place).toBe(true);
  return p;
}

/** A preview that must be refused with `reason`; returns the parsed preview. */
async function refused(topicId: string, body: Record<string, unknown>, reason: string, key?: string): Promise<OrderPreview> {
  const r = await preview(topicId, body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const p = valid(OrderPreview, r.body);
  expect({ can_place: p.can_place, reason: p.reason }).toEqual({ can_place: false, reason });
  expect(p.confirm_token).toBeUndefined();
  expect(p.expires_at).toBeUndefined();
  expect(p.summary.balance_after).toBe(p.summary.balance_before);
  return p;
}

describe('a possible order: preview, place, replay', () => {
  const topic = genericMarketId(0); // stakes 1..1000, default 10

  it('previews with every figure, places exactly the stake, and replays on retry', async () => {
    const before = await coins(stack, USERS.alice);
    const counted = await counters(stack);
    const p = await possible(topic, { option_id: opt(topic), amount_coins: 25 });
    const s = p.summary;
    expect(s).toMatchObject({
      option_label: 'Yes',
      stake_coins: '25.0000',
      balance_before: before,
      balance_after: new Big(before).minus(25).toFixed(4),
      ruby_multiplier: '1.0000',
      mechanism: 'v21_lmsr',
    });
    // avg_price lies strictly between the price now and the price after, as displayed.
    expect(new Big(s.avg_price).gt(s.price_now)).toBe(true);
    expect(new Big(s.avg_price).lt(s.price_after)).toBe(true);

    // The token binds user, key, action and every parameter; it expires exactly 5 minutes on.
    const t = decodeToken(p.confirm_token ?? '');
    expect(t.claims).toMatchObject({ action: 'place_order', userId: USERS.alice, keyId: 'key_alice_write' });
    expect(t.claims.params).toMatchObject({ topic_id: topic, option_id: opt(topic), stake: 25 });
    expect(t.claims.expiresAt - t.claims.issuedAt).toBe(5 * 60 * 1000);
    expect(Date.parse(p.expires_at ?? '')).toBe(t.claims.expiresAt);
    // payout = units × multiplier (×1 here), units as quoted.
    expect(s.payout_if_correct_rubies).toBe(new Big(t.claims.params.units).toFixed(4));
    // avg_price = stake ÷ units, 6 places.
    expect(s.avg_price).toBe(new Big(25).div(t.claims.params.units).toFixed(6, Big.roundHalfUp));

    const first = await place(p.confirm_token ?? '');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const order = valid(Order, first.body);
    expect(order).toMatchObject({
      topic_id: topic,
      option_id: opt(topic),
      option_label: 'Yes',
      stake_coins: '25.0000',
      units: new Big(t.claims.params.units).toFixed(4),
      avg_price: s.avg_price,
      payout_if_correct_rubies: s.payout_if_correct_rubies,
      balance_after: s.balance_after,
      replayed: false,
    });
    expect(await coins(stack, USERS.alice)).toBe(s.balance_after);

    const again = await place(p.confirm_token ?? '');
    expect(again.status).toBe(200);
    expect(valid(Order, again.body)).toEqual({ ...order, replayed: true });

    const after = await counters(stack);
    expect(after.performed['order']).toBe((counted.performed['order'] ?? 0) + 1);
    expect(await coins(stack, USERS.alice)).toBe(s.balance_after);
    await expectAuditOk(stack);
  });

  it('the topic then answers ALREADY_STAKED, whatever the amount', async () => {
    await refused(topic, { option_id: opt(topic, 2), amount_coins: 10 }, 'ALREADY_STAKED');
    const p = await refused(topic, { option_id: opt(topic), amount_coins: 5000 }, 'ALREADY_STAKED');
    expect(p.details).toBeUndefined();
    expect(p.summary.stake_coins).toBe('5000.0000');
  });
});

describe('amount_coins', () => {
  const topic = genericMarketId(1); // stakes 5..500, default 50

  it("omitted: the topic's stake_rules.default_coins", async () => {
    const p = await possible(topic, { option_id: opt(topic) });
    expect(p.summary.stake_coins).toBe('50.0000');
    expect(decodeToken(p.confirm_token ?? '').claims.params.stake).toBe(50);
  });

  it.each([
    ['a quoted string', '10'],
    ['a fraction', 1.5],
    ['zero', 0],
    ['a negative', -3],
    ['null', null],
    ['a boolean', true],
    ['an array', [10]],
  ])('%s is 400 INVALID_ARGUMENT naming amount_coins', async (_name, amount) => {
    const r = await preview(topic, { option_id: opt(topic), amount_coins: amount });
    expectError(r, 400, 'INVALID_ARGUMENT');
    valid(ErrorEnvelope, r.body);
    expect(r.body.error.details).toEqual({ field: 'amount_coins' });
  });

  it('an integer beyond the range but within the cap is STAKE_OUT_OF_RANGE (200), never adjusted', async () => {
    const r = await stack.request('POST', `${V1}/topics/${topic}/order-preview`, {
      key: KEYS.aliceWrite,
      raw: `{"option_id":"${opt(topic)}","amount_coins":999999999}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(200);
    const p = valid(OrderPreview, r.body);
    expect([p.can_place, p.reason, p.summary.stake_coins]).toEqual([false, 'STAKE_OUT_OF_RANGE', '999999999.0000']);
  });

  it('an integer past the cap, or past 2^53, is 400 rather than a figure JSON parsing already changed (docs/contract/writes.md#amount-limits)', async () => {
    const r = await stack.request('POST', `${V1}/topics/${topic}/order-preview`, {
      key: KEYS.aliceWrite,
      raw: `{"option_id":"${opt(topic)}","amount_coins":99999999999999999999}`,
      headers: { 'content-type': 'application/json' },
    });
    expectError(r, 400, 'INVALID_ARGUMENT');
    expect(r.body.error.details).toEqual({ field: 'amount_coins' });
  });

  it('a JSON integer written as 10.0 is an integer', async () => {
    const r = await stack.request('POST', `${V1}/topics/${topic}/order-preview`, {
      key: KEYS.aliceWrite,
      raw: `{"option_id":"${opt(topic)}","amount_coins":10.0}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(200);
    expect(valid(OrderPreview, r.body).summary.stake_coins).toBe('10.0000');
  });
});

describe('arguments', () => {
  const topic = genericMarketId(1);

  it('option_id is required, a UUID, and an option of this topic', async () => {
    for (const body of [{}, { option_id: 'yes' }, { option_id: opt(genericMarketId(2)) }]) {
      const r = await preview(topic, body);
      expectError(r, 400, 'INVALID_ARGUMENT');
      expect(r.body.error.details).toEqual({ field: 'option_id' });
    }
  });

  it('option_id is compared without regard to case', async () => {
    const p = await possible(topic, { option_id: opt(topic, 2).toUpperCase() });
    expect(decodeToken(p.confirm_token ?? '').claims.params.option_id).toBe(opt(topic, 2));
  });

  it('an unknown body field is 400 naming it', async () => {
    const r = await preview(topic, { option_id: opt(topic), amount: 10 });
    expectError(r, 400, 'INVALID_ARGUMENT');
    expect(r.body.error.details).toEqual({ field: 'amount' });
  });

  it.each([
    ['a malformed id', 'not-a-uuid'],
    ['an unknown topic', '00000000-0000-4000-8000-0000000bffff'],
    ['a poll', POLLS.notVotedOpen],
    ['a topic hidden by moderation', MARKETS.hidden],
  ])('%s is 404 NOT_FOUND', async (_name, id) => {
    const r = await preview(id, { option_id: opt(topic) });
    expectError(r, 404, 'NOT_FOUND');
  });
});

describe('reasons and their precedence', () => {
  it('TOPIC_CLOSED: no details, the summary in its normal shape with the fill figures, balance unchanged', async () => {
    const p = await refused(MARKETS.expired, { option_id: opt(MARKETS.expired), amount_coins: 10 }, 'TOPIC_CLOSED');
    expect(p.details).toBeUndefined();
    const s = p.summary;
    expect(s.stake_coins).toBe('10.0000');
    expect(s.balance_after).toBe(s.balance_before);
    for (const f of [s.price_now, s.price_after, s.payout_if_correct_rubies]) expect(f).toMatch(/^\d+\.\d{4}$/);
    expect(s.ruby_multiplier).toBe('1.0000');
    expect(Number(s.avg_price)).toBeGreaterThan(Number(s.price_now));
    expect(Number(s.avg_price)).toBeLessThan(Number(s.price_after));
  });

  it('TOPIC_CLOSED keeps empty fill figures when the market can no longer quote', async () => {
    await stack.admin('POST', '/faults', {
      method: 'POST',
      pathPrefix: `/internal/prediction/markets/${MARKETS.judging}/quote`,
      status: 409,
      body: { errCode: 30002, errMsg: 'closed' },
      times: 1,
    });
    const p = await refused(MARKETS.judging, { option_id: opt(MARKETS.judging), amount_coins: 10 }, 'TOPIC_CLOSED');
    expect(p.summary).toMatchObject({ price_after: '', avg_price: '', payout_if_correct_rubies: '', ruby_multiplier: '' });
    expect(p.summary.price_now).toMatch(/^0\.\d{4}$/);
  });

  it('TOPIC_CLOSED wins over STAKE_OUT_OF_RANGE', async () => {
    const p = await refused(MARKETS.expired, { option_id: opt(MARKETS.expired), amount_coins: 5000 }, 'TOPIC_CLOSED');
    expect(p.details).toBeUndefined();
    expect(p.summary.stake_coins).toBe('5000.0000');
  });

  it('TOPIC_CLOSED wins over ALREADY_STAKED (alice won this settled topic)', async () => {
    await refused(MARKETS.aliceWon, { option_id: opt(MARKETS.aliceWon) }, 'TOPIC_CLOSED');
    // closed + staked + out of range (1..1000) + more than the balance: still TOPIC_CLOSED, no details.
    const p = await refused(MARKETS.aliceWon, { option_id: opt(MARKETS.aliceWon), amount_coins: 50_000 }, 'TOPIC_CLOSED');
    expect(p.details).toBeUndefined();
  });

  it('TOPIC_CLOSED on a resolving topic', async () => {
    await refused(MARKETS.judging, { option_id: opt(MARKETS.judging) }, 'TOPIC_CLOSED');
  });

  it('ALREADY_STAKED for a position sold in the app, on a topic still open; over STAKE_OUT_OF_RANGE', async () => {
    await refused(MARKETS.aliceSold, { option_id: opt(MARKETS.aliceSold, 2) }, 'ALREADY_STAKED');
    const p = await refused(MARKETS.aliceSold, { option_id: opt(MARKETS.aliceSold), amount_coins: 1 }, 'ALREADY_STAKED');
    expect(p.details).toBeUndefined();
  });

  it('STAKE_OUT_OF_RANGE on a legacy 100..100 topic: details, the request echoed, fill figures empty', async () => {
    for (const amount of [50, 101]) {
      const p = await refused(MARKETS.legacyStake, { option_id: opt(MARKETS.legacyStake), amount_coins: amount }, 'STAKE_OUT_OF_RANGE');
      expect(p.details).toEqual({ min_coins: '100.0000', max_coins: '100.0000' });
      expect(p.summary).toMatchObject({
        stake_coins: `${amount}.0000`,
        price_after: '',
        payout_if_correct_rubies: '',
        ruby_multiplier: '',
        avg_price: '',
      });
      expect(p.summary.price_now).toMatch(/^0\.\d{4}$/);
    }
    const ok = await possible(MARKETS.legacyStake, { option_id: opt(MARKETS.legacyStake) });
    expect(ok.summary.stake_coins).toBe('100.0000');
  });

  it('MECHANISM_UNSUPPORTED on v2_share: only the meaningful figures, over STAKE_OUT_OF_RANGE and INSUFFICIENT_BALANCE', async () => {
    for (const [key, amount] of [
      [KEYS.aliceWrite, undefined],
      [KEYS.aliceWrite, 5],
      [KEYS.bobWrite, undefined],
    ] as const) {
      const p = await refused(MARKETS.sharePool, { option_id: opt(MARKETS.sharePool), amount_coins: amount }, 'MECHANISM_UNSUPPORTED', key);
      expect(p.details).toBeUndefined();
      expect(p.summary).toMatchObject({
        mechanism: 'v2_share',
        ruby_multiplier: '',
        price_after: '',
        avg_price: '',
        payout_if_correct_rubies: '',
      });
      expect(p.summary.price_now).toBe('0.6000'); // pools 1200 / 800
    }
  });

  it('a closed v2_share topic answers TOPIC_CLOSED', async () => {
    await stack.admin('POST', `/markets/${MARKETS.sharePool}/state`, { state: 'EXPIRED' });
    try {
      await refused(MARKETS.sharePool, { option_id: opt(MARKETS.sharePool) }, 'TOPIC_CLOSED');
    } finally {
      await stack.admin('POST', `/markets/${MARKETS.sharePool}/state`, { state: 'ACTIVE' });
    }
  });

  it('INSUFFICIENT_BALANCE (bob has 5 coins): the quote is still shown, the balance unchanged', async () => {
    const p = await refused(MARKETS.boosted, { option_id: opt(MARKETS.boosted), amount_coins: 10 }, 'INSUFFICIENT_BALANCE', KEYS.bobWrite);
    expect(p.summary).toMatchObject({
      balance_before: '5.0000',
      balance_after: '5.0000',
      stake_coins: '10.0000',
      ruby_multiplier: '2.0000',
    });
    expect(new Big(p.summary.avg_price).gt(p.summary.price_now)).toBe(true);
    expect(p.details).toBeUndefined();
  });

  it('STAKE_OUT_OF_RANGE wins over INSUFFICIENT_BALANCE', async () => {
    for (const amount of [5, 5000]) {
      const p = await refused(
        MARKETS.boosted,
        { option_id: opt(MARKETS.boosted), amount_coins: amount },
        'STAKE_OUT_OF_RANGE',
        KEYS.bobWrite,
      );
      expect(p.details).toEqual({ min_coins: '10.0000', max_coins: '2000.0000' });
    }
  });

  it('a stake exactly equal to the balance is possible', async () => {
    const p = await possible(genericMarketId(0), { option_id: opt(genericMarketId(0)), amount_coins: 5 }, KEYS.bobWrite);
    expect(p.summary).toMatchObject({ balance_before: '5.0000', balance_after: '0.0000' });
  });
});

describe('figures', () => {
  it('a live ×2 boost: ruby_multiplier 2 and payout = units × 2', async () => {
    const p = await possible(MARKETS.boosted, { option_id: opt(MARKETS.boosted), amount_coins: 100 });
    const units = decodeToken(p.confirm_token ?? '').claims.params.units as string;
    expect(p.summary.ruby_multiplier).toBe('2.0000');
    expect(p.summary.payout_if_correct_rubies).toBe(new Big(units).times(2).toFixed(4));
  });

  it('an uneven opening: price_now is read, not assumed to be 1/n', async () => {
    const p = await possible(MARKETS.uneven, { option_id: opt(MARKETS.uneven, 2), amount_coins: 10 });
    expect(Number(p.summary.price_now)).toBeLessThan(0.45);
    const q = await possible(MARKETS.multiOutcome, { option_id: opt(MARKETS.multiOutcome, 4), amount_coins: 1 });
    expect(Number(q.summary.price_now)).toBeLessThan(0.2);
    expect(q.summary.option_label).toBe('Any other team');
  });

  it('titles and options follow Accept-Language', async () => {
    const r = await preview(MARKETS.multiOutcome, { option_id: opt(MARKETS.multiOutcome, 1), amount_coins: 1 }, KEYS.aliceWrite, {
      'accept-language': 'zh-TW',
    });
    const p = valid(OrderPreview, r.body);
    expect(p.summary.option_label).toBe('紅獅');
    expect(r.headers.get('content-language')).toBe('zh-TW');
  });

  it('a quote that breaks the invariants is 503 PREVIEW_UNAVAILABLE with Retry-After, never a wrong preview', async () => {
    const topic = genericMarketId(3);
    // A backend answering avg_price below price_now (and a price that falls when buying).
    const bad = { errCode: 0, data: { priceBefore: 0.5, priceAfter: 0.4, shares: 30, avgPrice: 0.3333, boostMultiplier: 1 } };
    await stack.admin('POST', '/faults', {
      method: 'POST',
      pathPrefix: `/internal/prediction/markets/${topic}/quote`,
      status: 200,
      body: bad,
      times: 1,
    });
    const r = await preview(topic, { option_id: opt(topic), amount_coins: 10 });
    expectError(r, 503, 'PREVIEW_UNAVAILABLE');
    expect(r.headers.get('retry-after')).toBe('2');
    expect(r.body.error.details).toEqual({ retry_after: 2 });
    // And the next, honest quote previews normally.
    await possible(topic, { option_id: opt(topic), amount_coins: 10 });
  });
});

describe('slippage', () => {
  it('a market moved by more than 1% of the quoted units: 409 TOPIC_QUOTE_EXPIRED, nothing charged', async () => {
    const topic = genericMarketId(2); // stakes 10..2000
    const mine = await possible(topic, { option_id: opt(topic), amount_coins: 1000 });
    // Carol buys the same option heavily first.
    const hers = await possible(topic, { option_id: opt(topic), amount_coins: 2000 }, carolKey);
    expect((await place(hers.confirm_token ?? '', carolKey)).status).toBe(201);

    const before = await coins(stack, USERS.alice);
    const counted = await counters(stack);
    const r = await place(mine.confirm_token ?? '');
    expectError(r, 409, 'TOPIC_QUOTE_EXPIRED');
    expect(await coins(stack, USERS.alice)).toBe(before);
    expect((await counters(stack)).performed['order']).toBe(counted.performed['order']);
    // The refusal is the token's answer: a retry gets it again, still without charging.
    expectError(await place(mine.confirm_token ?? ''), 409, 'TOPIC_QUOTE_EXPIRED');
    expect(await coins(stack, USERS.alice)).toBe(before);
    // A new preview quotes the new price and can be placed.
    const fresh = await possible(topic, { option_id: opt(topic), amount_coins: 1000 });
    expect(new Big(fresh.summary.price_now).gt(mine.summary.price_now)).toBe(true);
  });

  it('a move within the tolerance still fills, spending exactly the previewed stake', async () => {
    const topic = genericMarketId(3); // stakes 1..200
    const mine = await possible(topic, { option_id: opt(topic), amount_coins: 200 });
    const quoted = decodeToken(mine.confirm_token ?? '').claims.params.units as string;
    const hers = await possible(topic, { option_id: opt(topic), amount_coins: 1 }, carolKey);
    expect((await place(hers.confirm_token ?? '', carolKey)).status).toBe(201);

    const r = await place(mine.confirm_token ?? '');
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const order = valid(Order, r.body);
    expect(order.stake_coins).toBe('200.0000');
    expect(new Big(order.units).lt(quoted)).toBe(true);
    expect(new Big(order.units).gte(new Big(quoted).times('0.99'))).toBe(true);
    expect(order.balance_after).toBe(mine.summary.balance_after);
  });
});

describe('execution-time refusals use the statuses of DECISIONS 5', () => {
  it('a topic closed after the preview: 409 TOPIC_CLOSED, nothing charged', async () => {
    const topic = genericMarketId(4);
    const p = await possible(topic, { option_id: opt(topic), amount_coins: 10 });
    await stack.admin('POST', `/markets/${topic}/state`, { state: 'JUDGING' });
    const before = await coins(stack, USERS.alice);
    expectError(await place(p.confirm_token ?? ''), 409, 'TOPIC_CLOSED');
    expect(await coins(stack, USERS.alice)).toBe(before);
  });

  it('two previews of one topic: the second execution is 409 TOPIC_ALREADY_STAKED', async () => {
    const topic = genericMarketId(5);
    const a = await possible(topic, { option_id: opt(topic), amount_coins: 10 });
    const b = await possible(topic, { option_id: opt(topic, 2), amount_coins: 20 });
    expect((await place(a.confirm_token ?? '')).status).toBe(201);
    expectError(await place(b.confirm_token ?? ''), 409, 'TOPIC_ALREADY_STAKED');
  });

  it('a balance spent after the preview: 422 INSUFFICIENT_BALANCE', async () => {
    const key = await newWriteKey(stack, USERS.bob);
    const a = await possible(genericMarketId(7), { option_id: opt(genericMarketId(7)), amount_coins: 5 }, key);
    const b = await possible(genericMarketId(8), { option_id: opt(genericMarketId(8)), amount_coins: 5 }, key);
    expect((await place(a.confirm_token ?? '', key)).status).toBe(201);
    expectError(await place(b.confirm_token ?? '', key), 422, 'INSUFFICIENT_BALANCE');
  });

  it('a backend failure that may not have happened gives the claim back; the retry places once, as the backend replay', async () => {
    const topic = genericMarketId(9);
    const p = await possible(topic, { option_id: opt(topic), amount_coins: 10 });
    const counted = await counters(stack);
    // The order is performed, but its answer is lost (phase after): the gateway sees a 500.
    await stack.admin('POST', '/faults', {
      method: 'POST',
      pathPrefix: '/internal/prediction/orders',
      status: 500,
      phase: 'after',
      times: 1,
    });
    expectError(await place(p.confirm_token ?? ''), 500, 'INTERNAL');
    // The backend placed it the first time: the retry is its idempotent replay, never a second 201.
    const r = await place(p.confirm_token ?? '');
    expect(r.status).toBe(200);
    expect(valid(Order, r.body).replayed).toBe(true);
    expect((await place(p.confirm_token ?? '')).body).toEqual(r.body);
    expect((await counters(stack)).performed['order']).toBe((counted.performed['order'] ?? 0) + 1);
  });
});

describe('scope', () => {
  it('a read-only key gets 403 FORBIDDEN_SCOPE on both operations', async () => {
    for (const r of [
      await preview(MARKETS.boosted, { option_id: opt(MARKETS.boosted) }, KEYS.aliceRead),
      await place('ct1.x.y.z', KEYS.aliceRead),
    ]) {
      expectError(r, 403, 'FORBIDDEN_SCOPE');
      expect(r.body.error.details).toEqual({ required_scope: 'write' });
    }
  });
});
