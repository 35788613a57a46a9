/**
 * A plain `tools/call` is answered without building the SDK's server and transport
 * (src/surfaces/mcp/server.ts, directToolCall). The answer must be the one the SDK gives: the
 * same request with a `_meta` in its params (which always goes through the SDK) is the twin
 * each answer is compared with, byte for byte, status and content type included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, MARKETS, startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

const headers = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

async function call(id: number | string, name: string, args: unknown, viaSdk: boolean) {
  const params = viaSdk ? { name, arguments: args, _meta: {} } : { name, arguments: args };
  const res = await fetch(`${stack.url}/mcp`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${KEYS.aliceRead}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  });
  return { status: res.status, type: res.headers.get('content-type'), limit: res.headers.get('x-ratelimit-limit'), body: await res.text() };
}

describe('a plain tools/call answers exactly as the SDK does', () => {
  it.each([
    ['get_my_profile', {}],
    ['get_topic', { topic_id: MARKETS.aliceOpen }],
    ['list_my_positions', { limit: 2 }],
    ['get_topic', { topic_id: 'not-a-uuid' }], // a contract error: an isError result
    ['get_topic', { topic_id: MARKETS.aliceOpen, language: 'pt' }], // refused language
    ['get_my_profile', { surprise: 1 }], // unknown argument
  ])('%s %j', async (name, args) => {
    const direct = await call(7, name, args, false);
    const sdk = await call(7, name, args, true);
    expect(direct.status).toBe(200);
    expect(direct).toEqual(sdk);
    expect(JSON.parse(direct.body)).toMatchObject({ jsonrpc: '2.0', id: 7 });
  });

  it('keeps a string id', async () => {
    const direct = await call('abc', 'get_my_profile', {}, false);
    expect(direct).toEqual(await call('abc', 'get_my_profile', {}, true));
  });

  it('leaves an unknown tool to the SDK: a JSON-RPC error, not a result', async () => {
    const res = await call(1, 'no_such_tool', {}, false);
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
  });
});
