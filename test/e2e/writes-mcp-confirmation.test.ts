/**
 * The user's confirmation asked by the MCP client (docs/mcp.md#client-confirmation): on
 * 2026-07-28, a client that declares form elicitation is asked, through an InputRequiredResult,
 * before place_order, publish_opinion or back_opinion runs. Only a yes runs it, once; a no, no
 * answer or a changed mind runs nothing and leaves the token usable; a requestState that was
 * altered, issued for something else or is past its time is refused. The wallet is read from
 * the backend after each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Back, BackPreview, OpinionPreview, Order, OrderPreview, PublishedOpinion } from '../../src/contract/index.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { type ElicitationAnswer, mcpModernClient } from '../helpers/mcp.ts';
import { MARKETS, OPINIONS, type Stack, USERS } from '../helpers/stack.ts';
import { coins, counters, expectAuditOk, newWriteKey, V1, valid, writeStack } from '../helpers/writes.ts';

let now = Date.parse('2026-11-28T10:00:00Z');
let stack: Stack;
let off: Stack;
/** Two write keys of alice's (a user holds at most five). */
let key: string;
let otherKey: string;
beforeAll(async () => {
  stack = await writeStack({ now: () => now });
  off = await writeStack({ sandbox: stack.sandbox, env: { MCP_CLIENT_CONFIRMATION: 'off' } });
  key = await newWriteKey(stack, USERS.alice);
  otherKey = await newWriteKey(stack, USERS.alice);
});
afterAll(async () => {
  await expectAuditOk(stack);
  await off.close();
  await stack.close();
});

/** A v2 client that answers every elicitation as `answer` says, and records what it was shown. */
async function clientAnswering(key: string, answer: ElicitationAnswer, on: Stack = stack) {
  const shown: string[] = [];
  const client = await mcpModernClient(on.url, key, {
    elicit: ({ message }) => {
      shown.push(message);
      return answer;
    },
  });
  return { client, shown };
}

const YES: ElicitationAnswer = { action: 'accept', content: { confirm: true } };

async function orderToken(key: string, topicIndex: number, amount: number): Promise<string> {
  const topic = genericMarketId(topicIndex);
  const r = await stack.post(`${V1}/topics/${topic}/order-preview`, key, { option_id: outcomeId(topic, 1), amount_coins: amount });
  const preview = valid(OrderPreview, r.body);
  expect(preview.can_place, JSON.stringify(r.body)).toBe(true);
  return preview.confirm_token as string;
}

describe('a yes through the client runs the execution once', () => {
  it('place_order: the user is shown the order in plain words, then it is placed and charged once', async () => {
    const token = await orderToken(key, 2, 19);
    const before = await coins(stack, USERS.alice);
    const { client, shown } = await clientAnswering(key, YES);
    const result = await client.callTool({ name: 'place_order', arguments: { confirm_token: token } });
    expect(result.isError).toBeFalsy();
    const order = valid(Order, result.structuredContent);
    expect(order).toMatchObject({ stake_coins: '19.0000', replayed: false });
    expect(shown).toHaveLength(1);
    const message = shown[0] as string;
    expect(message).toContain(order.option_label);
    expect(message).toContain('Stake: 19.0000 coins.');
    expect(message).toMatch(/Balance after: \d+\.\d{4} coins\./);
    expect(message).toMatch(/Guaranteed payout if .* wins: at least \d+\.\d{4} rubies\./);
    expect(message).toMatch(/expires at 2026-11-28T10:0\d:\d\dZ/);
    expect(message).toMatch(/\nPlace this order\?$/);
    expect(await coins(stack, USERS.alice)).toBe((Number(before) - 19).toFixed(4));
    // Asked again and confirmed again, the same token replays: nothing more is charged.
    const again = await client.callTool({ name: 'place_order', arguments: { confirm_token: token } });
    expect(again.structuredContent).toEqual({ ...order, replayed: true });
    expect(await coins(stack, USERS.alice)).toBe((Number(before) - 19).toFixed(4));
    await client.close();
  });

  it('publish_opinion: the text, the fee and the balance after; single use as always', async () => {
    const content = 'Confirmed through the client.';
    const p = valid(OpinionPreview, (await stack.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, key, { content })).body);
    expect(p.can_publish).toBe(true);
    const before = await coins(stack, USERS.alice);
    expect(p.summary.balance_after).toBe((Number(before) - Number(p.summary.fee_coins)).toFixed(4));
    const { client, shown } = await clientAnswering(key, YES);
    const result = await client.callTool({ name: 'publish_opinion', arguments: { confirm_token: p.confirm_token } });
    expect(valid(PublishedOpinion, result.structuredContent)).toMatchObject({ content, replayed: false });
    expect(shown[0]).toContain(`"${content}"`);
    expect(shown[0]).toContain(`Fee: ${p.summary.fee_coins} coins.`);
    expect(shown[0]).toContain(`Balance after: ${p.summary.balance_after} coins.`);
    expect(await coins(stack, USERS.alice)).toBe(p.summary.balance_after);
    const retry = await client.callTool({ name: 'publish_opinion', arguments: { confirm_token: p.confirm_token } });
    expect(retry.isError).toBe(true);
    expect(JSON.parse((retry.content as { text: string }[])[0]?.text ?? '')).toMatchObject({ error: { code: 'CONFIRM_TOKEN_USED' } });
    await client.close();
  });

  it('back_opinion: the seat, the price, and that no payout is guaranteed', async () => {
    const p = valid(
      BackPreview,
      (await stack.post(`${V1}/opinions/${OPINIONS.heidiBoosted}/back-preview`, key, { topic_id: MARKETS.boosted })).body,
    );
    expect(p.can_back).toBe(true);
    const { client, shown } = await clientAnswering(key, YES);
    const result = await client.callTool({ name: 'back_opinion', arguments: { confirm_token: p.confirm_token } });
    expect(valid(Back, result.structuredContent)).toMatchObject({ seq: p.summary.my_seq_if_now, replayed: false });
    expect(shown[0]).toContain(`Price: ${p.summary.price_coins} coins, for seat ${p.summary.my_seq_if_now}`);
    expect(shown[0]).toContain(`Balance after: ${p.summary.balance_after} coins.`);
    expect(shown[0]).toContain('No guaranteed payout');
    expect(await coins(stack, USERS.alice)).toBe(p.summary.balance_after);
    await client.close();
  });
});

describe('anything but a yes runs nothing and leaves the token usable', () => {
  it.each([
    ['a decline', 3, { action: 'decline' } as ElicitationAnswer, /chose decline/],
    ['a cancel', 10, { action: 'cancel' } as ElicitationAnswer, /chose cancel/],
    ['a changed mind (accept with no)', 11, { action: 'accept', content: { confirm: false } } as ElicitationAnswer, /answered no/],
  ])('%s', async (_case, topic, answer, words) => {
    const token = await orderToken(key, topic, 14);
    const before = await coins(stack, USERS.alice);
    const performed = (await counters(stack)).performed;
    const { client, shown } = await clientAnswering(key, answer);
    const result = await client.callTool({ name: 'place_order', arguments: { confirm_token: token } });
    expect(shown).toHaveLength(1);
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text).toMatch(words);
    expect(text).toContain('nothing was charged');
    expect(await coins(stack, USERS.alice)).toBe(before);
    expect((await counters(stack)).performed).toEqual(performed);
    // The token still places the order, once.
    const placed = await stack.post(`${V1}/orders`, key, { confirm_token: token });
    expect(placed.status).toBe(201);
    expect(await coins(stack, USERS.alice)).toBe((Number(before) - 14).toFixed(4));
    await client.close();
  });
});

// The protocol by hand: the first round, then a retry with a requestState of our making.
let rpcId = 0;
function modernCall(key: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return stack.request('POST', '/mcp', {
    key,
    body: {
      jsonrpc: '2.0',
      id: ++rpcId,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        ...extra,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    },
    headers: {
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
  });
}
const yes = { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } };

describe('a requestState that cannot be trusted is refused, and nothing runs', () => {
  it('answers the first round with an InputRequiredResult carrying one form elicitation', async () => {
    const r = await modernCall(key, 'place_order', { confirm_token: await orderToken(key, 4, 13) });
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form', requestedSchema: { required: ['confirm'] } } } },
    });
    expect(typeof r.body.result.requestState).toBe('string');
  });

  async function refusedRetry(key: string, token: string, state: string, message: RegExp) {
    const before = await coins(stack, USERS.alice);
    const r = await modernCall(key, 'place_order', { confirm_token: token }, { ...yes, requestState: state });
    expect(r.body.error, JSON.stringify(r.body)).toMatchObject({
      code: -32602,
      message: expect.stringMatching(message),
      data: { reason: 'invalid_request_state' },
    });
    expect(await coins(stack, USERS.alice)).toBe(before);
  }

  it('altered, issued for another token, key or tool: refused; the token still works afterwards', async () => {
    const token = await orderToken(key, 5, 12);
    const first = await modernCall(key, 'place_order', { confirm_token: token });
    const state = first.body.result.requestState as string;
    const flipped = state.slice(0, -2) + (state.at(-2) === 'A' ? 'B' : 'A') + state.at(-1);
    await refusedRetry(key, token, flipped, /^Invalid requestState: .*altered/);
    await refusedRetry(key, token, `zz${state}`, /^Invalid requestState/);
    // Another token of the same key.
    await refusedRetry(key, await orderToken(key, 5, 13), state, /issued for another/);
    // Another key of the same user, with a token of its own.
    const other = otherKey;
    const before = await coins(stack, USERS.alice);
    const foreign = await modernCall(
      other,
      'place_order',
      { confirm_token: await orderToken(other, 12, 12) },
      { ...yes, requestState: state },
    );
    expect(foreign.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/issued for another/) });
    expect(await coins(stack, USERS.alice)).toBe(before);
    // Another tool: a back_opinion call presenting it.
    const back = await modernCall(key, 'back_opinion', { confirm_token: token }, { ...yes, requestState: state });
    expect(back.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/issued for another/) });
    // The genuine state with the user's yes places the order.
    const placed = await modernCall(key, 'place_order', { confirm_token: token }, { ...yes, requestState: state });
    expect(valid(Order, placed.body.result.structuredContent)).toMatchObject({ stake_coins: '12.0000', replayed: false });
    expect(await coins(stack, USERS.alice)).toBe((Number(before) - 12).toFixed(4));
  });

  it('past the token expiry: refused as expired', async () => {
    const token = await orderToken(key, 6, 12);
    const state = (await modernCall(key, 'place_order', { confirm_token: token })).body.result.requestState as string;
    now += 6 * 60 * 1000;
    try {
      await refusedRetry(key, token, state, /^Expired requestState/);
    } finally {
      now -= 6 * 60 * 1000;
    }
  });

  it('a retry without an answer runs nothing', async () => {
    const token = await orderToken(key, 7, 12);
    const state = (await modernCall(key, 'place_order', { confirm_token: token })).body.result.requestState as string;
    const before = await coins(stack, USERS.alice);
    const r = await modernCall(key, 'place_order', { confirm_token: token }, { requestState: state });
    expect(r.body.result.isError).toBe(true);
    expect(r.body.result.content[0].text).toMatch(/gave no answer/);
    expect(await coins(stack, USERS.alice)).toBe(before);
  });
});

describe("clients that cannot be asked keep today's behaviour", () => {
  it('a 2026-07-28 client without elicitation: the token alone executes', async () => {
    const token = await orderToken(key, 8, 12);
    const client = await mcpModernClient(stack.url, key);
    const result = await client.callTool({ name: 'place_order', arguments: { confirm_token: token } });
    expect(valid(Order, result.structuredContent).replayed).toBe(false);
    await client.close();
  });

  it('with MCP_CLIENT_CONFIRMATION=off, a client with elicitation is not asked', async () => {
    const topic = genericMarketId(9);
    const r = await off.post(`${V1}/topics/${topic}/order-preview`, key, { option_id: outcomeId(topic, 1), amount_coins: 12 });
    const { client, shown } = await clientAnswering(key, { action: 'decline' }, off);
    const result = await client.callTool({ name: 'place_order', arguments: { confirm_token: r.body.confirm_token } });
    expect(valid(Order, result.structuredContent).replayed).toBe(false);
    expect(shown).toEqual([]);
    await client.close();
  });
});
