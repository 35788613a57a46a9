/**
 * Inputs the write previews refuse: opinion text with control or bidirectional formatting
 * characters (docs/contract/writes.md#text-rules; a reason of the preview, an error at publish), and amounts that are not exact,
 * bounded whole coins (docs/contract/writes.md#amount-limits). Nothing refused is echoed back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpinionPreview } from '../../src/contract/index.ts';
import { MAX_AMOUNT_COINS } from '../../src/contract/common.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { KEYS, MARKETS, type Stack } from '../helpers/stack.ts';
import { V1, counters, decodeToken, expectAuditOk, valid, writeStack } from '../helpers/writes.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await writeStack();
});
afterAll(async () => {
  await expectAuditOk(stack);
  await stack.close();
});

const opinionPreview = (content: string) => stack.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, KEYS.aliceWrite, { content });

describe('opinion text', () => {
  const forbidden: [string, string][] = [
    ['NUL', 'Holding \u0000 firm'],
    ['right-to-left override', 'Yes \u202eon no'],
    ['left-to-right embedding', 'a\u202ab'],
    ['first strong isolate', 'a\u2068b\u2069'],
    ['right-to-left mark', 'a\u200fb'],
    ['Arabic letter mark', 'a\u061cb'],
    ['escape', 'a\u001b[31mred'],
    ['carriage return', 'line\rover'],
    ['C1 control', 'a\u0085b'],
    ['delete', 'a\u007fb'],
  ];
  it.each(forbidden)('with a %s is the reason CONTENT_INVALID of a 200, without a token, and not echoed', async (_name, content) => {
    const before = await counters(stack);
    const r = await opinionPreview(content);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const p = valid(OpinionPreview, r.body);
    expect({ can_publish: p.can_publish, reason: p.reason }).toEqual({ can_publish: false, reason: 'CONTENT_INVALID' });
    expect(p.confirm_token).toBeUndefined();
    expect(p.expires_at).toBeUndefined();
    expect(p.summary.content_preview).toContain('\uFFFD');
    expect(JSON.stringify(r.body)).not.toContain(JSON.stringify(content).slice(1, -1));
    expect(await counters(stack)).toEqual(before);
  });

  it('is checked again at publish: a validly signed token carrying such text publishes nothing', async () => {
    const r = await opinionPreview('A fair opinion.');
    const real = decodeToken(valid(OpinionPreview, r.body).confirm_token ?? '').claims;
    // A token this gateway signed, as one issued before the rule would be.
    const { token } = stack.app.services.confirm.tokens.issue('publish_opinion', real.userId, real.keyId, {
      ...real.params,
      content: 'Yes \u202eon no',
    });
    const before = await counters(stack);
    const published = await stack.post(`${V1}/opinions`, KEYS.aliceWrite, { confirm_token: token });
    expect({ status: published.status, code: published.body?.error?.code, field: published.body?.error?.details?.field }).toEqual({
      status: 422,
      code: 'CONTENT_INVALID',
      field: 'content',
    });
    expect(await counters(stack)).toEqual(before);
  });

  it('with tabs, newlines and right-to-left letters is still previewed', async () => {
    const r = await opinionPreview('First line\n\tsecond line, שלום, مرحبا');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(valid(OpinionPreview, r.body).can_publish).toBe(true);
  });
});

describe('amount_coins', () => {
  const topic = genericMarketId(0);
  const path = `${V1}/topics/${topic}/order-preview`;
  const option = outcomeId(topic, 1);

  async function expectRefused(raw: string): Promise<void> {
    const r = await stack.request('POST', path, { key: KEYS.aliceWrite, raw, headers: { 'content-type': 'application/json' } });
    expect({ status: r.status, code: r.body?.error?.code, field: r.body?.error?.details?.field }).toEqual({
      status: 400,
      code: 'INVALID_ARGUMENT',
      field: 'amount_coins',
    });
    // Short, and never the amount read back as a long decimal.
    expect(JSON.stringify(r.body).length).toBeLessThan(200);
    expect(JSON.stringify(r.body)).not.toMatch(/\d{12}/);
  }

  it('1e308 is refused, not echoed as a 309-digit stake', async () => {
    await expectRefused(`{"option_id":"${option}","amount_coins":1e308}`);
  });

  it('9007199254740993 (past exact float precision) is refused, not quoted as …992', async () => {
    await expectRefused(`{"option_id":"${option}","amount_coins":9007199254740993}`);
  });

  it('one coin over the maximum is refused; the maximum itself is a stake reason, not a 400', async () => {
    await expectRefused(`{"option_id":"${option}","amount_coins":${MAX_AMOUNT_COINS + 1}}`);
    const r = await stack.post(path, KEYS.aliceWrite, { option_id: option, amount_coins: MAX_AMOUNT_COINS });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.reason).toBe('STAKE_OUT_OF_RANGE');
    expect(r.body.summary.stake_coins).toBe(`${MAX_AMOUNT_COINS}.0000`);
  });

  it('a fraction is refused as written, even where a double rounds it to a whole number', async () => {
    for (const amount of ['10.00000000000000001', '1.0000000000000001', '150e-2', '10.5']) {
      await expectRefused(`{"option_id":"${option}","amount_coins":${amount}}`);
      // The same over MCP, whose arguments arrive in the same kind of body.
      const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"preview_order","arguments":{"topic_id":"${topic}","option_id":"${option}","amount_coins":${amount}}}}`;
      const r = await stack.request('POST', '/mcp', {
        key: KEYS.aliceWrite,
        raw: call,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      });
      expect(r.body.result.isError, amount).toBe(true);
      expect(JSON.parse(r.body.result.content[0].text).error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { field: 'amount_coins' },
      });
    }
    // Whole numbers however written are stakes.
    for (const [amount, stake] of [
      ['10.0', '10.0000'],
      ['1e1', '10.0000'],
      ['12.50e1', '125.0000'],
    ]) {
      const raw = `{"option_id":"${option}","amount_coins":${amount}}`;
      const r = await stack.request('POST', path, { key: KEYS.aliceWrite, raw, headers: { 'content-type': 'application/json' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.summary.stake_coins).toBe(stake);
    }
  });

  it('the maximum is published in the schema', async () => {
    const doc = (await stack.get('/openapi.json')).body;
    expect(JSON.stringify(doc)).toContain(`"maximum":${MAX_AMOUNT_COINS}`);
  });
});
