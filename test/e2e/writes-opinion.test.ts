/**
 * preview_opinion and publish_opinion end to end (SPEC 2.11, 4.1; DECISIONS 4, 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpinionPreview, PublishedOpinion } from '../../src/contract/index.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { KEYS, MARKETS, OPINIONS, POLLS, SERVICE_TOKEN, USERS, type Stack } from '../helpers/stack.ts';
import { V1, coins, counters, decodeToken, expectAuditOk, expectError, valid, writeStack } from '../helpers/writes.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await writeStack();
});
afterAll(async () => {
  await expectAuditOk(stack);
  await stack.close();
});

const preview = (topicId: string, body: Record<string, unknown>, key: string = KEYS.aliceWrite, headers?: Record<string, string>) =>
  stack.post(`${V1}/topics/${topicId}/opinion-preview`, key, body, headers);
const publish = (token: unknown, key: string = KEYS.aliceWrite) => stack.post(`${V1}/opinions`, key, { confirm_token: token });

async function possible(
  topicId: string,
  body: Record<string, unknown>,
  key?: string,
  headers?: Record<string, string>,
): Promise<OpinionPreview> {
  const r = await preview(topicId, body, key, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const p = valid(OpinionPreview, r.body);
  expect(p.can_publish, JSON.stringify(p)).toBe(true);
  return p;
}

async function refused(topicId: string, body: Record<string, unknown>, reason: string, key?: string): Promise<OpinionPreview> {
  const r = await preview(topicId, body, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const p = valid(OpinionPreview, r.body);
  expect({ can_publish: p.can_publish, reason: p.reason }).toEqual({ can_publish: false, reason });
  expect(p.confirm_token).toBeUndefined();
  expect(p.expires_at).toBeUndefined();
  return p;
}

/** Answer the next matching backend call with `body` instead (sandbox fault, once). */
async function fault(method: string, pathPrefix: string, body: unknown): Promise<void> {
  await stack.admin('POST', '/faults', { method, pathPrefix, status: 200, body, times: 1 });
}

function holding(marketId: string, outcome: string, sold = false) {
  return {
    holdingId: '599999',
    marketId,
    marketTitle: { en: 'x' },
    outcomeId: outcome,
    outcomeLabel: { en: 'x' },
    stake: 10,
    shares: 12.5,
    avgPrice: 0.8,
    boostMultiplier: 1,
    sold,
    soldRuby: sold ? 5 : null,
    result: sold ? 'SOLD' : 'PENDING',
    payoutRuby: null,
    createdAt: Date.now() - 1000,
  };
}
const holdingsPath = `/internal/prediction/users/${USERS.alice}/holdings`;

describe('a possible opinion: preview, publish, single use', () => {
  it('previews the side from the position and the fee, publishes once, refuses the retry', async () => {
    const before = await coins(stack, USERS.alice);
    const counted = await counters(stack);
    const p = await possible(MARKETS.aliceOpen, { content: '  The radar shows a band of rain arriving on the 31st.  ' });
    expect(p.summary).toEqual({
      topic_title: "Will it rain in Taipei on New Year's Eve?",
      fee_coins: '5.0000',
      balance_after: (Number(before) - 5).toFixed(4),
      side_option_label: 'Yes',
      content_preview: 'The radar shows a band of rain arriving on the 31st.',
      reply_to: null,
    });
    const claims = decodeToken(p.confirm_token ?? '').claims;
    expect(claims.action).toBe('publish_opinion');
    expect(claims.params).toEqual({
      topic_id: MARKETS.aliceOpen,
      content: 'The radar shows a band of rain arriving on the 31st.',
      reply_to_opinion_id: null,
      side_option_id: outcomeId(MARKETS.aliceOpen, 1),
      fee: '5',
    });

    const r = await publish(p.confirm_token);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    // The owner's Opinion of DECISIONS 3 with replayed: false (DECISIONS 4).
    const o = valid(PublishedOpinion, r.body);
    expect(o.replayed).toBe(false);
    expect(o).toMatchObject({
      topic_id: MARKETS.aliceOpen,
      content: 'The radar shows a band of rain arriving on the 31st.',
      side_option_id: outcomeId(MARKETS.aliceOpen, 1),
      side_option_label: 'Yes',
      reply_to: null,
      backer_count: 0,
      ruby_payback: '0.0000',
    });
    expect(await coins(stack, USERS.alice)).toBe(p.summary.balance_after);

    const again = await publish(p.confirm_token);
    expectError(again, 409, 'CONFIRM_TOKEN_USED');
    expect(await coins(stack, USERS.alice)).toBe(p.summary.balance_after);
    expect((await counters(stack)).performed['opinion']).toBe((counted.performed['opinion'] ?? 0) + 1);
  });

  it('a reply names the opinion replied to', async () => {
    const p = await possible(MARKETS.aliceOpen, {
      content: 'Fronts stall over the strait more often than not.',
      reply_to_opinion_id: OPINIONS.graceOnAliceOpen,
    });
    expect(p.summary.reply_to).toEqual({
      id: OPINIONS.graceOnAliceOpen,
      excerpt: 'A cold front arrives on the 30th, so the evening may stay dry.',
    });
    const r = await publish(p.confirm_token);
    expect(r.status).toBe(201);
    expect(valid(PublishedOpinion, r.body).reply_to?.id).toBe(OPINIONS.graceOnAliceOpen);
  });

  it('reply_to_opinion_id: null is no reply', async () => {
    const p = await possible(MARKETS.aliceOpen, { content: 'No reply here.', reply_to_opinion_id: null });
    expect(p.summary.reply_to).toBeNull();
  });

  it('titles and the side follow Accept-Language', async () => {
    const r = await preview(MARKETS.aliceOpen, { content: 'はい' }, KEYS.aliceWrite, { 'accept-language': 'ja' });
    const p = valid(OpinionPreview, r.body);
    expect(p.summary.topic_title).toBe('大晦日の台北は雨が降るか？');
    expect(p.summary.side_option_label).toBe('はい');
    expect(r.headers.get('content-language')).toBe('ja');
  });
});

describe('reasons and their precedence', () => {
  it('NO_POSITION without a position; the side is then empty', async () => {
    const p = await refused(MARKETS.backable, { content: 'Sold out by noon.' }, 'NO_POSITION');
    expect(p.summary.side_option_label).toBe('');
    expect(p.summary.balance_after).toBe(await coins(stack, USERS.alice));
  });

  it('NO_POSITION when the only position was sold in the app', async () => {
    await refused(MARKETS.aliceSold, { content: 'Still think it opens.' }, 'NO_POSITION');
  });

  it('TOPIC_CLOSED first: over NO_POSITION and CONTENT_INVALID, with or without a position', async () => {
    await refused(MARKETS.expired, { content: 'Late.' }, 'TOPIC_CLOSED');
    await refused(MARKETS.expired, { content: '' }, 'TOPIC_CLOSED');
    const won = await refused(MARKETS.aliceWon, { content: '' }, 'TOPIC_CLOSED');
    expect(won.summary.side_option_label).toBe('Yes');
  });

  it('NO_POSITION over CONTENT_INVALID', async () => {
    await refused(MARKETS.backable, { content: '' }, 'NO_POSITION');
  });

  it.each([
    ['empty', ''],
    ['only white space', ' \n\t '],
    ['501 characters', 'a'.repeat(501)],
    ['501 code points of emoji', '🌧'.repeat(501)],
  ])('CONTENT_INVALID when %s', async (_name, content) => {
    const p = await refused(MARKETS.aliceOpen, { content }, 'CONTENT_INVALID');
    expect(p.summary.side_option_label).toBe('Yes');
    expect(p.summary.balance_after).toBe(await coins(stack, USERS.alice));
  });

  it('500 characters are fine, counted in code points (an emoji is one)', async () => {
    await possible(MARKETS.aliceOpen, { content: 'a'.repeat(500) });
    const p = await possible(MARKETS.aliceOpen, { content: '🌧'.repeat(500) });
    expect([...p.summary.content_preview].length).toBeLessThanOrEqual(140);
    expect(p.summary.content_preview.endsWith('…')).toBe(true);
  });

  it('SIDE_REQUIRED when the position names no option of the topic', async () => {
    await fault('GET', holdingsPath, {
      errCode: 0,
      data: { items: [holding(MARKETS.aliceOpen, '00000000-0000-4000-8009-0000000b0001')], total: 1, offset: 0 },
    });
    const p = await refused(MARKETS.aliceOpen, { content: 'Side?' }, 'SIDE_REQUIRED');
    expect(p.summary.side_option_label).toBe('');
  });

  it('SIDE_REQUIRED when holdings name two options; CONTENT_INVALID loses to it', async () => {
    const two = [holding(MARKETS.aliceOpen, outcomeId(MARKETS.aliceOpen, 1)), holding(MARKETS.aliceOpen, outcomeId(MARKETS.aliceOpen, 2))];
    await fault('GET', holdingsPath, { errCode: 0, data: { items: two, total: 2, offset: 0 } });
    await refused(MARKETS.aliceOpen, { content: '' }, 'SIDE_REQUIRED');
  });
});

describe('the balance', () => {
  it('a fee above the balance is the reason INSUFFICIENT_BALANCE, without a token; a token issued before the coins went is 422 at publish', async () => {
    // Bob (5 coins, a position on aliceOpen) can pay the fee of 5 exactly.
    const before = await possible(MARKETS.aliceOpen, { content: 'Dry, as I said.' }, KEYS.bobWrite);
    expect(before.summary).toMatchObject({ fee_coins: '5.0000', balance_after: '0.0000', side_option_label: 'No' });
    // He then spends everything on an order.
    const topic = genericMarketId(12); // stakes 1..1000
    const order = await stack.post(`${V1}/topics/${topic}/order-preview`, KEYS.bobWrite, {
      option_id: outcomeId(topic, 1),
      amount_coins: 5,
    });
    expect((await stack.post(`${V1}/orders`, KEYS.bobWrite, { confirm_token: order.body.confirm_token })).status).toBe(201);
    const p = await refused(MARKETS.aliceOpen, { content: 'Dry, as I said.' }, 'INSUFFICIENT_BALANCE', KEYS.bobWrite);
    expect(p.summary).toMatchObject({ fee_coins: '5.0000', balance_after: '0.0000', side_option_label: 'No' });
    // Content problems come first.
    await refused(MARKETS.aliceOpen, { content: '' }, 'CONTENT_INVALID', KEYS.bobWrite);
    expectError(await publish(before.confirm_token, KEYS.bobWrite), 422, 'INSUFFICIENT_BALANCE');
    expect(await coins(stack, USERS.bob)).toBe('0.0000');
  });
});

describe('arguments', () => {
  it('content is required and a string', async () => {
    for (const body of [{}, { content: 42 }, { content: null }]) {
      const r = await preview(MARKETS.aliceOpen, body);
      expectError(r, 400, 'INVALID_ARGUMENT');
      expect(r.body.error.details).toEqual({ field: 'content' });
    }
  });

  it('a malformed reply_to_opinion_id is 400, an unknown field is 400', async () => {
    let r = await preview(MARKETS.aliceOpen, { content: 'x', reply_to_opinion_id: 'abc' });
    expectError(r, 400, 'INVALID_ARGUMENT');
    expect(r.body.error.details).toEqual({ field: 'reply_to_opinion_id' });
    r = await preview(MARKETS.aliceOpen, { content: 'x', side_option_id: outcomeId(MARKETS.aliceOpen, 2) });
    expectError(r, 400, 'INVALID_ARGUMENT');
    expect(r.body.error.details).toEqual({ field: 'side_option_id' });
  });

  it.each([
    ['unknown', '00000000-0000-4000-8000-0000000effff'],
    ['of another topic', OPINIONS.frankBackable],
    ['deleted by its author', OPINIONS.inactive],
  ])('replying to an opinion %s is 404 OPINION_NOT_FOUND', async (_name, id) => {
    const r = await preview(MARKETS.aliceOpen, { content: 'x', reply_to_opinion_id: id });
    expectError(r, 404, 'OPINION_NOT_FOUND');
  });

  it.each([
    ['a poll (polls have no opinions)', POLLS.aliceVoted],
    ['an unknown topic', '00000000-0000-4000-8000-0000000bffff'],
    ['a hidden topic', MARKETS.hidden],
    ['a malformed id', 'nope'],
  ])('%s is 404 NOT_FOUND', async (_name, id) => {
    expectError(await preview(id, { content: 'x' }), 404, 'NOT_FOUND');
  });

  it('a read-only key is 403 FORBIDDEN_SCOPE', async () => {
    for (const r of [await preview(MARKETS.aliceOpen, { content: 'x' }, KEYS.aliceRead), await publish('ct1.a.b.c', KEYS.aliceRead)]) {
      expectError(r, 403, 'FORBIDDEN_SCOPE');
      expect(r.body.error.details).toEqual({ required_scope: 'write' });
    }
  });
});

describe('a position that changed after the preview', () => {
  it('sold in the app: 400 OPINION_SIDE_REQUIRED, nothing charged, the token used', async () => {
    const topic = genericMarketId(10);
    const order = await stack.post(`${V1}/topics/${topic}/order-preview`, KEYS.aliceWrite, {
      option_id: outcomeId(topic, 2),
      amount_coins: 10,
    });
    expect((await stack.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: order.body.confirm_token })).status).toBe(201);
    const p = await possible(topic, { content: 'NO, clearly.' });
    expect(p.summary.side_option_label).toBe('No');
    await stack.admin('POST', '/holdings/sell', { userId: USERS.alice, marketId: topic });

    const before = await coins(stack, USERS.alice);
    expectError(await publish(p.confirm_token), 400, 'OPINION_SIDE_REQUIRED');
    expect(await coins(stack, USERS.alice)).toBe(before);
    expectError(await publish(p.confirm_token), 409, 'CONFIRM_TOKEN_USED');
  });

  it('now on another option: 400 OPINION_SIDE_INVALID', async () => {
    const p = await possible(MARKETS.aliceOpen, { content: 'Switching sides?' });
    await fault('GET', holdingsPath, {
      errCode: 0,
      data: { items: [holding(MARKETS.aliceOpen, outcomeId(MARKETS.aliceOpen, 2))], total: 1, offset: 0 },
    });
    expectError(await publish(p.confirm_token), 400, 'OPINION_SIDE_INVALID');
  });

  it('a fee changed since the preview: 409 TOPIC_QUOTE_INVALID, nothing charged', async () => {
    const p = await possible(MARKETS.aliceOpen, { content: 'Fees, fees.' });
    const res = await fetch(`${stack.sandbox.url}/internal/prediction/markets/${MARKETS.aliceOpen}`, {
      headers: { 'x-service-token': SERVICE_TOKEN },
    });
    const detail = (await res.json()) as { errCode: number; data: Record<string, unknown> };
    await fault('GET', `/internal/prediction/markets/${MARKETS.aliceOpen}`, { errCode: 0, data: { ...detail.data, opinionFee: 7 } });
    const before = await coins(stack, USERS.alice);
    expectError(await publish(p.confirm_token), 409, 'TOPIC_QUOTE_INVALID');
    expect(await coins(stack, USERS.alice)).toBe(before);
  });

  it('a topic closed after the preview: 409 OPINION_TOPIC_CLOSED', async () => {
    const topic = genericMarketId(10 + 1);
    const order = await stack.post(`${V1}/topics/${topic}/order-preview`, KEYS.aliceWrite, {
      option_id: outcomeId(topic, 1),
      amount_coins: 10,
    });
    expect((await stack.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: order.body.confirm_token })).status).toBe(201);
    const p = await possible(topic, { content: 'Closing soon.' });
    await stack.admin('POST', `/markets/${topic}/state`, { state: 'EXPIRED' });
    expectError(await publish(p.confirm_token), 409, 'OPINION_TOPIC_CLOSED');
  });

  it('text refused by moderation: 422 CONTENT_MODERATED', async () => {
    const p = await possible(MARKETS.aliceOpen, { content: 'This is a scam.' });
    expectError(await publish(p.confirm_token), 422, 'CONTENT_MODERATED');
  });
});
