/**
 * The six write operations as MCP tools (SPEC 5.3; DECISIONS 7): visible only to write keys,
 * annotated, described for an agent, and answering the REST bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Back, BackPreview, OpinionPreview, Order, OrderPreview, PublishedOpinion } from '../../src/contract/index.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { KEYS, MARKETS, OPINIONS, type Stack } from '../helpers/stack.ts';
import { V1, expectAuditOk, valid, writeStack } from '../helpers/writes.ts';

const WRITE_TOOLS = ['preview_order', 'place_order', 'preview_opinion', 'publish_opinion', 'preview_back', 'back_opinion'];
const EXECUTING = ['place_order', 'publish_opinion', 'back_opinion'];

let stack: Stack;
beforeAll(async () => {
  stack = await writeStack();
});
afterAll(async () => {
  await expectAuditOk(stack);
  await stack.close();
});

let id = 0;
async function rpc(key: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
  const r = await stack.request('POST', '/mcp', {
    key,
    body: { jsonrpc: '2.0', id: ++id, method, params },
    headers: { accept: 'application/json, text/event-stream' },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const call = async (key: string, name: string, args: Record<string, unknown>) =>
  (await rpc(key, 'tools/call', { name, arguments: args })).result;

describe('tools/list', () => {
  it('a write key sees the six write tools, annotated', async () => {
    const tools = (await rpc(KEYS.aliceWrite, 'tools/list')).result.tools as any[];
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of WRITE_TOOLS) {
      const t = byName.get(name);
      expect(t, name).toBeDefined();
      const executing = EXECUTING.includes(name);
      expect(t.annotations).toMatchObject({ readOnlyHint: !executing, destructiveHint: executing });
      if (executing) {
        expect(t._meta).toEqual({ 'openpm/requiresUserInteraction': true });
        expect(Object.keys(t.inputSchema.properties).filter((k) => k !== 'language')).toEqual(['confirm_token']);
        expect(t.description).toMatch(/explicitly confirmed/);
        expect(t.description).toMatch(/only the `confirm_token`/);
      } else {
        expect(t.description).toMatch(/explicit confirmation before the executing tool/);
        expect(t.description).toMatch(/only input is this `confirm_token`/);
      }
      expect(t.outputSchema.type).toBe('object');
    }
    expect(byName.get('preview_order').description).toMatch(/never choose, infer or round a stake/);
    expect(byName.get('preview_order').inputSchema.required).toEqual(expect.arrayContaining(['topic_id', 'option_id']));
    expect(byName.get('place_order').annotations.idempotentHint).toBe(true);
    expect(byName.get('publish_opinion').annotations.idempotentHint).toBe(false);
  });

  it('a read key sees none of them, and calling one is FORBIDDEN_SCOPE', async () => {
    const tools = (await rpc(KEYS.aliceRead, 'tools/list')).result.tools as any[];
    expect(tools.map((t) => t.name).filter((n) => WRITE_TOOLS.includes(n))).toEqual([]);
    const body = await rpc(KEYS.aliceRead, 'tools/call', { name: 'preview_order', arguments: {} });
    expect(body.result.isError).toBe(true);
    expect(JSON.parse(body.result.content[0].text).error).toMatchObject({ code: 'FORBIDDEN_SCOPE', details: { required_scope: 'write' } });
  });
});

describe('tools/call', () => {
  it('preview_order then place_order, with the REST bodies as structuredContent', async () => {
    const topic = genericMarketId(0);
    const preview = await call(KEYS.aliceWrite, 'preview_order', {
      topic_id: topic,
      option_id: outcomeId(topic, 1),
      amount_coins: 7,
      language: 'zh',
    });
    expect(preview.isError).toBeFalsy();
    const p = valid(OrderPreview, preview.structuredContent);
    expect(JSON.parse(preview.content[0].text)).toEqual(preview.structuredContent);
    expect(p.summary.topic_title).toBe('比特币今年收盘会高于 15 万美元吗？');
    expect(p.summary.stake_coins).toBe('7.0000');

    const placed = await call(KEYS.aliceWrite, 'place_order', { confirm_token: p.confirm_token });
    expect(placed.isError).toBeFalsy();
    const order = valid(Order, placed.structuredContent);
    expect(order).toMatchObject({ stake_coins: '7.0000', replayed: false, option_label: '是' }); // the preview's language
    // It takes `language` as every tool returning an option name does, checked like
    // any other; the answer keeps the preview's language, so every replay is the same Order.
    const again = await call(KEYS.aliceWrite, 'place_order', { confirm_token: p.confirm_token, language: 'ja' });
    expect(again.structuredContent).toEqual({ ...order, replayed: true });
    const bad = await call(KEYS.aliceWrite, 'place_order', { confirm_token: p.confirm_token, language: 'klingon' });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.content[0].text)).toMatchObject({ error: { code: 'INVALID_ARGUMENT', details: { field: 'language' } } });
  });

  it('place_order declares `language`; back_opinion, whose Back holds no text, does not', async () => {
    const tools = (await rpc(KEYS.aliceWrite, 'tools/list')).result.tools as any[];
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('place_order').inputSchema.properties.language.description).toMatch(/keeps the language of the preview/);
    expect(byName.get('back_opinion').inputSchema.properties.language).toBeUndefined();
    // REST does not negotiate it either: the order of a zh preview is named in zh whatever the header.
    const topic = genericMarketId(1);
    const preview = await stack.post(
      `${V1}/topics/${topic}/order-preview`,
      KEYS.aliceWrite,
      { option_id: outcomeId(topic, 1), amount_coins: 5 },
      { 'accept-language': 'zh' },
    );
    const token = valid(OrderPreview, preview.body).confirm_token;
    const r = await stack.request('POST', `${V1}/orders`, {
      key: KEYS.aliceWrite,
      body: { confirm_token: token },
      headers: { 'accept-language': 'ja' },
    });
    expect(valid(Order, r.body).option_label).toBe('是');
    expect(r.headers.get('content-language')).toBeNull();
  });

  it('contract errors are tool errors holding the REST envelope', async () => {
    const r = await call(KEYS.aliceWrite, 'preview_order', {
      topic_id: MARKETS.boosted,
      option_id: outcomeId(MARKETS.boosted, 1),
      amount_coins: '10',
    });
    expect(r.isError).toBe(true);
    expect(JSON.parse(r.content[0].text)).toMatchObject({ error: { code: 'INVALID_ARGUMENT', details: { field: 'amount_coins' } } });
    const e = await call(KEYS.aliceWrite, 'place_order', { confirm_token: 'ct1.a.b.c' });
    expect(JSON.parse(e.content[0].text)).toMatchObject({ error: { code: 'CONFIRM_TOKEN_INVALID' } });
    const x = await call(KEYS.aliceWrite, 'back_opinion', { confirm_token: 'ct1.a.b.c', opinion_id: 'x' });
    expect(JSON.parse(x.content[0].text)).toMatchObject({ error: { code: 'INVALID_ARGUMENT', details: { field: 'opinion_id' } } });
  });

  it('the preview answers a refusal as a result, not an error', async () => {
    const r = await call(KEYS.aliceWrite, 'preview_order', {
      topic_id: MARKETS.legacyStake,
      option_id: outcomeId(MARKETS.legacyStake, 1),
      amount_coins: 10,
    });
    expect(r.isError).toBeFalsy();
    expect(valid(OrderPreview, r.structuredContent)).toMatchObject({ can_place: false, reason: 'STAKE_OUT_OF_RANGE' });
  });

  it('preview_opinion then publish_opinion; a retry is a tool error CONFIRM_TOKEN_USED', async () => {
    const args = { topic_id: MARKETS.aliceOpen, content: 'Published over MCP.' };
    const preview = await call(KEYS.aliceWrite, 'preview_opinion', args);
    const p = valid(OpinionPreview, preview.structuredContent);
    expect(p.can_publish).toBe(true);
    // The same request over REST answers the same body (apart from the token, unique per preview).
    const rest = await stack.post(`/open/v1/topics/${MARKETS.aliceOpen}/opinion-preview`, KEYS.aliceWrite, { content: args.content });
    const strip = (b: Record<string, unknown>) => ({ ...b, confirm_token: undefined, expires_at: undefined });
    expect(strip(rest.body)).toEqual(strip(p as unknown as Record<string, unknown>));

    const published = await call(KEYS.aliceWrite, 'publish_opinion', { confirm_token: p.confirm_token });
    expect(published.isError).toBeFalsy();
    expect(valid(PublishedOpinion, published.structuredContent)).toMatchObject({ content: args.content, replayed: false });
    const retry = await call(KEYS.aliceWrite, 'publish_opinion', { confirm_token: p.confirm_token });
    expect(retry.isError).toBe(true);
    expect(JSON.parse(retry.content[0].text)).toMatchObject({ error: { code: 'CONFIRM_TOKEN_USED' } });
  });

  it('preview_back then back_opinion; a retry replays', async () => {
    const preview = await call(KEYS.aliceWrite, 'preview_back', { opinion_id: OPINIONS.heidiBoosted, topic_id: MARKETS.boosted });
    const p = valid(BackPreview, preview.structuredContent);
    expect(p.can_back).toBe(true);
    const backed = await call(KEYS.aliceWrite, 'back_opinion', { confirm_token: p.confirm_token });
    const back = valid(Back, backed.structuredContent);
    expect(back).toMatchObject({ opinion_id: OPINIONS.heidiBoosted, seq: p.summary.my_seq_if_now, replayed: false });
    const again = await call(KEYS.aliceWrite, 'back_opinion', { confirm_token: p.confirm_token });
    expect(again.structuredContent).toEqual({ ...back, replayed: true });
  });
});
