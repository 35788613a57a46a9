/**
 * What an agent pays for `tools/list` and what it gets: the size budgets of the listing per
 * scope, snapshots of every tool definition (so a schema change shows in review), and real
 * results of every read tool validating against the compact output schemas they declare.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../src/surfaces/mcp/tools.ts';
import { OPERATIONS } from '../../../src/operations/index.ts';
import { KEYS, MARKETS, POLLS, startStack, type Reply, type Stack } from '../../helpers/stack.ts';

/** The budgets of docs/mcp.md#context: the whole JSON-RPC answer, in bytes. */
const BUDGET = { read: 24 * 1024, write: 32 * 1024 };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => stack.close());

function rpc(key: string, body: unknown): Promise<Reply> {
  return stack.request('POST', '/mcp', {
    key,
    raw: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
}

type Listed = { name: string; inputSchema: Record<string, unknown>; outputSchema: Record<string, unknown> };

/** The whole `tools/list` answer, on the 2025 handshake or on 2026-07-28 (its envelope and caching hints). */
async function listing(key: string, revision: 'legacy' | 'modern' = 'legacy'): Promise<{ bytes: number; tools: Listed[] }> {
  const modern = revision === 'modern';
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const res = await fetch(`${stack.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(modern && { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', ...(modern && { params: { _meta: meta } }) }),
  });
  const text = await res.text();
  return { bytes: Buffer.byteLength(text), tools: JSON.parse(text).result.tools };
}

describe('tools/list', () => {
  it.each(['legacy', 'modern'] as const)(
    `stays within ${BUDGET.read} bytes for a read key and ${BUDGET.write} for a write key (%s)`,
    async (revision) => {
      const read = await listing(KEYS.aliceRead, revision);
      const write = await listing(KEYS.aliceWrite, revision);
      expect(read.tools).toHaveLength(12);
      expect(write.tools).toHaveLength(18);
      expect(read.bytes).toBeLessThanOrEqual(BUDGET.read);
      expect(write.bytes).toBeLessThanOrEqual(BUDGET.write);
    },
  );

  it('writes schemas every client can map: no type arrays, no remote references, no schema that constrains nothing', async () => {
    const { tools } = await listing(KEYS.aliceWrite);
    const problems: string[] = [];
    for (const tool of tools)
      for (const kind of ['inputSchema', 'outputSchema'] as const) unportable(tool[kind], `${tool.name}.${kind}`, problems);
    expect(problems).toEqual([]);
  });

  it('matches the reviewed snapshot of every tool definition', async () => {
    const write = await listing(KEYS.aliceWrite);
    await expect(`${JSON.stringify(write.tools, null, 1)}\n`).toMatchFileSnapshot('./__snapshots__/tools-list.json');
  });
});

describe('results validate against the declared output schemas', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const cases: [string, Record<string, unknown>][] = [
    ['search_topics', { q: 'will' }],
    ['search_topics', { q: 'will', type: 'poll' }],
    ['list_topics', { limit: 50 }],
    ['list_topics', { type: 'poll' }],
    ['list_topic_categories', {}],
    ['get_topic', { topic_id: MARKETS.boosted }],
    ['get_topic', { topic_id: POLLS.aliceVoted }],
    ['list_topic_opinions', { topic_id: MARKETS.aliceOpen }],
    ['get_my_profile', {}],
    ['list_my_positions', { limit: 100 }],
    ['list_my_opinions', {}],
    ['list_my_backed_opinions', {}],
    ['list_my_watchlist', {}],
    ['list_my_coin_ledger', {}],
    ['list_my_ruby_ledger', {}],
    ['preview_order', { topic_id: MARKETS.boosted, option_id: '00000000-0000-4000-8001-0000000b0005', amount_coins: 25 }],
    ['preview_order', { topic_id: MARKETS.boosted, option_id: '00000000-0000-4000-8001-0000000b0005', amount_coins: 999999 }],
  ];

  it.each(cases)('%s %j', async (name, args) => {
    const { tools } = await listing(KEYS.aliceWrite);
    const tool = tools.find((t) => t.name === name);
    const r = await rpc(KEYS.aliceWrite, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
    const result = r.body.result as { isError?: boolean; structuredContent: unknown };
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const validate = ajv.compile(tool?.outputSchema ?? {});
    expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    // The compact schema accepts what the full contract schema accepts: the answer is also valid there.
    const op = OPERATIONS.find((o) => o.name === name);
    expect(op?.output.safeParse(result.structuredContent).success).toBe(true);
  });

  it('the registry answers tools/list from one prebuilt listing per scope set', () => {
    const registry = new ToolRegistry(OPERATIONS);
    expect(registry.listingFor(new Set(['read']))).toBe(registry.listingFor(new Set(['read'])));
    expect(registry.listingFor(new Set(['read', 'write']))).toBe(registry.listingFor(new Set(['read', 'write'])));
  });
});

/** Keywords that constrain a value (the MCP Inspector's portability check counts a schema without one as untyped). */
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'allOf',
  'oneOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  '$ref',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'required',
]);
const SUBSCHEMA_MAPS = new Set(['properties', '$defs', 'patternProperties']);
const SUBSCHEMA_LISTS = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);

function unportable(node: unknown, path: string, problems: string[]): void {
  if (typeof node === 'boolean') {
    problems.push(`${path}: a bare boolean schema`);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema['type'])) problems.push(`${path}: type is an array`);
  if (typeof schema['$ref'] === 'string' && !schema['$ref'].startsWith('#')) problems.push(`${path}: remote $ref`);
  if (!Object.keys(schema).some((k) => CONSTRAINING.has(k))) problems.push(`${path}: constrains nothing`);
  for (const [k, v] of Object.entries(schema)) {
    if (SUBSCHEMA_MAPS.has(k) && v !== null && typeof v === 'object')
      for (const [n, sub] of Object.entries(v)) unportable(sub, `${path}.${k}.${n}`, problems);
    else if (SUBSCHEMA_LISTS.has(k) && Array.isArray(v))
      for (const [i, sub] of v.entries()) unportable(sub, `${path}.${k}[${i}]`, problems);
    else if ((k === 'items' || k === 'not' || k === 'additionalProperties') && typeof v === 'object')
      unportable(v, `${path}.${k}`, problems);
  }
}
