/**
 * A plain `tools/call` is answered without building the SDK's server and transport
 * (src/surfaces/mcp/server.ts, directToolCall). The answer must be the one the SDK gives: the
 * same request with a `_meta` in its params (which always goes through the SDK) is the twin
 * each answer is compared with, byte for byte, status and content type included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/auth/caller.ts';
import { ApiError } from '../../../src/errors/api-error.ts';
import { OPERATIONS } from '../../../src/operations/index.ts';
import { answerDirect } from '../../../src/surfaces/mcp/server.ts';
import { ToolRegistry } from '../../../src/surfaces/mcp/tools.ts';
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

describe('the direct answer as text', () => {
  // The answer splices the body's JSON, serialised once for the text content, in place of a
  // second serialisation of structuredContent: it must be JSON.stringify of the response.
  const awkward = {
    quote: 'say "hi" \\ back',
    lines: 'one\ntwo\r\tthree\u2028four',
    accents: 'Pronóstico ¿sí? 価格 😀',
    lone: 'half \ud800 a pair',
    control: '\u0000\u001f',
    nested: { list: [1, 2.5, -0, null, true], empty: {} },
  };

  /** answerDirect for get_my_profile over a pipeline whose invoke gives `invoke`'s answer. */
  function answer(id: string | number, invoke: () => Promise<unknown>): Promise<string> {
    const caller = { userId: 'u', keyId: 'k', keyHash: 'h', scopes: new Set(['read' as const]) } as unknown as Caller;
    const pipeline = { meter: async () => ({}), meterRefused: async () => ({}), invoke };
    const registry = new ToolRegistry(OPERATIONS);
    const ctx = { caller, requestId: 'r', log: { warn() {}, error() {} }, pipeline, registry, onMetered() {} };
    const tool = registry.find('get_my_profile');
    if (tool === undefined) throw new Error('no get_my_profile tool');
    return answerDirect(ctx as never, { id, tool, arguments: {} });
  }

  it.each([
    ['a number id', 7],
    ['a string id with quotes', 'a"b\\c'],
  ])('equals JSON.stringify of the response, with %s', async (_name, id) => {
    const expected = JSON.stringify({
      result: { content: [{ type: 'text', text: JSON.stringify(awkward) }], structuredContent: awkward },
      jsonrpc: '2.0',
      id,
    });
    expect(await answer(id, async () => ({ status: 200, body: awkward, lang: 'en' }))).toBe(expected);
  });

  it('writes an error result, which has no structured content, as JSON.stringify of the response', async () => {
    const envelope = new ApiError('NOT_FOUND').toEnvelope();
    const expected = JSON.stringify({
      result: { content: [{ type: 'text', text: JSON.stringify(envelope) }], isError: true },
      jsonrpc: '2.0',
      id: 1,
    });
    const got = await answer(1, async () => {
      throw new ApiError('NOT_FOUND');
    });
    expect(got).toBe(expected);
  });
});
