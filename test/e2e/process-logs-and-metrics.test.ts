/**
 * What a real gateway process writes and exposes (docs/operations.md, "Logs", "Admin server and
 * metrics"): JSON log lines that carry the request id and never a raw key or a confirm token;
 * Prometheus metrics on the admin port with route, status and surface labels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_SCHEMA } from '../../src/audit/record.ts';
import { genericMarketId, KEYS, outcomeId } from '../../sandbox/ids.ts';
import { startGateway, useFleet, within, type GatewayProcess } from '../helpers/gateway-process.ts';

const fleet = useFleet('ops-logs');
const UNKNOWN_KEY = 'opk_test_nobody_00000000000000';
let gw: GatewayProcess;
let confirmToken = '';

beforeAll(async () => {
  gw = await startGateway(fleet.env({ RATE_LIMITS: 'off' }));
}, 30_000);

afterAll(async () => {
  if (gw !== undefined) await gw.stop();
});

async function call(method: string, path: string, key?: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${gw.url}${path}`, {
    method,
    headers: {
      ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as any) };
}
const mcp = (key: string, body: unknown) => call('POST', '/mcp', key, body, { accept: 'application/json, text/event-stream' });

describe('a replica serving keyed traffic', () => {
  it('answers reads, MCP, an unknown key and a confirmed write', async () => {
    expect((await call('GET', '/open/v1/topic-categories', KEYS.aliceRead)).status).toBe(200);
    expect((await call('GET', '/open/v1/topic-categories', KEYS.aliceRead, undefined, { 'x-request-id': 'ops-trace-0001' })).status).toBe(
      200,
    );
    expect((await call('GET', '/open/v1/me', KEYS.aliceRead)).status).toBe(200);
    expect((await call('GET', '/open/v1/me', UNKNOWN_KEY)).status).toBe(401);
    expect((await mcp(KEYS.aliceRead, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).status).toBe(200);

    const topic = genericMarketId(0);
    const preview = await call('POST', `/open/v1/topics/${topic}/order-preview`, KEYS.aliceWrite, {
      option_id: outcomeId(topic, 1),
      amount_coins: 10,
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    confirmToken = preview.body.confirm_token;
    expect(typeof confirmToken).toBe('string');
    expect(confirmToken.length).toBeGreaterThan(20);

    const order = await call('POST', '/open/v1/orders', KEYS.aliceWrite, { confirm_token: confirmToken });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    // The same token over MCP: a replay, with the token in a JSON-RPC body this time.
    const replay = await mcp(KEYS.aliceWrite, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'place_order', arguments: { confirm_token: confirmToken } },
    });
    expect(replay.status).toBe(200);
    // A forged token in a body that fails: the error path must not log it either.
    expect((await call('POST', '/open/v1/orders', KEYS.aliceWrite, { confirm_token: `${confirmToken}x` })).status).toBe(400);
  });

  it('logs JSON lines with the request id and never a raw key or a confirm token', async () => {
    // Let the last lines arrive.
    await within(2_000, async () => gw.logs.filter((l) => l['msg'] === 'request completed').length >= 9);
    const out = gw.stdout() + gw.stderr();
    expect(out).not.toContain('opk_');
    for (const key of [KEYS.aliceRead, KEYS.aliceWrite, UNKNOWN_KEY]) expect(out).not.toContain(key);
    expect(confirmToken).not.toBe('');
    expect(out).not.toContain(confirmToken);
    // Nor any distinctive part of it (a signature or payload segment).
    for (const part of confirmToken.split('.').filter((p) => p.length >= 16)) expect(out).not.toContain(part);

    // Every line is JSON.
    const lines = gw
      .stdout()
      .split('\n')
      .filter((l) => l.trim() !== '');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();

    // Every line written while serving traffic names its request (process-level lines aside).
    const start = gw.logs.findIndex((l) => l['msg'] === 'gateway listening');
    const processLevel = /kill switch|redis|shutting down|^shut down$/i;
    // Audit records share stdout (docs/audit.md): they name their request as `request_id`.
    const isAudit = (l: Record<string, unknown>) => l['schema'] === AUDIT_SCHEMA;
    const requestLines = gw.logs.slice(start + 1).filter((l) => !processLevel.test(String(l['msg'])) && !isAudit(l));
    expect(requestLines.length).toBeGreaterThanOrEqual(9);
    for (const l of requestLines) expect(typeof l['reqId'], JSON.stringify(l)).toBe('string');
    for (const l of gw.logs.filter(isAudit)) expect(typeof l['request_id'], JSON.stringify(l)).toBe('string');
    // A caller's X-Request-Id is kept; at info a request leaves one line, with the request and its answer.
    const traced = gw.logs.filter((l) => l['reqId'] === 'ops-trace-0001');
    expect(traced.map((l) => l['msg'])).toEqual(['request completed']);
    expect(traced[0]).toMatchObject({
      req: { method: 'GET', url: '/open/v1/topic-categories' },
      res: { statusCode: expect.any(Number) },
      responseTime: expect.any(Number),
    });
    // The Authorization header is not logged at all (and redacted if it ever were).
    for (const l of requestLines) expect(JSON.stringify(l)).not.toMatch(/authorization/i);
  });

  it('exposes Prometheus metrics on the admin port with route, status and surface', async () => {
    const res = await fetch(`${gw.adminUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('# TYPE openpm_requests_total counter');
    expect(text).toMatch(/^openpm_requests_total\{route="\/open\/v1\/topic-categories",method="GET",status="200",surface="rest"\} 2$/m);
    expect(text).toMatch(/^openpm_requests_total\{route="\/open\/v1\/me",method="GET",status="401",surface="rest"\} 1$/m);
    expect(text).toMatch(/^openpm_requests_total\{route="\/mcp",method="POST",status="200",surface="mcp"\} \d+$/m);
    expect(text).toMatch(/^openpm_requests_total\{route="\/open\/v1\/orders",method="POST",status="201",surface="rest"\} 1$/m);
    expect(text).toContain('openpm_request_duration_seconds_bucket');
    expect(text).toContain('openpm_upstream_request_duration_seconds_bucket');
    expect(text).toContain('process_cpu_user_seconds_total');
    // No key ever becomes a label.
    expect(text).not.toContain('opk_');
  });
});
