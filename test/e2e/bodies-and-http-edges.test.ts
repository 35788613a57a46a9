/**
 * Bodies judged as documents, not as text, on both surfaces (docs/contract/writes.md#amount-limits,
 * docs/contract/errors.md#request-errors), and the HTTP edges a conforming client never produces,
 * sent through a raw socket because fetch() refuses to send most of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { rawExchange } from '../fuzz/raw-http.ts';
import { KEYS, type Stack } from '../helpers/stack.ts';
import { V1, writeStack } from '../helpers/writes.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await writeStack();
});
afterAll(async () => {
  await stack.close();
});

const topic = genericMarketId(1);
const option = outcomeId(topic, 1);
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function rest(raw: string, contentType = 'application/json') {
  return stack.request('POST', `${V1}/topics/${topic}/order-preview`, {
    key: KEYS.aliceWrite,
    raw,
    headers: { 'content-type': contentType },
  });
}

/** A preview_order call whose arguments are the given JSON text. */
async function mcp(args: string) {
  const raw = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"preview_order","arguments":${args}}}`;
  return stack.request('POST', '/mcp', { key: KEYS.aliceWrite, raw, headers: MCP_HEADERS });
}

function expectRestRefusal(r: { status: number; body: any }, field: string): void {
  expect({ status: r.status, code: r.body?.error?.code, field: r.body?.error?.details?.field }, JSON.stringify(r.body)).toEqual({
    status: 400,
    code: 'INVALID_ARGUMENT',
    field,
  });
}

describe('money fields, on the parsed document', () => {
  const escaped = [`"amount_\\u0063oins"`, `"\\u0061mount_coins"`, `"amount_coin\\u0073"`];

  it.each(escaped)('an escaped key %s is judged like the plain one: a fraction is refused on REST', async (key) => {
    expectRestRefusal(await rest(`{"option_id":"${option}",${key}:10.0000000000000001}`), 'amount_coins');
  });

  it.each(escaped)('an escaped key %s is judged like the plain one: a fraction is a tool error over MCP', async (key) => {
    const r = await mcp(`{"topic_id":"${topic}","option_id":"${option}",${key}:10.0000000000000001}`);
    expect(r.status).toBe(200);
    expect(r.body.result.isError).toBe(true);
    expect(JSON.parse(r.body.result.content[0].text).error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'amount_coins' } });
  });

  it('an escaped key with a whole amount is an ordinary stake', async () => {
    const r = await rest(`{"option_id":"${option}","amount_\\u0063oins":10}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.summary.stake_coins).toBe('10.0000');
  });

  it('a key given twice is refused on REST, naming it, whichever value comes last', async () => {
    expectRestRefusal(await rest(`{"option_id":"${option}","amount_coins":10,"amount_coins":1000000}`), 'amount_coins');
    expectRestRefusal(await rest(`{"option_id":"${option}","amount_coins":10,"amount_\\u0063oins":10}`), 'amount_coins');
    expectRestRefusal(await rest(`{"option_id":"${option}","option_id":"${option}"}`), 'option_id');
  });

  it('a key given twice over MCP is a JSON-RPC Invalid Request naming it, and nothing runs', async () => {
    const r = await mcp(`{"topic_id":"${topic}","option_id":"${option}","amount_coins":10,"amount_coins":1000000}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600, data: { field: 'params.arguments.amount_coins' } } });
    expect(r.body.error.message).toContain('params.arguments.amount_coins');
  });

  it('the same name in different objects is no duplicate', async () => {
    const r = await mcp(`{"topic_id":"${topic}","option_id":"${option}","amount_coins":10}`);
    expect(r.body.result.isError, JSON.stringify(r.body)).toBeUndefined();
    expect(r.body.result.structuredContent.summary.stake_coins).toBe('10.0000');
  });

  it('prototype poisoning is still refused', async () => {
    expectRestRefusal(await rest(`{"option_id":"${option}","__proto__":{"x":1}}`), 'body');
    expectRestRefusal(await rest(`{"option_id":"${option}","constructor":{"prototype":{"x":1}}}`), 'body');
  });
});

describe('charsets', () => {
  it.each([
    'application/json; charset=latin1',
    'application/json; charset=ISO-8859-1',
    'application/json; charset=utf-16',
    'application/json;charset="UTF-16LE"',
  ])('%s is refused as an unsupported media type', async (contentType) => {
    expectRestRefusal(await rest(`{"option_id":"${option}"}`, contentType), 'content-type');
  });

  it.each(['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/json'])(
    '%s is read',
    async (contentType) => {
      const r = await rest(`{"option_id":"${option}","amount_coins":10}`, contentType);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    },
  );
});

describe('HTTP edges, through a raw socket', () => {
  const envelope = (body: string) => JSON.parse(body) as { error: { code: string; details?: { field?: string } } };
  const get = (target: string, headers: string) =>
    rawExchange(stack.url, `GET ${target} HTTP/1.1\r\n${headers}Authorization: Bearer ${KEYS.aliceRead}\r\nConnection: close\r\n\r\n`);

  it('no Host header is 400 with the envelope', async () => {
    const r = await get(`${V1}/me`, '');
    expect(r.status, r.text).toBe(400);
    expect(envelope(r.body).error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'host' } });
  });

  it('no Host header is 400 on the open paths too', async () => {
    for (const path of ['/livez', '/openapi.json', '/nowhere']) {
      const r = await rawExchange(stack.url, `GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`);
      expect(r.status, r.text).toBe(400);
      expect(envelope(r.body).error.details?.field).toBe('host');
    }
  });

  it('an HTTP/1.0 request needs no Host', async () => {
    const r = await rawExchange(stack.url, `GET ${V1}/me HTTP/1.0\r\nAuthorization: Bearer ${KEYS.aliceRead}\r\n\r\n`);
    expect(r.status, r.text).toBe(200);
  });

  it('two Host headers are 400, equal or not', async () => {
    for (const second of ['127.0.0.1', 'evil.example']) {
      const r = await get(`${V1}/me`, `Host: 127.0.0.1\r\nhost: ${second}\r\n`);
      expect(r.status, r.text).toBe(400);
      expect(envelope(r.body).error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'host' } });
    }
  });

  it('a fragment in the request target is 400 naming the path, not a parameter', async () => {
    for (const target of [`${V1}/me#x`, `${V1}/topics?limit=2#frag`, `/livez#x`]) {
      const r = await get(target, 'Host: 127.0.0.1\r\n');
      expect(r.status, r.text).toBe(400);
      expect(envelope(r.body).error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'path' } });
    }
  });

  it('CONNECT is answered with the envelope, not a dropped connection', async () => {
    const r = await rawExchange(stack.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(r.status, r.text).toBe(400);
    expect(envelope(r.body).error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'method' } });
  });

  it('QUERY without a Content-Type is a 400 envelope, not a 500', async () => {
    const r = await rawExchange(stack.url, `QUERY /livez HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(r.status, r.text).toBe(400);
    expect(envelope(r.body).error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'content-type' } });
  });
});
