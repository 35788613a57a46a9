/**
 * What the logs of a whole run hold (src/http/logging.ts; docs/operations.md, "Logs"): the stack
 * boots with the real logger options at `trace`, writing to a stream, and serves reads and writes
 * with keys in headers and in query strings, cookies and confirm tokens, over REST and MCP. No
 * key (`opk_…`) and no confirm token (`ct1.…`) may appear in any line, at any level; and an
 * unknown or revoked key, a client's mistake, is never logged as an error.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { configFrom } from '../../src/config.ts';
import { loggerOptions } from '../../src/http/logging.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { KEYS, SERVICE_TOKEN, TEST_CONFIRM_KEYS } from '../helpers/stack.ts';
import { mcpClient } from '../helpers/mcp.ts';

const lines: string[] = [];
let sandbox: Sandbox;
let app: FastifyInstance;
let base: string;

const KEY_SHAPE = /opk_/;
const TOKEN_SHAPE = /ct1\.[A-Za-z0-9_-]+\./;
const UNKNOWN_KEY = 'opk_test_nobody_has_this_key_0000';

beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
  const config = configFrom({
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
    LOG_LEVEL: 'trace',
    CONFIRM_KEYS: TEST_CONFIRM_KEYS,
    RATE_LIMITS: 'off',
  });
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  app = await buildApp(config, { logger: loggerOptions(config, stream) });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  await exercise();
}, 60_000);
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

async function call(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Reads and writes the way clients send secrets, right and wrong. */
async function exercise(): Promise<void> {
  const write = bearer(KEYS.aliceWrite);
  expect(
    (await call('GET', '/open/v1/topic-categories', { ...bearer(KEYS.aliceRead), cookie: 'session=opk_live_cookie_value_00000000' }))
      .status,
  ).toBe(200);
  for (const name of ['api_key', 'key', 'token', 'access_token']) {
    expect((await call('GET', `/open/v1/topic-categories?limit=2&${name}=${KEYS.aliceRead}`)).status).toBe(401);
  }
  // An unknown query parameter is refused (strict input), after the key was checked.
  expect((await call('GET', `/open/v1/topics?api_key=${KEYS.aliceRead}&limit=2`, bearer(KEYS.aliceRead))).status).toBe(400);
  expect((await call('GET', `/open/v1/no-such-route?api_key=${KEYS.aliceRead}`, bearer(KEYS.aliceRead))).status).toBe(404);
  expect((await call('GET', '/open/v1/me', bearer(UNKNOWN_KEY))).status).toBe(401);
  expect((await call('GET', '/open/v1/me', bearer(KEYS.carolRevoked))).status).toBe(401);

  const topic = genericMarketId(4);
  const preview = await call('POST', `/open/v1/topics/${topic}/order-preview`, write, { option_id: outcomeId(topic, 1), amount_coins: 15 });
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  const token = preview.body.confirm_token as string;
  expect(token).toMatch(TOKEN_SHAPE);
  expect((await call('POST', '/open/v1/orders', write, { confirm_token: token })).status).toBe(201);
  expect((await call('POST', '/open/v1/orders', write, { confirm_token: token })).status).toBe(200);
  expect((await call('POST', `/open/v1/orders?confirm_token=${token}`, write, { confirm_token: `${token}x` })).status).toBe(400);
  expect((await call('POST', '/open/v1/orders', write, { confirm_token: token, extra: KEYS.aliceWrite })).status).toBe(400);

  const mcp = await mcpClient(base, KEYS.aliceWrite);
  const topic2 = genericMarketId(5);
  const p = await mcp.callTool({
    name: 'preview_order',
    arguments: { topic_id: topic2, option_id: outcomeId(topic2, 1), amount_coins: 5 },
  });
  const mcpToken = (p.structuredContent as { confirm_token: string }).confirm_token;
  const placed = await mcp.callTool({ name: 'place_order', arguments: { confirm_token: mcpToken } });
  expect(placed.isError ?? false).toBe(false);
  await mcp.callTool({ name: 'place_order', arguments: { confirm_token: `${mcpToken}0` } });
  await mcp.close();
}

describe('a whole run of logs', () => {
  it('logged the requests, their URLs redacted', () => {
    expect(lines.length).toBeGreaterThan(30);
    const urls = lines.map((l) => JSON.parse(l) as { req?: { url?: string } }).flatMap((r) => (r.req?.url ? [r.req.url] : []));
    expect(urls).toContain('/open/v1/topic-categories?limit=2&api_key=[redacted]');
    expect(urls).toContain('/open/v1/topic-categories?limit=2&access_token=[redacted]');
    expect(urls.some((u) => u.startsWith('/open/v1/orders?confirm_token=[redacted]'))).toBe(true);
  });

  it('holds no key, no confirm token and no cookie, at any level', () => {
    const leaks = lines.filter((l) => KEY_SHAPE.test(l) || TOKEN_SHAPE.test(l) || l.includes('session='));
    expect(leaks).toEqual([]);
  });

  it('logs an unknown or revoked key as a client mistake, never as an error', () => {
    const records = lines.map((l) => JSON.parse(l) as { level: number; msg?: string; reason?: string });
    const refused = records.filter((r) => r.msg === 'authentication refused');
    expect(refused.length).toBeGreaterThanOrEqual(6);
    expect(refused.every((r) => r.level === 30)).toBe(true);
    const upstream = records.filter((r) => r.msg === 'upstream error');
    expect(upstream.length).toBeGreaterThanOrEqual(1);
    expect(upstream.every((r) => r.level <= 30)).toBe(true);
    expect(records.filter((r) => r.level >= 50)).toEqual([]);
  });
});
