/**
 * The MCP server with clients nobody here wrote, over real HTTP (SPEC 4.3, 5.3; DECISIONS.md 7),
 * on both revisions: the TS SDK v1 client on the 2025 handshake and the TS SDK v2 client on
 * 2026-07-28, which adopts it after probing `server/discover`. Tool lists by scope, annotations,
 * every read tool equal to its REST twin, language folding, scope refusal, and the HTTP-level
 * answers of /mcp.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, MARKETS, POLLS, startStack, type Stack } from '../helpers/stack.ts';
import { mcpClient, mcpModernClient } from '../helpers/mcp.ts';

const READ_TOOLS = [
  'search_topics',
  'list_topics',
  'list_topic_categories',
  'get_topic',
  'list_topic_opinions',
  'get_my_profile',
  'list_my_positions',
  'list_my_opinions',
  'list_my_backed_opinions',
  'list_my_watchlist',
  'list_my_coin_ledger',
  'list_my_ruby_ledger',
];
const WRITE_TOOLS = ['preview_order', 'place_order', 'preview_opinion', 'publish_opinion', 'preview_back', 'back_opinion'];
const EXECUTING = ['place_order', 'publish_opinion', 'back_opinion'];

/** What these tests ask of a client: both SDK lines offer it with the same shapes. */
type ToolClient = Pick<Client, 'listTools' | 'callTool' | 'close'>;
type Era = 'legacy' | 'modern';

let stack: Stack;
const clients = {} as Record<Era, { reader: ToolClient; writer: ToolClient }>;
/** The first JSON-RPC method the modern client sent: its probe. */
const modernMethods: (string | null)[] = [];
let modernNegotiated: string | undefined;
let modernServer: unknown;

beforeAll(async () => {
  stack = await startStack();
  clients.legacy = { reader: await mcpClient(stack.url, KEYS.aliceRead), writer: await mcpClient(stack.url, KEYS.aliceWrite) };
  const modernReader = await mcpModernClient(stack.url, KEYS.aliceRead, { onExchange: (sent) => modernMethods.push(sent.method) });
  modernNegotiated = modernReader.getNegotiatedProtocolVersion();
  modernServer = modernReader.getServerVersion();
  clients.modern = {
    reader: modernReader as unknown as ToolClient,
    writer: (await mcpModernClient(stack.url, KEYS.aliceWrite)) as unknown as ToolClient,
  };
});
afterAll(async () => {
  for (const era of ['legacy', 'modern'] as const) {
    await clients[era]?.reader.close();
    await clients[era]?.writer.close();
  }
  await stack.close();
});

describe('server identity', () => {
  it('reports the contract name and version', () => {
    const legacy = clients.legacy.reader as Client;
    expect(legacy.getServerVersion()).toEqual({ name: 'open-prediction-market', version: '2.1.0' });
    expect(legacy.getServerCapabilities()?.tools).toBeDefined();
    expect(modernServer).toEqual({ name: 'open-prediction-market', version: '2.1.0' });
  });

  it('is adopted on 2026-07-28 by a client that probes server/discover first', () => {
    expect(modernMethods[0]).toBe('server/discover');
    expect(modernNegotiated).toBe('2026-07-28');
    expect(modernMethods).not.toContain('initialize');
  });
});

describe.each(['legacy', 'modern'] as const)('on the %s revision', (era) => {
  let reader: ToolClient;
  let writer: ToolClient;
  beforeAll(() => {
    reader = clients[era].reader;
    writer = clients[era].writer;
  });

  describe('tool lists by scope', () => {
    it('shows a read key exactly the 12 read tools', async () => {
      const { tools } = await reader.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
    });

    it('shows a read+write key the 18 tools', async () => {
      const { tools } = await writer.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    });

    it('gives every tool a title, an agent-facing description, schemas and explicit annotations', async () => {
      const { tools } = await writer.listTools();
      for (const t of tools) {
        expect(t.title, t.name).toBeTruthy();
        expect(t.description?.length ?? 0, t.name).toBeGreaterThan(60);
        expect(t.inputSchema.type, t.name).toBe('object');
        expect(t.outputSchema?.type, t.name).toBe('object');
        const executing = EXECUTING.includes(t.name);
        expect(t.annotations?.readOnlyHint, t.name).toBe(!executing);
        expect(t.annotations?.destructiveHint, t.name).toBe(executing);
        if (executing) expect(t._meta?.['openpm/requiresUserInteraction'], t.name).toBe(true);
        else expect(t._meta?.['openpm/requiresUserInteraction'], t.name).toBeUndefined();
      }
    });

    it('tells agents to confirm with the user and never to choose a stake', async () => {
      const { tools } = await writer.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const name of ['preview_order', 'preview_opinion', 'preview_back']) {
        const d = byName.get(name)?.description ?? '';
        expect(d, name).toMatch(/confirm/i);
        expect(d, name).toMatch(/confirm_token/);
      }
      expect(byName.get('preview_order')?.description).toMatch(/never choose/i);
      for (const name of EXECUTING) expect(byName.get(name)?.inputSchema.required, name).toEqual(['confirm_token']);
    });

    it('uses the REST parameter names and carries `language` only where text is localised, without an enum', async () => {
      const { tools } = await writer.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      const props = (n: string) => Object.keys((byName.get(n)?.inputSchema.properties ?? {}) as object);
      expect(props('get_topic')).toEqual(expect.arrayContaining(['topic_id', 'language']));
      expect(props('list_topics')).toEqual(
        expect.arrayContaining(['type', 'sort', 'status', 'zone', 'category_id', 'mechanism', 'cursor', 'limit', 'language']),
      );
      expect(props('preview_order')).toEqual(expect.arrayContaining(['topic_id', 'option_id', 'amount_coins']));
      expect(props('get_my_profile')).not.toContain('language');
      const lang = (byName.get('get_topic')?.inputSchema.properties as Record<string, { enum?: unknown }> | undefined)?.['language'];
      expect(lang?.enum).toBeUndefined();
    });
  });

  describe('tool results equal the REST responses', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['search_topics', { q: 'will' }, '/search?q=will'],
      ['search_topics', { q: 'will', type: 'prediction', limit: 3 }, '/search?q=will&type=prediction&limit=3'],
      ['list_topics', {}, '/topics'],
      ['list_topics', { type: 'poll', limit: 2 }, '/topics?type=poll&limit=2'],
      ['list_topic_categories', {}, '/topic-categories'],
      ['get_topic', { topic_id: MARKETS.boosted }, `/topics/${MARKETS.boosted}`],
      ['get_topic', { topic_id: POLLS.aliceVoted, type: 'poll' }, `/topics/${POLLS.aliceVoted}?type=poll`],
      ['list_topic_opinions', { topic_id: MARKETS.aliceOpen }, `/topics/${MARKETS.aliceOpen}/comments`],
      ['get_my_profile', {}, '/me'],
      ['list_my_positions', { limit: 2 }, '/me/positions?limit=2'],
      ['list_my_opinions', {}, '/me/opinions'],
      ['list_my_backed_opinions', {}, '/me/backed-opinions'],
      ['list_my_watchlist', {}, '/me/watchlist'],
      ['list_my_coin_ledger', { limit: 5 }, '/me/coin-ledger?limit=5'],
      ['list_my_ruby_ledger', {}, '/me/ruby-ledger'],
    ];

    it.each(cases)('%s %j', async (tool, args, path) => {
      const result = await reader.callTool({ name: tool, arguments: args });
      const rest = await stack.get(`/open/v1${path}`, KEYS.aliceRead);
      expect(rest.status).toBe(200);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(rest.body);
      const content = result.content as { type: string; text: string }[];
      expect(content).toHaveLength(1);
      expect(JSON.parse(content[0]?.text ?? '')).toEqual(rest.body);
    });

    it('pages with the cursor it returned', async () => {
      const first = await reader.callTool({ name: 'list_topics', arguments: { limit: 5 } });
      const cursor = (first.structuredContent as { next_cursor: string }).next_cursor;
      const second = await reader.callTool({ name: 'list_topics', arguments: { limit: 5, cursor } });
      const rest = await stack.get(`/open/v1/topics?limit=5&cursor=${cursor}`, KEYS.aliceRead);
      expect(second.structuredContent).toEqual(rest.body);
    });
  });

  describe('language', () => {
    it.each([
      ['zh', 'zh-CN'],
      ['zh-Hant', 'zh-TW'],
      ['ZH_tw', 'zh-TW'],
      ['en-US', 'en'],
      ['ja-JP', 'ja'],
      ['in', 'id'],
    ])('folds %s onto %s', async (language, code) => {
      const tool = await reader.callTool({ name: 'get_topic', arguments: { topic_id: MARKETS.aliceOpen, language } });
      const rest = await stack.get(`/open/v1/topics/${MARKETS.aliceOpen}`, KEYS.aliceRead, { 'accept-language': code });
      expect(tool.structuredContent).toEqual(rest.body);
    });

    it.each(['xx', 'klingon', '', 'zh-XX-foo-bar-baz'])('rejects %j naming the supported codes', async (language) => {
      const result = await reader.callTool({ name: 'get_topic', arguments: { topic_id: MARKETS.aliceOpen, language } });
      expect(result.isError).toBe(true);
      const env = JSON.parse((result.content as { text: string }[])[0]?.text ?? '');
      expect(env.error.code).toBe('INVALID_ARGUMENT');
      expect(env.error.details.field).toBe('language');
      expect(env.error.message).toContain('zh-TW');
    });
  });

  describe('errors', () => {
    it('returns a contract error as an isError result with the REST envelope', async () => {
      const missing = '00000000-0000-4000-8000-00000000ffff';
      const result = await reader.callTool({ name: 'get_topic', arguments: { topic_id: missing } });
      const rest = await stack.get(`/open/v1/topics/${missing}`, KEYS.aliceRead);
      expect(result.isError).toBe(true);
      expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual(rest.body);
    });

    it('reports an invalid argument by its REST name', async () => {
      const result = await reader.callTool({ name: 'list_topics', arguments: { limit: 500 } });
      expect(result.isError).toBe(true);
      expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '').error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { field: 'limit' },
      });
    });

    it('answers a write tool called with a read key FORBIDDEN_SCOPE, and never runs it', async () => {
      const before = await stack.admin('GET', '/counters');
      for (const [name, args] of [
        ['place_order', { confirm_token: 'x' }],
        ['preview_order', { topic_id: MARKETS.boosted }],
      ] as const) {
        const result = await reader.callTool({ name, arguments: args });
        expect(result.isError).toBe(true);
        expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '').error).toMatchObject({
          code: 'FORBIDDEN_SCOPE',
          details: { required_scope: 'write' },
        });
      }
      expect(await stack.admin('GET', '/counters')).toEqual(before);
    });
  });
});

describe('HTTP surface of /mcp', () => {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const accept = { accept: 'application/json, text/event-stream' };

  it('answers 401 with the challenge before any MCP handling', async () => {
    const res = await stack.request('POST', '/mcp', { body: init, headers: accept });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="open-api"');
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    const bad = await stack.request('POST', '/mcp', { key: KEYS.carolRevoked, body: init, headers: accept });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it.each(['GET', 'DELETE'])('answers %s with 405', async (method) => {
    const res = await stack.request(method, '/mcp', { key: KEYS.aliceRead });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers initialize with JSON and the negotiated protocol version', async () => {
    const res = await stack.request('POST', '/mcp', { key: KEYS.aliceRead, body: init, headers: accept });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.result.serverInfo).toEqual({ name: 'open-prediction-market', version: '2.1.0' });
    expect(res.body.result.protocolVersion).toBe('2025-06-18');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
