/**
 * Confirm tokens through the HTTP surface (SPEC 1.2, 3.3; DECISIONS 4): binding to user, key,
 * action and parameters; tampering; expiry on a controlled gateway clock; the execution body.
 * test/confirm/token.test.ts covers the cryptography itself.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Back, Order } from '../../src/contract/index.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { KEYS, MARKETS, OPINIONS, USERS, type Stack } from '../helpers/stack.ts';
import { V1, coins, decodeToken, expectAuditOk, expectError, newWriteKey, tamper, valid, writeStack } from '../helpers/writes.ts';

const START = Date.now();
let clock = START;
let stack: Stack;
/** A second write key of alice: same user, another key. */
let aliceOther: string;

beforeAll(async () => {
  stack = await writeStack({ now: () => clock });
  aliceOther = await newWriteKey(stack, USERS.alice);
});
afterAll(async () => {
  await expectAuditOk(stack);
  await stack.close();
});

let nextTopic = 10;
/** Never staked on in this file: for tokens that are never placed. */
const SPARE_TOPIC = genericMarketId(24);
/**
 * An order preview's token. `toPlace`: on a fresh topic, so that placing it is possible;
 * otherwise on a topic kept for tokens that are never placed.
 */
async function orderToken(key: string = KEYS.aliceWrite, toPlace = false): Promise<{ token: string; topic: string; expiresAt: string }> {
  const topic = toPlace ? genericMarketId(nextTopic++) : SPARE_TOPIC;
  const r = await stack.post(`${V1}/topics/${topic}/order-preview`, key, { option_id: outcomeId(topic, 1), amount_coins: 10 });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.can_place).toBe(true);
  return { token: r.body.confirm_token as string, topic, expiresAt: r.body.expires_at as string };
}

const place = (token: unknown, key: string = KEYS.aliceWrite) => stack.post(`${V1}/orders`, key, { confirm_token: token });

describe('expiry on the gateway clock', () => {
  it('expires_at is exactly 5 minutes after issue', async () => {
    clock = START;
    const t = await orderToken();
    expect(t.expiresAt).toBe(new Date(START + 5 * 60 * 1000).toISOString());
  });

  it('valid one millisecond before 5 minutes, 410 CONFIRM_TOKEN_EXPIRED at 5 minutes and after', async () => {
    clock = START;
    const early = await orderToken(KEYS.aliceWrite, true);
    const late = await orderToken();
    const later = await orderToken();
    clock = START + 5 * 60 * 1000 - 1;
    expect((await place(early.token)).status).toBe(201);
    clock = START + 5 * 60 * 1000;
    expectError(await place(late.token), 410, 'CONFIRM_TOKEN_EXPIRED');
    clock = START + 6 * 60 * 1000;
    expectError(await place(later.token), 410, 'CONFIRM_TOKEN_EXPIRED');
    clock = START;
  });

  it('an expired token charges nothing', async () => {
    clock = START;
    const t = await orderToken();
    const before = await coins(stack, USERS.alice);
    clock = START + 10 * 60 * 1000;
    expectError(await place(t.token), 410, 'CONFIRM_TOKEN_EXPIRED');
    expect(await coins(stack, USERS.alice)).toBe(before);
    clock = START;
  });

  it('a used token stays used after its 5 minutes: an order replays, for 24 hours; then 410', async () => {
    clock = START;
    const t = await orderToken(KEYS.aliceWrite, true);
    const first = await place(t.token);
    expect(first.status).toBe(201);
    const after = await coins(stack, USERS.alice);
    for (const late of [START + 6 * 60 * 1000, START + 24 * 60 * 60 * 1000 - 1]) {
      clock = late;
      const again = await place(t.token);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(valid(Order, again.body)).toEqual({ ...first.body, replayed: true });
    }
    clock = START + 24 * 60 * 60 * 1000;
    expectError(await place(t.token), 410, 'CONFIRM_TOKEN_EXPIRED');
    expect(await coins(stack, USERS.alice)).toBe(after);
    clock = START;
  });

  it('a published opinion token stays used after its 5 minutes: 409 CONFIRM_TOKEN_USED', async () => {
    clock = START;
    const p = await stack.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, KEYS.aliceWrite, { content: 'Used is used.' });
    expect(p.body.can_publish, JSON.stringify(p.body)).toBe(true);
    const publish = () => stack.post(`${V1}/opinions`, KEYS.aliceWrite, { confirm_token: p.body.confirm_token });
    expect((await publish()).status).toBe(201);
    const after = await coins(stack, USERS.alice);
    clock = START + 6 * 60 * 1000;
    expectError(await publish(), 409, 'CONFIRM_TOKEN_USED');
    expect(await coins(stack, USERS.alice)).toBe(after);
    clock = START;
  });

  it('expiry is judged only on a genuine token: a forged expired one is INVALID', async () => {
    clock = START;
    const t = await orderToken();
    clock = START + 10 * 60 * 1000;
    expectError(await place(tamper(t.token, (c) => (c.params.stake = 11))), 400, 'CONFIRM_TOKEN_INVALID');
    clock = START;
  });
});

describe('binding', () => {
  it('a token of key A presented by key B of the same user is 400 CONFIRM_TOKEN_INVALID, and A can still use it', async () => {
    const t = await orderToken(KEYS.aliceWrite, true);
    expectError(await place(t.token, aliceOther), 400, 'CONFIRM_TOKEN_INVALID');
    const u = await orderToken(aliceOther, true);
    expectError(await place(u.token, KEYS.aliceWrite), 400, 'CONFIRM_TOKEN_INVALID');
    expect((await place(t.token, KEYS.aliceWrite)).status).toBe(201);
    expect((await place(u.token, aliceOther)).status).toBe(201);
  });

  it("another user's token is INVALID", async () => {
    const t = await orderToken(KEYS.aliceWrite);
    expectError(await place(t.token, KEYS.bobWrite), 400, 'CONFIRM_TOKEN_INVALID');
  });

  it('a preview for one operation is INVALID on the other executions', async () => {
    const order = await orderToken(KEYS.aliceWrite, true);
    expectError(await stack.post(`${V1}/backs`, KEYS.aliceWrite, { confirm_token: order.token }), 400, 'CONFIRM_TOKEN_INVALID');
    expectError(await stack.post(`${V1}/opinions`, KEYS.aliceWrite, { confirm_token: order.token }), 400, 'CONFIRM_TOKEN_INVALID');

    const back = await stack.post(`${V1}/opinions/${OPINIONS.frankBackable}/back-preview`, KEYS.aliceWrite, { topic_id: MARKETS.backable });
    expect(back.body.can_back).toBe(true);
    expectError(await place(back.body.confirm_token), 400, 'CONFIRM_TOKEN_INVALID');
    expectError(
      await stack.post(`${V1}/opinions`, KEYS.aliceWrite, { confirm_token: back.body.confirm_token }),
      400,
      'CONFIRM_TOKEN_INVALID',
    );

    const opinion = await stack.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, KEYS.aliceWrite, { content: 'Cross-use test.' });
    expect(opinion.body.can_publish).toBe(true);
    expectError(await place(opinion.body.confirm_token), 400, 'CONFIRM_TOKEN_INVALID');
    expectError(
      await stack.post(`${V1}/backs`, KEYS.aliceWrite, { confirm_token: opinion.body.confirm_token }),
      400,
      'CONFIRM_TOKEN_INVALID',
    );

    // None of those attempts used the tokens up.
    expect(valid(Back, (await stack.post(`${V1}/backs`, KEYS.aliceWrite, { confirm_token: back.body.confirm_token })).body).replayed).toBe(
      false,
    );
    expect(valid(Order, (await place(order.token)).body).replayed).toBe(false);
  });
});

describe('tampering', () => {
  const edits: Array<[string, (c: any) => void]> = [
    ['jti', (c) => (c.jti = '00000000-0000-4000-8000-000000000000')],
    ['action', (c) => (c.action = 'back_opinion')],
    ['userId', (c) => (c.userId = USERS.bob)],
    ['keyId', (c) => (c.keyId = 'key_bob_write')],
    ['params.topic_id', (c) => (c.params.topic_id = genericMarketId(23))],
    ['params.option_id', (c) => (c.params.option_id = outcomeId(c.params.topic_id, 2))],
    ['params.stake', (c) => (c.params.stake = 1)],
    ['params.units', (c) => (c.params.units = '1000000')],
    ['params.lang', (c) => (c.params.lang = 'ja')],
    ['issuedAt', (c) => (c.issuedAt += 60_000)],
    ['expiresAt', (c) => (c.expiresAt += 60 * 60_000)],
    ['an added field', (c) => (c.params.extra = 1)],
  ];

  it.each(edits)('changing %s is 400 CONFIRM_TOKEN_INVALID and charges nothing', async (_name, edit) => {
    const t = await orderToken();
    const before = await coins(stack, USERS.alice);
    expectError(await place(tamper(t.token, edit)), 400, 'CONFIRM_TOKEN_INVALID');
    expect(await coins(stack, USERS.alice)).toBe(before);
  });

  it('truncated, re-signed, foreign-kid and garbage tokens are INVALID', async () => {
    const t = await orderToken(KEYS.aliceWrite, true);
    const [prefix, kid, payload, mac] = t.token.split('.') as [string, string, string, string];
    const resigned = createHmac('sha256', 'x'.repeat(40)).update(`${prefix}.${kid}.${payload}`).digest('base64url');
    for (const bad of [
      t.token.slice(0, -1),
      t.token.slice(0, t.token.lastIndexOf('.')),
      `${prefix}.${kid}.${payload}.${resigned}`,
      `${prefix}.other.${payload}.${mac}`,
      `ct2.${kid}.${payload}.${mac}`,
      'not a token',
      `${t.token}.`,
    ]) {
      expectError(await place(bad), 400, 'CONFIRM_TOKEN_INVALID');
    }
    expect((await place(t.token)).status).toBe(201);
  });
});

describe('the execution body is exactly {confirm_token}', () => {
  it.each([
    ['an empty body', {}, 'confirm_token'],
    ['a non-string token', { confirm_token: 123 }, 'confirm_token'],
    ['an empty token', { confirm_token: '' }, 'confirm_token'],
    ['an extra field', { confirm_token: 'ct1.a.b.c', amount_coins: 10 }, 'amount_coins'],
  ])('%s is 400 INVALID_ARGUMENT naming %s', async (_name, body, field) => {
    for (const path of ['/orders', '/opinions', '/backs']) {
      const r = await stack.post(`${V1}${path}`, KEYS.aliceWrite, body);
      expectError(r, 400, 'INVALID_ARGUMENT');
      expect(r.body.error.details).toEqual({ field: field as string });
    }
  });

  it('a token longer than 4096 characters is 400 INVALID_ARGUMENT', async () => {
    const r = await place(`ct1.${'a'.repeat(5000)}`);
    expectError(r, 400, 'INVALID_ARGUMENT');
  });

  it('the token is looked at only after the key: no key is 401', async () => {
    const t = await orderToken();
    const r = await stack.request('POST', `${V1}/orders`, { body: { confirm_token: t.token } });
    expect(r.status).toBe(401);
  });

  it('the decoded claims carry no secret and no raw key', async () => {
    const t = await orderToken();
    const text = JSON.stringify(decodeToken(t.token).claims);
    expect(text).not.toContain(KEYS.aliceWrite);
  });
});
