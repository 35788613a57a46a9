/**
 * MCP through the one invocation pipeline, over real HTTP with limits on: every JSON-RPC message
 * counts (a batch consumes what it runs), REST and MCP share every budget, and protocol faults
 * are the JSON-RPC errors of the specification (docs/mcp.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, MARKETS, USERS, startStack, type Reply, type Stack } from '../helpers/stack.ts';
import { counters, newWriteKey } from '../helpers/writes.ts';

const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const V1 = '/open/v1';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack.close());

let keys = 0;
const OWNERS = [USERS.erin, USERS.frank, USERS.grace, USERS.heidi, USERS.ivan, USERS.judy, USERS.kim, USERS.leo];
/** A key of its own per test, so each starts with untouched windows. */
async function freshKey(on: Stack = stack): Promise<string> {
  const userId = OWNERS[keys++ % OWNERS.length];
  return (await on.admin('POST', '/keys', { userId, scopes: ['READ'] })).key as string;
}

function rpc(on: Stack, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return on.request('POST', '/mcp', {
    key,
    raw: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { ...ACCEPT, ...headers },
  });
}

const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

interface ToolReply {
  id: number;
  result?: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
  error?: { code: number; message: string };
}

/** The envelope of a tool error, or null for a successful result. */
function toolError(r: ToolReply): { code: string; message: string; details?: Record<string, unknown> } | null {
  if (r.result?.isError !== true) return null;
  return JSON.parse(r.result.content[0]?.text ?? '{}').error;
}

describe('a JSON-RPC batch is counted call by call', () => {
  it('40 search_topics in one request: 30 run, 10 are tool errors naming the delay', async () => {
    const key = await freshKey();
    const r = await rpc(
      stack,
      key,
      Array.from({ length: 40 }, (_, i) => call(i + 1, 'search_topics', { q: 'will' })),
    );
    expect(r.status).toBe(200);
    const replies = r.body as ToolReply[];
    expect(replies).toHaveLength(40);
    const refused = replies.map(toolError).filter((e) => e !== null);
    expect(replies.filter((x) => x.result !== undefined && x.result.isError !== true)).toHaveLength(30);
    expect(refused).toHaveLength(10);
    for (const e of refused) {
      expect(e.code).toBe('RATE_LIMITED');
      expect(e.message).toMatch(/retry after \d+ seconds/);
      expect(e.details?.['retry_after']).toBeGreaterThanOrEqual(1);
    }
    // The search budget is spent for REST too.
    expect((await stack.get(`${V1}/search?q=will`, key)).status).toBe(429);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('12 publish_opinion with 12 distinct previewed tokens: at most 10 are published', async () => {
    const key = await newWriteKey(stack, USERS.alice);
    const tokens: string[] = [];
    for (let i = 0; i < 12; i++) {
      const p = await stack.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, key, { content: `Batch opinion number ${i}.` });
      expect(p.body.can_publish, JSON.stringify(p.body)).toBe(true);
      tokens.push(p.body.confirm_token);
    }
    const before = (await counters(stack)).performed['opinion'] ?? 0;
    const r = await rpc(
      stack,
      key,
      tokens.map((t, i) => call(i + 1, 'publish_opinion', { confirm_token: t })),
    );
    const replies = r.body as ToolReply[];
    const published = replies.filter((x) => x.result !== undefined && x.result.isError !== true);
    const refused = replies.map(toolError).filter((e) => e?.code === 'RATE_LIMITED');
    expect(published).toHaveLength(10);
    expect(refused).toHaveLength(2);
    expect(((await counters(stack)).performed['opinion'] ?? 0) - before).toBe(10);
  });

  it('every message of a batch spends what it would alone; past the read window the whole request is a 429', async () => {
    const small = await startStack({ sandbox: stack.sandbox, env: { RATE_LIMIT_READ_PER_MINUTE: 6 } });
    try {
      const key = await freshKey(small);
      const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
      const unknown = (id: number) => ({ jsonrpc: '2.0', id, method: 'resources/list' });
      const first = await rpc(small, key, [list(1), unknown(2), list(3)]);
      expect(first.status).toBe(200);
      expect(first.body.map((a: { id: number }) => a.id)).toEqual([1, 2, 3]);
      expect(first.headers.get('x-ratelimit-remaining')).toBe('3');
      // Three reads left, four messages: three answered, the fourth refused in its place.
      const second = await rpc(small, key, [list(4), { jsonrpc: '2.0', method: 'notifications/initialized' }, list(5), list(6)]);
      expect(second.status).toBe(200);
      expect(second.body).toHaveLength(3);
      expect(second.body[0].result.tools).toHaveLength(12);
      expect(second.body[1].result.tools).toHaveLength(12);
      expect(second.body[2]).toMatchObject({
        id: 6,
        error: { code: -32000, message: expect.stringMatching(/^Rate limited: .*retry after \d+ seconds/) },
      });
      expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
      // No budget left: the whole request is the 429, and nothing in it ran.
      const refused = await rpc(small, key, [list(8), call(9, 'get_my_profile', {})]);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const alone = await rpc(small, key, list(10));
      expect(alone.status).toBe(429);
    } finally {
      await small.close();
    }
  });

  it("a write key's batch of 99 tools/list: at most 1 MiB answered, the rest not run and not counted", async () => {
    const key = await newWriteKey(stack, USERS.alice);
    const before = Number((await stack.get(`${V1}/topic-categories`, key)).headers.get('x-ratelimit-remaining'));
    const r = await rpc(
      stack,
      key,
      Array.from({ length: 99 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })),
    );
    expect(r.status).toBe(200);
    expect(Buffer.byteLength(JSON.stringify(r.body))).toBeLessThanOrEqual(1024 * 1024);
    const answers = r.body as { id: number; result?: { tools: unknown[] }; error?: { message: string } }[];
    expect(answers).toHaveLength(99);
    const listed = answers.filter((a) => a.result?.tools.length === 18).length;
    expect(listed).toBeGreaterThan(20);
    expect(answers[listed]?.error?.message).toMatch(/^Answer too large/);
    for (const a of answers.slice(listed + 1)) expect(a.error?.message).toMatch(/^Not run/);
    // The listed ones and the one that did not fit ran and counted; nothing after them did.
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBe(before - listed - 1);
  });

  it('a batch led by a tool call the limits refuse is a 429 as a whole', async () => {
    const small = await startStack({ sandbox: stack.sandbox, env: { RATE_LIMIT_READ_PER_MINUTE: 1 } });
    try {
      const key = await freshKey(small);
      expect((await small.get(`${V1}/me`, key)).status).toBe(200);
      const refused = await rpc(small, key, [
        call(1, 'get_my_profile', {}),
        ...Array.from({ length: 99 }, (_, i) => ({ jsonrpc: '2.0', id: i + 2, method: 'tools/list' })),
      ]);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
    } finally {
      await small.close();
    }
  });

  it('a tool call refused by its limit consumes nothing, and the reply describes the refusing window', async () => {
    const small = await startStack({ sandbox: stack.sandbox, env: { RATE_LIMIT_SEARCH_PER_MINUTE: 2, RATE_LIMIT_READ_PER_MINUTE: 20 } });
    try {
      const key = await freshKey(small);
      for (let i = 1; i <= 2; i++) expect(toolError((await rpc(small, key, call(i, 'search_topics', { q: 'will' }))).body)).toBeNull();
      for (let i = 3; i <= 6; i++) {
        const refused = await rpc(small, key, call(i, 'search_topics', { q: 'will' }));
        expect(toolError(refused.body as ToolReply)).toMatchObject({ code: 'RATE_LIMITED', details: { window: 'search_minute' } });
        expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
        expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(refused.headers.get('retry-after')).toBeNull();
      }
      // Two searches counted in the read window; the four refusals took nothing from it.
      const read = await small.get(`${V1}/me`, key);
      expect(read.headers.get('x-ratelimit-remaining')).toBe('17');
    } finally {
      await small.close();
    }
  });

  it('a body that cannot be parsed still counts as a request', async () => {
    const small = await startStack({ sandbox: stack.sandbox, env: { RATE_LIMIT_READ_PER_MINUTE: 2 } });
    try {
      const key = await freshKey(small);
      for (let i = 0; i < 2; i++) {
        const bad = await rpc(small, key, '{"jsonrpc": "2.0", "id": 1,');
        expect(bad.status).toBe(400);
        expect(bad.body.error.code).toBe(-32700);
      }
      const next = await rpc(small, key, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
      expect(next.status).toBe(429);
    } finally {
      await small.close();
    }
  });
});

describe('REST and MCP share every budget', () => {
  let small: Stack;
  beforeAll(async () => {
    small = await startStack({ sandbox: stack.sandbox, env: { RATE_LIMIT_READ_PER_MINUTE: 12, RATE_LIMIT_WRITE_PER_MINUTE: 3 } });
  });
  afterAll(async () => small.close());

  it('the read window: 8 REST reads, then a batch of 6 tool calls runs 4', async () => {
    const key = await freshKey(small);
    for (let i = 0; i < 8; i++) expect((await small.get(`${V1}/me`, key)).status).toBe(200);
    const r = await rpc(
      small,
      key,
      Array.from({ length: 6 }, (_, i) => call(i + 1, 'get_my_profile', {})),
    );
    const replies = r.body as ToolReply[];
    expect(replies.filter((x) => toolError(x) === null)).toHaveLength(4);
    expect(replies.map(toolError).filter((e) => e?.code === 'RATE_LIMITED')).toHaveLength(2);
    expect((await small.get(`${V1}/me`, key)).status).toBe(429);
  });

  it('the write window: 2 REST executions, then 2 MCP executions run 1', async () => {
    const key = await newWriteKey(small, USERS.alice);
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) {
      const p = await small.post(`${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, key, { content: `Shared window ${i}.` });
      tokens.push(p.body.confirm_token);
    }
    expect((await small.post(`${V1}/opinions`, key, { confirm_token: tokens[0] })).status).toBe(201);
    expect((await small.post(`${V1}/opinions`, key, { confirm_token: tokens[1] })).status).toBe(201);
    const r = await rpc(small, key, [
      call(1, 'publish_opinion', { confirm_token: tokens[2] }),
      call(2, 'publish_opinion', { confirm_token: tokens[3] }),
    ]);
    const replies = r.body as ToolReply[];
    expect(replies.filter((x) => toolError(x) === null)).toHaveLength(1);
    expect(replies.map(toolError).filter((e) => e?.code === 'RATE_LIMITED')).toHaveLength(1);
  });
});

describe('protocol faults are JSON-RPC errors', () => {
  it('tools/call with arguments that are not an object, or without params: -32602 naming the problem', async () => {
    const bad = await rpc(stack, KEYS.aliceRead, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_my_profile', arguments: [1] },
    });
    expect(bad.body.error.code).toBe(-32602);
    expect(bad.body.error.message).toMatch(/arguments must be an object/);
    const none = await rpc(stack, KEYS.aliceRead, { jsonrpc: '2.0', id: 2, method: 'tools/call' });
    expect(none.body.error.code).toBe(-32602);
    expect(none.body.error.message).toMatch(/params/);
    const nameless = await rpc(stack, KEYS.aliceRead, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } });
    expect(nameless.body.error.code).toBe(-32602);
    expect(nameless.body.error.message).toMatch(/params\.name/);
  });

  it('an unknown tool is -32602, echoing no more than a name could be', async () => {
    const r = await rpc(stack, KEYS.aliceRead, call(1, `x${'y'.repeat(5000)}`, {}));
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message.length).toBeLessThan(120);
  });

  it('a write tool called with a read key is FORBIDDEN_SCOPE naming the scope, as over REST', async () => {
    for (const [id, name, args] of [
      [2, 'place_order', { confirm_token: 'x' }],
      [3, 'preview_order', { topic_id: MARKETS.boosted, option_id: MARKETS.boosted, amount_coins: 10 }],
    ] as const) {
      const w = await rpc(stack, KEYS.aliceRead, call(id, name, args));
      expect(w.status).toBe(200);
      expect(toolError(w.body as ToolReply)).toMatchObject({ code: 'FORBIDDEN_SCOPE', details: { required_scope: 'write' } });
    }
    const rest = await stack.request('POST', `${V1}/orders`, { key: KEYS.aliceRead, body: { confirm_token: 'x' } });
    expect({ status: rest.status, body: rest.body }).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN_SCOPE', details: { required_scope: 'write' } } },
    });
  });

  it('a missing or mistyped id argument is INVALID_ARGUMENT naming it; a malformed id is not found', async () => {
    const missing = await rpc(stack, KEYS.aliceRead, call(1, 'get_topic', {}));
    expect(toolError(missing.body as ToolReply)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'topic_id is required.',
      details: { field: 'topic_id' },
    });
    const number = await rpc(stack, KEYS.aliceRead, call(2, 'get_topic', { topic_id: 5 }));
    expect(toolError(number.body as ToolReply)).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'topic_id' } });
    const malformed = await rpc(stack, KEYS.aliceRead, call(3, 'get_topic', { topic_id: 'nope' }));
    expect(toolError(malformed.body as ToolReply)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('an unknown argument is refused like an unknown REST field', async () => {
    const r = await rpc(stack, KEYS.aliceRead, call(1, 'get_my_profile', { bogus: 1 }));
    expect(toolError(r.body as ToolReply)).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'bogus' } });
    const rest = await stack.get(`${V1}/me?bogus=1`, KEYS.aliceRead);
    expect({ status: rest.status, code: rest.body.error.code, field: rest.body.error.details.field }).toEqual({
      status: 400,
      code: 'INVALID_ARGUMENT',
      field: 'bogus',
    });
    // `language` belongs to localised tools only.
    const lang = await rpc(stack, KEYS.aliceRead, call(2, 'get_my_profile', { language: 'ja' }));
    expect(toolError(lang.body as ToolReply)).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'language' } });
    // A localised tool names it among the arguments it knows.
    const topic = await rpc(stack, KEYS.aliceRead, call(3, 'get_topic', { topic_id: MARKETS.boosted, colour: 'red' }));
    expect(toolError(topic.body as ToolReply)?.message).toBe(
      'colour is not a known parameter; the known ones are: topic_id, type, language.',
    );
  });

  it('a parse error is -32700 and an unknown method -32601', async () => {
    const parse = await rpc(stack, KEYS.aliceRead, '{not json');
    expect({ status: parse.status, code: parse.body.error.code }).toEqual({ status: 400, code: -32700 });
    const method = await rpc(stack, KEYS.aliceRead, { jsonrpc: '2.0', id: 1, method: 'resources/list' });
    expect(method.body.error.code).toBe(-32601);
  });

  it('a request from an Origin not listed is 403 before authentication; listed ones and none pass', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    for (const key of [KEYS.aliceRead, '']) {
      const r = await rpc(stack, key, ping, { origin: 'http://evil.example' });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/Origin/) }, id: null });
    }
    expect((await rpc(stack, KEYS.aliceRead, ping)).status).toBe(200);
    const listed = await startStack({
      sandbox: stack.sandbox,
      env: { MCP_ALLOWED_ORIGINS: 'https://agent.example, http://127.0.0.1:3000' },
    });
    try {
      expect((await rpc(listed, KEYS.aliceRead, ping, { origin: 'https://agent.example' })).status).toBe(200);
      expect((await rpc(listed, KEYS.aliceRead, ping, { origin: 'http://127.0.0.1:3000' })).status).toBe(200);
      expect((await rpc(listed, KEYS.aliceRead, ping, { origin: 'https://agent.example.evil' })).status).toBe(403);
    } finally {
      await listed.close();
    }
  });

  it('every method but POST is 405, whatever the headers and body', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const r = await stack.request(method, '/mcp', { key: KEYS.aliceRead, headers: { 'content-type': 'application/json' } });
      expect({ method, status: r.status, allow: r.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST' });
    }
    const withBody = await stack.request('DELETE', '/mcp', { raw: '{bad', headers: { 'content-type': 'application/json' } });
    expect(withBody.status).toBe(405);
  });
});

describe('what an agent is told, and can find', () => {
  it('initialize returns instructions: the two-phase protocol, ids and language', async () => {
    const r = await rpc(stack, KEYS.aliceRead, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const { instructions, serverInfo } = r.body.result;
    expect(serverInfo).toEqual({ name: 'open-prediction-market', version: '2.1.0' });
    for (const must of ['preview_order', 'confirm_token', 'explicit confirmation', 'Never choose', 'language', 'zone']) {
      expect(instructions).toContain(must);
    }
  });

  it('zone slugs come from prediction cards, and list_topics filters by them', async () => {
    const listed = await rpc(stack, KEYS.aliceRead, call(1, 'list_topics', { limit: 50 }));
    const cards = (listed.body.result.structuredContent as { data: { zone: string | null }[] }).data;
    const zone = cards.map((c) => c.zone).find((z) => z !== null);
    expect(typeof zone).toBe('string');
    const filtered = await rpc(stack, KEYS.aliceRead, call(2, 'list_topics', { zone }));
    const inZone = (filtered.body.result.structuredContent as { data: { zone: string | null }[] }).data;
    expect(inZone.length).toBeGreaterThan(0);
    expect(inZone.every((c) => c.zone === zone)).toBe(true);
  });
});
