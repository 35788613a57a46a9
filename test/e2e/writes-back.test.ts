/**
 * preview_back and back_opinion end to end (SPEC 2.12, 4.1; DECISIONS 4, 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Back, BackPreview } from '../../src/contract/index.ts';
import { KEYS, MARKETS, OPINIONS, USERS, type Stack } from '../helpers/stack.ts';
import { V1, coins, counters, decodeToken, expectAuditOk, expectError, newWriteKey, valid, writeStack } from '../helpers/writes.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await writeStack();
});
afterAll(async () => {
  await expectAuditOk(stack);
  await stack.close();
});

const preview = (opinionId: string, topicId: string, key: string = KEYS.aliceWrite, extra: Record<string, unknown> = {}) =>
  stack.post(`${V1}/opinions/${opinionId}/back-preview`, key, { topic_id: topicId, ...extra });
const back = (token: unknown, key: string = KEYS.aliceWrite) => stack.post(`${V1}/backs`, key, { confirm_token: token });

async function possible(opinionId: string, topicId: string, key?: string): Promise<BackPreview> {
  const r = await preview(opinionId, topicId, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const p = valid(BackPreview, r.body);
  expect(p.can_back, JSON.stringify(p)).toBe(true);
  return p;
}

async function refused(opinionId: string, topicId: string, reason: string, key?: string): Promise<BackPreview> {
  const r = await preview(opinionId, topicId, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const p = valid(BackPreview, r.body);
  expect({ can_back: p.can_back, reason: p.reason }).toEqual({ can_back: false, reason });
  expect(p.confirm_token).toBeUndefined();
  expect(p.summary.balance_after).toBe(p.summary.balance_before);
  return p;
}

describe('a possible back: preview, back, replay', () => {
  it('previews the seat and price, buys exactly that seat once, and replays on retry', async () => {
    const before = await coins(stack, USERS.alice);
    const counted = await counters(stack);
    const p = await possible(OPINIONS.frankBackable, MARKETS.backable);
    expect(p.summary).toMatchObject({
      topic_title: 'Will the new game console sell out on launch day?',
      opinion_excerpt: 'Pre-orders sold out in minutes; launch day will be the same.',
      backer_count: 2,
      my_seq_if_now: 3,
      price_coins: '20.0000',
      balance_before: before,
      balance_after: (Number(before) - 20).toFixed(4),
      max_relay_payback_rubies: '13.5000',
      max_relay_payback_sapphires: '13.5000',
    });
    expect(p.summary.author).toMatchObject({ id: USERS.frank, handle: 'frank' });
    const claims = decodeToken(p.confirm_token ?? '').claims;
    expect(claims).toMatchObject({ action: 'back_opinion', userId: USERS.alice, keyId: 'key_alice_write' });
    expect(claims.params).toEqual({ opinion_id: OPINIONS.frankBackable, topic_id: MARKETS.backable, seq: 3, price: '20' });

    const first = await back(p.confirm_token);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const b = valid(Back, first.body);
    expect(b).toMatchObject({
      opinion_id: OPINIONS.frankBackable,
      topic_id: MARKETS.backable,
      seq: 3,
      price_coins: '20.0000',
      balance_after: p.summary.balance_after,
      max_relay_payback_rubies: '13.5000',
      max_relay_payback_sapphires: '13.5000',
      replayed: false,
    });
    expect(await coins(stack, USERS.alice)).toBe(p.summary.balance_after);

    const again = await back(p.confirm_token);
    expect(again.status).toBe(200);
    expect(valid(Back, again.body)).toEqual({ ...b, replayed: true });
    expect(await coins(stack, USERS.alice)).toBe(p.summary.balance_after);
    expect((await counters(stack)).performed['back']).toBe((counted.performed['back'] ?? 0) + 1);
    await expectAuditOk(stack);
  });

  it('then answers ALREADY_BACKED', async () => {
    await refused(OPINIONS.frankBackable, MARKETS.backable, 'ALREADY_BACKED');
  });
});

describe('reasons and their precedence', () => {
  it('OPINION_INACTIVE for a deleted opinion and for a broken relay', async () => {
    await refused(OPINIONS.inactive, MARKETS.backable, 'OPINION_INACTIVE');
    await refused(OPINIONS.broken, MARKETS.backable, 'OPINION_INACTIVE');
  });

  it('ALREADY_BACKED for an opinion alice backed and for her own opinion', async () => {
    await refused(OPINIONS.frankMulti, MARKETS.multiOutcome, 'ALREADY_BACKED');
    await refused(OPINIONS.aliceOpen, MARKETS.aliceOpen, 'ALREADY_BACKED');
  });

  it('TOPIC_CLOSED wins over ALREADY_BACKED (her own opinion on a settled topic)', async () => {
    await refused(OPINIONS.aliceWon, MARKETS.aliceWon, 'TOPIC_CLOSED');
  });

  it('OPINION_BACK_FULL for a full relay (10 of 10)', async () => {
    const p = await refused(OPINIONS.erinFull, MARKETS.fullRelay, 'OPINION_BACK_FULL');
    expect(p.summary.backer_count).toBe(10);
  });

  it('ALREADY_BACKED wins over OPINION_BACK_FULL and INSUFFICIENT_BALANCE (bob, 5 coins, sits in the full relay)', async () => {
    await refused(OPINIONS.erinFull, MARKETS.fullRelay, 'ALREADY_BACKED', KEYS.bobWrite);
  });

  it('INSUFFICIENT_BALANCE when the seat costs more than the balance', async () => {
    const p = await refused(OPINIONS.heidiBoosted, MARKETS.boosted, 'INSUFFICIENT_BALANCE', KEYS.bobWrite);
    expect(p.summary.balance_before).toBe('5.0000');
  });

  it('TOPIC_CLOSED once the topic closed', async () => {
    await stack.admin('POST', `/markets/${MARKETS.boosted}/state`, { state: 'JUDGING' });
    try {
      await refused(OPINIONS.heidiBoosted, MARKETS.boosted, 'TOPIC_CLOSED');
      await refused(OPINIONS.heidiBoosted, MARKETS.boosted, 'TOPIC_CLOSED', KEYS.bobWrite);
    } finally {
      await stack.admin('POST', `/markets/${MARKETS.boosted}/state`, { state: 'ACTIVE' });
    }
  });
});

describe('arguments', () => {
  it('an opinion of another topic, or an unknown opinion, is 404 OPINION_NOT_FOUND', async () => {
    expectError(await preview(OPINIONS.frankBackable, MARKETS.boosted), 404, 'OPINION_NOT_FOUND');
    expectError(await preview('00000000-0000-4000-8000-0000000effff', MARKETS.backable), 404, 'OPINION_NOT_FOUND');
  });

  it('a malformed opinion id (path) is 404 NOT_FOUND', async () => {
    expectError(await preview('nope', MARKETS.backable), 404, 'NOT_FOUND');
  });

  it('topic_id is required and a UUID; other fields are refused', async () => {
    for (const body of [{}, { topic_id: 'x' }, { topic_id: 7 }]) {
      const r = await stack.post(`${V1}/opinions/${OPINIONS.heidiBoosted}/back-preview`, KEYS.aliceWrite, body);
      expectError(r, 400, 'INVALID_ARGUMENT');
      expect(r.body.error.details).toEqual({ field: 'topic_id' });
    }
    const r = await preview(OPINIONS.heidiBoosted, MARKETS.boosted, KEYS.aliceWrite, { seq: 1 });
    expectError(r, 400, 'INVALID_ARGUMENT');
    expect(r.body.error.details).toEqual({ field: 'seq' });
  });

  it('a read-only key is 403 FORBIDDEN_SCOPE', async () => {
    for (const r of [await preview(OPINIONS.heidiBoosted, MARKETS.boosted, KEYS.aliceRead), await back('ct1.a.b.c', KEYS.aliceRead)]) {
      expectError(r, 403, 'FORBIDDEN_SCOPE');
      expect(r.body.error.details).toEqual({ required_scope: 'write' });
    }
  });
});

describe('a relay that moved after the preview', () => {
  it('someone took the seat first: 409 OPINION_BACK_PRICE_MOVED, nothing charged; a new preview offers the next seat', async () => {
    const carol = await newWriteKey(stack, USERS.carol);
    await stack.admin('POST', '/wallet/grant', { userId: USERS.carol, amount: 1000 });
    const mine = await possible(OPINIONS.graceOnAliceOpen, MARKETS.aliceOpen);
    const hers = await possible(OPINIONS.graceOnAliceOpen, MARKETS.aliceOpen, carol);
    expect(hers.summary.my_seq_if_now).toBe(mine.summary.my_seq_if_now);
    expect((await back(hers.confirm_token, carol)).status).toBe(201);

    const before = await coins(stack, USERS.alice);
    expectError(await back(mine.confirm_token), 409, 'OPINION_BACK_PRICE_MOVED');
    expect(await coins(stack, USERS.alice)).toBe(before);
    expectError(await back(mine.confirm_token), 409, 'OPINION_BACK_PRICE_MOVED');

    const next = await possible(OPINIONS.graceOnAliceOpen, MARKETS.aliceOpen);
    expect(next.summary.my_seq_if_now).toBe(mine.summary.my_seq_if_now + 1);
    expect(Number(next.summary.price_coins)).toBeGreaterThan(Number(mine.summary.price_coins));
    const r = await back(next.confirm_token);
    expect(r.status).toBe(201);
    expect(valid(Back, r.body).seq).toBe(next.summary.my_seq_if_now);
  });
});

describe('a busy relay', () => {
  it('is 503 OPINION_BACK_RETRY with Retry-After and details.retry_after, nothing charged; the same token then backs', async () => {
    const p = await possible(OPINIONS.heidiBoosted, MARKETS.boosted);
    await stack.admin('POST', '/faults', {
      method: 'POST',
      pathPrefix: `/internal/prediction/opinions/${OPINIONS.heidiBoosted}/backs`,
      status: 503,
      body: { errCode: 50011, errMsg: 'busy' },
      times: 1,
    });
    const before = await coins(stack, USERS.alice);
    const r = await back(p.confirm_token);
    expectError(r, 503, 'OPINION_BACK_RETRY');
    expect(r.headers.get('retry-after')).toBe('2');
    expect(r.body.error.details).toEqual({ retry_after: 2 });
    expect(await coins(stack, USERS.alice)).toBe(before);
    expect((await back(p.confirm_token)).status).toBe(201);
  });
});
