/**
 * Tracing and Server-Timing of a real gateway process (`node src/server.ts`, the embedded sandbox
 * as its backend, Redis for the limits), exporting OTLP/JSON to a receiver of this test's own:
 * the trace a REST client or an MCP client sends is continued, the backend call is a client span
 * whose `traceparent` reaches the backend, refusals carry the contract's code, log lines carry
 * the trace id, and no byte the receiver gets holds a key, a token or a secret.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genericMarketId, KEYS, outcomeId } from '../../sandbox/ids.ts';
import { recordsIn } from '../helpers/audit.ts';
import { type GatewayProcess, killAll, startGateway, within } from '../helpers/gateway-process.ts';

const CONFIRM_SECRET = 'tracing-confirm-secret-0123456789abcdef';
const CURSOR_SECRET = 'tracing-cursor-secret-0123';
const SERVICE_TOKEN = 'tracing-service-token-0123';
const PASTED_TOKEN = 'ct1.k1.cGF5bG9hZA.bWFj';
const BAGGAGE = 'caller-baggage-not-for-the-backend';

/** A trace id and parent span id per client request, as a caller's tracer would send them. */
const REST_TRACE = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parent: '00f067aa0ba902b7' };
const MCP_TRACE = { traceId: '0af7651916cd43dd8448eb211c80319c', parent: 'b7ad6b7169203331' };
const ERROR_TRACE = { traceId: '5d2a8b1f9c3e4a6b8d0f1e2c3b4a5968', parent: '1a2b3c4d5e6f7a8b' };
const traceparent = (t: { traceId: string; parent: string }) => `00-${t.traceId}-${t.parent}-01`;

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
  scope: string;
}

const UNDICI = '@opentelemetry/instrumentation-undici';
const SERVER = 2;
const CLIENT = 3;

/** Everything the receiver was sent, raw, and the spans decoded from it. */
const bodies: string[] = [];
function spans(): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  for (const body of bodies) {
    const doc = JSON.parse(body) as {
      resourceSpans: { scopeSpans: { scope: { name: string }; spans: Omit<OtlpSpan, 'scope'>[] }[] }[];
    };
    for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) out.push({ ...s, scope: ss.scope.name });
  }
  return out;
}
function attr(span: OtlpSpan, key: string): unknown {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v === undefined ? undefined : Object.values(v)[0];
}
/** Polls the receiver until `pick` finds what it looks for (never a fixed sleep). */
async function eventually<T>(pick: () => T | undefined): Promise<T> {
  let found: T | undefined;
  await within(30_000, async () => {
    found = pick();
    return found !== undefined;
  });
  return found as T;
}
/** Whether `span` descends from the span `ancestorId` within the trace. */
function descends(span: OtlpSpan, ancestorId: string, all: OtlpSpan[]): boolean {
  let at: OtlpSpan | undefined = span;
  for (let hops = 0; at !== undefined && hops < 20; hops += 1) {
    if (at.parentSpanId === ancestorId) return true;
    const parentId: string | undefined = at.parentSpanId;
    at = all.find((s) => s.spanId === parentId && s.traceId === span.traceId);
  }
  return false;
}

const SERVER_TIMING_RE = /^gw;dur=(\d+\.\d), upstream;dur=(\d+\.\d)$/;

let receiver: Server;
let gw: GatewayProcess;
let upstream: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  gw = await startGateway({
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'gateway-under-test',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `tracing-${process.pid}-${Date.now()}:`,
    CONFIRM_KEYS: `k1:${CONFIRM_SECRET}`,
    CURSOR_SECRET,
    UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
  });
  const embedded = (l: Record<string, unknown>) => l['msg'] === 'running against the built-in sandbox backend; demo keys follow';
  await within(10_000, async () => gw.logs.some(embedded));
  upstream = String(gw.logs.find(embedded)?.['upstream']);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await killAll();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function received(): Promise<{ traceparent: string; baggage?: string }[]> {
  const res = await fetch(`${upstream}/sandbox/admin/trace-context`, { headers: { 'x-service-token': SERVICE_TOKEN } });
  return ((await res.json()) as { data: { received: { traceparent: string; baggage?: string }[] } }).data.received;
}
async function receivedTraceparents(): Promise<string[]> {
  return (await received()).map((r) => r.traceparent);
}

describe('a REST read sent with a traceparent', () => {
  let serverTiming: string | null;
  beforeAll(async () => {
    const res = await fetch(`${gw.url}/open/v1/me`, {
      headers: { authorization: `Bearer ${KEYS.aliceRead}`, traceparent: traceparent(REST_TRACE), baggage: `user.note=${BAGGAGE}` },
    });
    expect(res.status).toBe(200);
    serverTiming = res.headers.get('server-timing');
  });

  it('is continued: HTTP server span, operation span, the limiter in Redis, the backend call as a client span', async () => {
    const all = await eventually(() => {
      const s = spans().filter((x) => x.traceId === REST_TRACE.traceId);
      return s.some((x) => x.scope === UNDICI && x.parentSpanId !== undefined) &&
        s.some((x) => attr(x, 'openpm.operation') === 'get_my_profile')
        ? s
        : undefined;
    });
    const httpSpan = all.find((s) => s.kind === SERVER && s.parentSpanId === REST_TRACE.parent);
    expect(httpSpan?.name).toBe('GET /open/v1/me');
    const op = all.find((s) => attr(s, 'openpm.operation') === 'get_my_profile');
    expect(op?.name).toBe('get_my_profile');
    expect(attr(op as OtlpSpan, 'openpm.key_id')).toMatch(/^key_/);
    expect(descends(op as OtlpSpan, httpSpan?.spanId ?? '-', all)).toBe(true);
    const backend = all.filter((s) => s.kind === CLIENT && s.scope === UNDICI);
    const profileCall = backend.find((s) => descends(s, op?.spanId ?? '-', all));
    expect(profileCall).toBeDefined();
    expect(all.some((s) => attr(s, 'db.system.name') === 'redis' && descends(s, op?.spanId ?? '-', all))).toBe(true);

    // The backend got the client span's own id as its parent: undici injected it.
    const sent = await receivedTraceparents();
    expect(sent).toContain(`00-${REST_TRACE.traceId}-${profileCall?.spanId}-01`);
    // The caller's baggage stays with the gateway.
    expect((await received()).filter((r) => r.baggage !== undefined)).toEqual([]);
  });

  it('answers Server-Timing with the gateway and the backend share', () => {
    const m = SERVER_TIMING_RE.exec(serverTiming ?? '');
    expect(m, String(serverTiming)).not.toBeNull();
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(0);
    expect(Number(m?.[2])).toBeGreaterThan(0);
  });

  it('logs the request with its trace id', async () => {
    await within(10_000, async () => gw.logs.some((l) => l['trace_id'] === REST_TRACE.traceId && l['msg'] === 'request completed'));
    const line = gw.logs.find((l) => l['trace_id'] === REST_TRACE.traceId && l['msg'] === 'request completed');
    expect(line?.['span_id']).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('an MCP tool call with a trace context in _meta', () => {
  let serverTiming: string | null;
  beforeAll(async () => {
    const res = await fetch(`${gw.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEYS.aliceRead}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_my_profile', arguments: {}, _meta: { traceparent: traceparent(MCP_TRACE) } },
      }),
    });
    expect(res.status).toBe(200);
    serverTiming = res.headers.get('server-timing');
  });

  it('runs as a tools/call server span of that trace, linked to the HTTP request that carried it', async () => {
    const all = await eventually(() => {
      const s = spans().filter((x) => x.traceId === MCP_TRACE.traceId);
      return s.some((x) => x.scope === UNDICI) && s.some((x) => x.name === 'tools/call get_my_profile') ? s : undefined;
    });
    const tool = all.find((s) => s.name === 'tools/call get_my_profile') as OtlpSpan;
    expect(tool.kind).toBe(SERVER);
    expect(tool.parentSpanId).toBe(MCP_TRACE.parent);
    expect(attr(tool, 'mcp.method.name')).toBe('tools/call');
    expect(attr(tool, 'gen_ai.tool.name')).toBe('get_my_profile');
    expect(attr(tool, 'mcp.session.id')).toBeUndefined();
    const link = tool.links?.[0];
    // The link names the span of the HTTP request (in a trace of its own: no traceparent header was sent).
    const carrier = await eventually(() => spans().find((s) => s.spanId === link?.spanId));
    expect(carrier.traceId).not.toBe(MCP_TRACE.traceId);
    expect(attr(carrier, 'http.route')).toBe('/mcp');
    const backend = all.find((s) => s.kind === CLIENT && s.scope === UNDICI && descends(s, tool.spanId, all));
    expect(backend).toBeDefined();
    expect(await receivedTraceparents()).toContain(`00-${MCP_TRACE.traceId}-${backend?.spanId}-01`);
  });

  it('answers Server-Timing on the MCP answer too', () => {
    expect(serverTiming).toMatch(SERVER_TIMING_RE);
  });
});

describe('a refused call', () => {
  it('carries the contract code on its operation span, status left UNSET for a 4xx', async () => {
    const res = await fetch(`${gw.url}/open/v1/me?confirm_token=${PASTED_TOKEN}&api_key=${KEYS.aliceWrite}`, {
      headers: { authorization: `Bearer ${KEYS.aliceRead}`, traceparent: traceparent(ERROR_TRACE) },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('server-timing')).toMatch(SERVER_TIMING_RE);
    const op = await eventually(() =>
      spans().find((s) => s.traceId === ERROR_TRACE.traceId && attr(s, 'openpm.operation') === 'get_my_profile'),
    );
    expect(attr(op, 'openpm.error.code')).toBe('INVALID_ARGUMENT');
    expect(attr(op, 'error.type')).toBe('INVALID_ARGUMENT');
    expect(op.status?.code ?? 0).toBe(0);
    const all = await eventually(() => {
      const s = spans().filter((x) => x.traceId === ERROR_TRACE.traceId);
      return s.some((x) => attr(x, 'url.query') !== undefined) ? s : undefined;
    });
    for (const s of all.filter((x) => x.kind === SERVER || x.scope === '@fastify/otel')) expect(s.status?.code ?? 0).toBe(0);
  });
});

describe('what the receiver got', () => {
  it('holds no API key, confirm token, cursor or configured secret, in any byte', async () => {
    await eventually(() =>
      spans().some((s) => s.traceId === ERROR_TRACE.traceId && attr(s, 'url.query') !== undefined) ? true : undefined,
    );
    const raw = bodies.join('\n');
    expect(raw.length).toBeGreaterThan(0);
    for (const secret of [KEYS.aliceRead, KEYS.aliceWrite, PASTED_TOKEN, CONFIRM_SECRET, CURSOR_SECRET, SERVICE_TOKEN, BAGGAGE]) {
      expect(raw).not.toContain(secret);
    }
    expect(raw).not.toMatch(/opk_(live|test)_|ct1\.|bearer /i);
    expect(raw).toContain('[redacted]');
  });

  it('names the service as configured', () => {
    expect(bodies[0]).toContain('gateway-under-test');
  });
});

describe('an order placed with no traceparent', () => {
  it('is audited under the trace the gateway started, the one its spans were exported in', async () => {
    const post = async (path: string, body: unknown) =>
      fetch(`${gw.url}/open/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.aliceWrite}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const topic = genericMarketId(3);
    const preview = (await (await post(`/topics/${topic}/order-preview`, { option_id: outcomeId(topic, 1), amount_coins: 5 })).json()) as {
      confirm_token: string;
    };
    const placed = await post('/orders', { confirm_token: preview.confirm_token });
    expect(placed.status).toBe(201);
    const requestId = placed.headers.get('x-request-id');
    await within(10_000, async () => recordsIn(gw.stdout()).some((r) => r.request_id === requestId));
    const record = recordsIn(gw.stdout()).find((r) => r.request_id === requestId);
    expect(record?.outcome).toBe('executed');
    expect(record?.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const span = await eventually(() => spans().find((s) => s.name === 'place_order' && s.traceId === record?.trace_id));
    expect(span.traceId).toBe(record?.trace_id);
  });
});

describe('a gateway without an exporter endpoint and with SERVER_TIMING=off', () => {
  it('answers without Server-Timing and logs without trace fields, a traceparent sent or not', async () => {
    const plain = await startGateway({ SERVER_TIMING: 'off' });
    try {
      const res = await fetch(`${plain.url}/open/v1/me`, {
        headers: { authorization: `Bearer ${KEYS.aliceRead}`, traceparent: traceparent(REST_TRACE) },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('server-timing')).toBeNull();
      const requestId = res.headers.get('x-request-id');
      await within(10_000, async () => plain.logs.some((l) => l['reqId'] === requestId && l['msg'] === 'request completed'));
      expect(plain.logs.filter((l) => 'trace_id' in l || 'span_id' in l)).toEqual([]);
    } finally {
      await plain.stop();
    }
  }, 60_000);
});
