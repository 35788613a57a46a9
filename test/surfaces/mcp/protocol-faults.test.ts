/**
 * Protocol faults on /mcp, over real HTTP with limits on (docs/mcp.md#results-and-errors):
 * requests refused before any message runs still count and carry the X-RateLimit-* headers, or
 * are the 429 past the limit, as over REST; JSON-RPC batches are answered with arrays, and those
 * that cannot be answered one for one are refused as a whole before anything is counted; a
 * malformed `initialize` is a readable -32602.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, USERS, startStack, type Reply, type Stack } from '../../helpers/stack.ts';

const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** The read window of this file's gateway: small, so a test can run past it. */
const READS = 20;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMIT_READ_PER_MINUTE: READS } });
});
afterAll(async () => stack.close());

let keys = 0;
const OWNERS = [USERS.erin, USERS.frank, USERS.grace, USERS.heidi, USERS.ivan, USERS.judy, USERS.kim, USERS.leo];
/** A key of its own per test, so each starts with an untouched read window. */
async function freshKey(): Promise<string> {
  const userId = OWNERS[keys++ % OWNERS.length];
  return (await stack.admin('POST', '/keys', { userId, scopes: ['READ'] })).key as string;
}

function rpc(key: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return stack.request('POST', '/mcp', {
    key,
    raw: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { ...ACCEPT, ...headers },
  });
}

/** Reads left in the key's window, as a counted REST read reports them, after that read. */
async function readsLeftAfterOne(key: string): Promise<number> {
  return Number((await stack.get('/open/v1/topic-categories', key)).headers.get('x-ratelimit-remaining'));
}

const ping = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'ping' });
const profile = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_my_profile', arguments: {} } });

/** Spends all but `left` reads of the key's window with REST reads. */
async function spendTo(key: string, left: number): Promise<void> {
  for (let i = 0; i < READS - left; i++) expect((await stack.get('/open/v1/topic-categories', key)).status).toBe(200);
}

function expectRateLimited(r: Reply): void {
  expect(r.status).toBe(429);
  expect(r.body.error.code).toBe('RATE_LIMITED');
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(r.body.error.details.retry_after).toBe(retryAfter);
  expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
}

describe('a request refused before any message runs counts once, as over REST', () => {
  it('a body that is not JSON answers -32700 with the X-RateLimit-* headers, and past the window the 429', async () => {
    const key = await freshKey();
    await spendTo(key, 2);
    for (const left of ['1', '0']) {
      const bad = await rpc(key, '{bad');
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe(-32700);
      expect({ limit: bad.headers.get('x-ratelimit-limit'), left: bad.headers.get('x-ratelimit-remaining') }).toEqual({
        limit: String(READS),
        left,
      });
    }
    expectRateLimited(await rpc(key, '{bad'));
  });

  it('a tool call the SDK transport refuses (no event-stream in Accept) counts once, and past the window is the 429', async () => {
    const key = await freshKey();
    await spendTo(key, 1);
    const refused = await rpc(key, profile(1), { accept: 'application/json' });
    expect(refused.status).toBe(406);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expectRateLimited(await rpc(key, profile(2), { accept: 'application/json' }));
  });
});

describe('an unsupported MCP-Protocol-Version', () => {
  it('is refused naming the supported versions, quoting the header only when it is date-shaped', async () => {
    const key = await freshKey();
    const long = await rpc(key, ping(1), { 'mcp-protocol-version': `<script>${'A'.repeat(3_000)}` });
    expect(long.status).toBe(400);
    const text = JSON.stringify(long.body);
    expect(text.length).toBeLessThan(400);
    expect(text).not.toContain('AAAA');
    expect(text).not.toContain('<script>');
    expect(long.body.error.message).toContain('supported versions');
    const dated = await rpc(key, ping(2), { 'mcp-protocol-version': '1999-01-01' });
    expect(dated.status).toBe(400);
    expect(dated.body.error.message).toContain('1999-01-01');
  });
});

describe('JSON-RPC batches', () => {
  it('answers a batch of one request with an array of one answer', async () => {
    const r = await rpc(KEYS.aliceRead, [ping(1)]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('answers a batch of one request and a notification, or of one tool call, with an array too', async () => {
    const withNote = await rpc(KEYS.aliceRead, [ping(1), { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect(withNote.body).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    const call = await rpc(KEYS.aliceRead, [profile('p')]);
    expect(Array.isArray(call.body)).toBe(true);
    expect(call.body).toHaveLength(1);
    expect(call.body[0]).toMatchObject({ jsonrpc: '2.0', id: 'p', result: { structuredContent: { handle: 'alice' } } });
  });

  it('keeps a bare answer for a message that is not a batch', async () => {
    const r = await rpc(KEYS.aliceRead, ping(1));
    expect(r.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('refuses an empty batch with one -32600 Invalid Request, id null, counted as one read', async () => {
    const key = await freshKey();
    const r = await rpc(key, []);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) }, id: null });
    expect(r.headers.get('x-ratelimit-remaining')).toBe(String(READS - 1));
  });

  it('refuses a batch in which two requests share an id, running and counting none of them', async () => {
    const key = await freshKey();
    const r = await rpc(key, [profile(7), ping(8), ping(7)]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringMatching(/id/) }, id: null });
    // The refusal itself is the one read spent: neither the ping nor the tool call was counted.
    expect(r.headers.get('x-ratelimit-remaining')).toBe(String(READS - 1));
    expect(await readsLeftAfterOne(key)).toBe(READS - 2);
  });

  it('answers each of two requests whose ids differ only in type (1 and "1")', async () => {
    const r = await rpc(KEYS.aliceRead, [ping(1), ping('1')]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: '1', result: {} },
    ]);
  });

  it('refuses a batch over 100 messages before counting its messages', async () => {
    const key = await freshKey();
    const r = await rpc(
      key,
      Array.from({ length: 101 }, (_, i) => ping(i)),
    );
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32600);
    expect(r.headers.get('x-ratelimit-remaining')).toBe(String(READS - 1));
  });

  it('past the read window, refuses an empty batch with the 429', async () => {
    const key = await freshKey();
    await spendTo(key, 0);
    expectRateLimited(await rpc(key, []));
  });
});

describe('a malformed initialize', () => {
  const initialize = (params?: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'initialize', ...(params === undefined ? {} : { params }) });
  const good = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } };

  it.each([
    ['params missing', initialize(), 'params'],
    ['params empty', initialize({}), 'params.protocolVersion'],
    ['clientInfo without version', initialize({ ...good, clientInfo: { name: 't' } }), 'params.clientInfo.version'],
    ['capabilities not an object', initialize({ ...good, capabilities: 'all' }), 'params.capabilities'],
  ])('%s: -32602 naming what is wrong, in words, not a schema dump', async (_case, body, path) => {
    const r = await rpc(KEYS.aliceRead, body);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
    const message = r.body.error.message as string;
    expect(message).toContain(`Invalid params: ${path} is missing or malformed`);
    expect(message).toContain('protocolVersion, capabilities, clientInfo');
    expect(message).not.toMatch(/invalid_type|expected|\n|\[/);
    expect(message.length).toBeLessThan(200);
  });

  it('is answered in a batch as well, and a well-formed initialize still succeeds', async () => {
    const batch = await rpc(KEYS.aliceRead, [initialize({})]);
    expect(batch.body).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.stringContaining('Invalid params') } }]);
    const ok = await rpc(KEYS.aliceRead, initialize(good));
    expect(ok.body.result.serverInfo).toEqual({ name: 'open-prediction-market', version: '2.1.0' });
  });
});

describe('revisions without batches', () => {
  it.each(['2025-06-18', '2025-11-25'])('%s: an array is refused with -32600, id null, HTTP 400, nothing run', async (version) => {
    const key = await freshKey();
    const r = await rpc(key, [profile(1), ping(2)], { 'mcp-protocol-version': version });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining(version) }, id: null });
    expect(r.headers.get('x-ratelimit-remaining')).toBe(String(READS - 1));
  });

  it('2026-07-28: an array is refused the same way', async () => {
    const r = await rpc(KEYS.aliceRead, [modern('tools/list', 1)], { 'mcp-protocol-version': '2026-07-28' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
  });
});

/** A 2026-07-28 request: the per-request `_meta` envelope, and the headers it requires. */
function modern(method: string, id: number, params: Record<string, unknown> = {}, capabilities: Record<string, unknown> = {}) {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  };
}
const MODERN = { 'mcp-protocol-version': '2026-07-28' };

describe('the 2026-07-28 revision', () => {
  it('answers server/discover with the revision, the capabilities, the instructions and caching hints', async () => {
    const r = await rpc(await freshKey(), modern('server/discover', 1), { ...MODERN, 'mcp-method': 'server/discover' });
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: false } },
      resultType: 'complete',
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'open-prediction-market', version: '2.1.0' } },
    });
    expect(r.body.result.instructions).toContain('preview_order');
    expect(r.body.result.ttlMs).toBeGreaterThan(0);
  });

  it('answers tools/list with a private caching hint (the list depends on the key)', async () => {
    const r = await rpc(await freshKey(), modern('tools/list', 1), { ...MODERN, 'mcp-method': 'tools/list' });
    expect(r.body.result.tools).toHaveLength(12);
    expect(r.body.result).toMatchObject({ resultType: 'complete', cacheScope: 'private' });
    expect(r.body.result.ttlMs).toBeGreaterThan(0);
  });

  it('answers a tool call with the REST JSON, resultType complete', async () => {
    const key = await freshKey();
    const r = await rpc(key, modern('tools/call', 1, { name: 'get_my_profile', arguments: {} }), {
      ...MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'get_my_profile',
    });
    const rest = await stack.get('/open/v1/me', key);
    expect(r.body.result.structuredContent).toEqual(rest.body);
    expect(r.body.result.resultType).toBe('complete');
  });

  it.each([
    ['no Mcp-Method header', MODERN, modern('tools/list', 1)],
    ['Mcp-Method naming another method', { ...MODERN, 'mcp-method': 'tools/call' }, modern('tools/list', 1)],
    [
      'no Mcp-Name on a tools/call',
      { ...MODERN, 'mcp-method': 'tools/call' },
      modern('tools/call', 1, { name: 'get_my_profile', arguments: {} }),
    ],
    [
      'Mcp-Name naming another tool',
      { ...MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'get_topic' },
      modern('tools/call', 1, { name: 'get_my_profile', arguments: {} }),
    ],
    ['no MCP-Protocol-Version header', { 'mcp-method': 'tools/list' }, modern('tools/list', 1)],
  ])('%s: HTTP 400, -32020 header mismatch, nothing run', async (_case, headers, body) => {
    const key = await freshKey();
    const r = await rpc(key, body, headers);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32020 } });
    expect(r.headers.get('x-ratelimit-remaining')).toBe(String(READS - 1));
  });

  it('refuses an envelope naming an unsupported revision with -32022 and the supported list', async () => {
    const body = modern('tools/list', 1);
    body.params._meta['io.modelcontextprotocol/protocolVersion'] = '2027-01-01';
    const r = await rpc(await freshKey(), body, { 'mcp-method': 'tools/list' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: -32022, data: { requested: '2027-01-01', supported: ['2026-07-28'] } });
  });

  it('refuses a 2026-07-28 header on a request without the envelope (-32602)', async () => {
    const r = await rpc(await freshKey(), { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...MODERN, 'mcp-method': 'tools/list' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32602);
  });

  it('answers an unknown method -32601 with HTTP 404, and has no initialize', async () => {
    const r = await rpc(await freshKey(), modern('resources/list', 1), { ...MODERN, 'mcp-method': 'resources/list' });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe(-32601);
  });

  it('accepts a notification with 202 and no body', async () => {
    const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, ...modern('x', 0).params } };
    const r = await rpc(await freshKey(), note, { ...MODERN, 'mcp-method': 'notifications/cancelled' });
    expect(r.status).toBe(202);
    expect(r.body === undefined || r.body === null || r.body === '').toBe(true);
  });
});
