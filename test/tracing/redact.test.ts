/** What leaves the process in a span (src/tracing/redact.ts, src/tracing/exporter.ts). */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { settleStatus } from '../../src/tracing/exporter.ts';
import { redactAttributes, redactSpan, redactTracedUrl } from '../../src/tracing/redact.ts';

const KEY = 'opk_test_alice_read_0000000000';
const TOKEN = 'ct1.k1.cGF5bG9hZA.bWFj';

function span(over: Partial<ReadableSpan> = {}): ReadableSpan {
  return {
    name: 'GET',
    kind: SpanKind.SERVER,
    spanContext: () => ({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 }),
    startTime: [1, 0],
    endTime: [2, 0],
    status: { code: SpanStatusCode.UNSET },
    attributes: {},
    links: [],
    events: [],
    duration: [1, 0],
    ended: true,
    resource: {} as ReadableSpan['resource'],
    instrumentationScope: { name: 'test' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    ...over,
  };
}

describe('URLs in spans', () => {
  it('lose keys and tokens in the path or the query, plain or encoded, and cursors', () => {
    expect(redactTracedUrl(`http://h/open/v1/me?api_key=${KEY}&limit=5`, 'url.full')).toBe(
      'http://h/open/v1/me?api_key=[redacted]&limit=5',
    );
    expect(redactTracedUrl(`/open/v1/${KEY}/x`, 'url.path')).toBe('/open/v1/[redacted]/x');
    expect(redactTracedUrl(`q=${encodeURIComponent(TOKEN)}`, 'url.query')).toBe('q=[redacted]');
    expect(redactTracedUrl('limit=2&cursor=c2VjcmV0LXBvc2l0aW9u', 'url.query')).toBe('limit=2&cursor=[redacted]');
    expect(redactTracedUrl('/internal/topics?next_cursor=abc&limit=2', 'http.target')).toBe(
      '/internal/topics?next_cursor=[redacted]&limit=2',
    );
    expect(redactTracedUrl('/open/v1/topics?limit=2', 'url.full')).toBe('/open/v1/topics?limit=2');
  });
});

describe('attributes', () => {
  it('drop credential headers and redact key-shaped text anywhere', () => {
    const out = redactAttributes({
      'http.request.header.authorization': [`Bearer ${KEY}`],
      'http.request.header.x-service-token': ['svc'],
      'http.request.header.accept': ['application/json'],
      'user_agent.original': `agent ${KEY}`,
      'url.query': `confirm_token=${TOKEN}`,
      'http.response.status_code': 200,
      tags: ['a', TOKEN],
    });
    expect(out).toEqual({
      'http.request.header.accept': ['application/json'],
      'user_agent.original': 'agent [redacted]',
      'url.query': 'confirm_token=[redacted]',
      'http.response.status_code': 200,
      tags: ['a', '[redacted]'],
    });
  });

  it('come back as the same object when nothing is secret (no copy per span)', () => {
    const clean = { 'url.path': '/open/v1/me', 'http.response.status_code': 200 };
    expect(redactAttributes(clean)).toBe(clean);
  });
});

describe('spans', () => {
  it('are scrubbed in name, attributes, events, links and status message', () => {
    const s = span({
      name: `GET /x/${KEY}`,
      attributes: { 'url.full': `http://h/?key=${KEY}` },
      events: [{ name: 'exception', time: [1, 0], attributes: { 'exception.message': `bad token ${TOKEN}` } }],
      links: [{ context: span().spanContext(), attributes: { note: KEY } }],
      status: { code: SpanStatusCode.ERROR, message: `refused ${KEY}` },
    });
    const out = redactSpan(s);
    const text = JSON.stringify({ ...out, spanContext: out.spanContext() });
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(TOKEN);
    expect(out.status).toEqual({ code: SpanStatusCode.ERROR, message: 'refused [redacted]' });
    expect(out.spanContext().spanId).toBe('00f067aa0ba902b7');
    expect(out.events[0]?.attributes?.['exception.message']).toBe('bad token [redacted]');
  });

  it('without anything secret are exported as they are', () => {
    const s = span({ attributes: { 'url.path': '/open/v1/me' } });
    expect(redactSpan(s)).toBe(s);
  });
});

describe('the status rule', () => {
  it('leaves a server-side span of a 4xx UNSET, keeps ERROR for a 5xx and on client spans', () => {
    const refused = span({ status: { code: SpanStatusCode.ERROR, message: 'x' }, attributes: { 'http.response.status_code': 404 } });
    expect(settleStatus(refused).status).toEqual({ code: SpanStatusCode.UNSET });
    expect(settleStatus(refused).spanContext().spanId).toBe('00f067aa0ba902b7');
    const failed = span({ status: { code: SpanStatusCode.ERROR }, attributes: { 'http.response.status_code': 502 } });
    expect(settleStatus(failed)).toBe(failed);
    const client = span({
      kind: SpanKind.CLIENT,
      status: { code: SpanStatusCode.ERROR },
      attributes: { 'http.response.status_code': 404 },
    });
    expect(settleStatus(client)).toBe(client);
  });
});
