/**
 * What the router and Node's HTTP parser refuse before any route runs still answers the
 * contract's envelope with a closed code and a documented status, and never echoes the request
 * (docs/contract/errors.md#request-errors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/contract/common.ts';
import { clientFaultError } from '../../src/errors/translate.ts';
import { buildOpenApi } from '../../src/surfaces/rest/openapi.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { KEYS, MARKETS, startStack, type Stack } from '../helpers/stack.ts';
import { rawExchange } from '../fuzz/raw-http.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await stack.close();
});

const V1 = '/open/v1';

function expectEnvelope(status: number, body: unknown, wanted: { status: number; code: string; field?: string }): void {
  const error = (body as { error?: { code?: string; message?: string; details?: { field?: string } } }).error;
  expect({ status, code: error?.code, field: error?.details?.field }).toEqual({
    status: wanted.status,
    code: wanted.code,
    field: wanted.field,
  });
  expect(ERROR_CODES).toContain(error?.code);
  expect(typeof error?.message).toBe('string');
}

describe('faults the router meets before routing', () => {
  it('a path segment over 200 characters is 414 INVALID_ARGUMENT, the path not echoed', async () => {
    const long = 'q'.repeat(300);
    const r = await stack.get(`${V1}/topics/${long}`, KEYS.aliceRead);
    expectEnvelope(r.status, r.body, { status: 414, code: 'INVALID_ARGUMENT', field: 'path' });
    expect(JSON.stringify(r.body)).not.toContain('qqqqqqqqqq');
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });

  it('a path that is not validly percent-encoded is 400 INVALID_ARGUMENT', async () => {
    const r = await stack.get(`${V1}/topics/%zz`, KEYS.aliceRead);
    expectEnvelope(r.status, r.body, { status: 400, code: 'INVALID_ARGUMENT', field: 'path' });
    expect(JSON.stringify(r.body)).not.toContain('%zz');
  });

  it('an empty path id is 404 NOT_FOUND, not the list', async () => {
    for (const path of [`${V1}/topics/`, `${V1}/topics/${MARKETS.aliceOpen}/opinions/`, `${V1}//topics`]) {
      const r = await stack.get(path, KEYS.aliceRead);
      expectEnvelope(r.status, r.body, { status: 404, code: 'NOT_FOUND' });
    }
  });

  it('an absolute-form request target is served like its path (RFC 9112 asks servers to accept it)', async () => {
    const { host } = new URL(stack.url);
    const r = await rawExchange(
      stack.url,
      `GET http://${host}${V1}/topic-categories HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEYS.aliceRead}\r\nConnection: close\r\n\r\n`,
    );
    expect(r.status).toBe(200);
    expect((JSON.parse(r.body) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('an unknown route is 404 NOT_FOUND without the path in the message', async () => {
    const marker = `nosuchroute${'z'.repeat(150)}`;
    const r = await stack.get(`${V1}/${marker}`, KEYS.aliceRead);
    expectEnvelope(r.status, r.body, { status: 404, code: 'NOT_FOUND' });
    expect(JSON.stringify(r.body)).not.toContain('nosuchroute');
  });
});

describe("bytes Node's HTTP parser refuses (clientError)", () => {
  const cases: [string, string, number, string][] = [
    ['headers over 16 KiB', `GET ${V1}/me HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\n`, 431, 'headers'],
    ['a space in the path', `GET ${V1}/to pics HTTP/1.1\r\nHost: x\r\n\r\n`, 400, 'request'],
    ['a NUL in a header name', `GET ${V1}/me HTTP/1.1\r\nHost: x\r\nX\u0000Y: 1\r\n\r\n`, 400, 'request'],
    [
      'both Content-Length and Transfer-Encoding',
      `POST ${V1}/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      'request',
    ],
    ['not HTTP at all', 'HELLO\r\n\r\n', 400, 'request'],
  ];
  it.each(cases)('%s: the envelope, written raw, and the connection closed', async (_name, bytes, status, field) => {
    const r = await rawExchange(stack.url, bytes);
    expect(r.status).toBe(status);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['connection']).toBe('close');
    expectEnvelope(r.status ?? 0, JSON.parse(r.body), { status, code: 'INVALID_ARGUMENT', field });
    expect(r.body).not.toContain('ppppp');
  });

  it('a request timeout is 408, as the OpenAPI document shows it', () => {
    const err = Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    const apiError = clientFaultError(err);
    expect(apiError?.status).toBe(408);
    const doc = buildOpenApi(OPERATIONS) as { components: { responses: Record<string, any> } };
    const example = doc.components.responses['RequestTimeout'].content['application/json'].examples.request_timeout.value;
    expect(apiError?.toEnvelope()).toEqual(example);
  });

  it('a body never finished is 408 INVALID_ARGUMENT after REQUEST_TIMEOUT_MS, and its connection closed', async () => {
    const slow = await startStack({ sandbox: stack.sandbox, env: { RATE_LIMITS: 'off', REQUEST_TIMEOUT_MS: 1000 } });
    try {
      const head = `POST ${V1}/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.aliceWrite}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{`;
      // The client would wait 10 s; the 408 is the gateway's own request timeout.
      const r = await rawExchange(slow.url, head, 10_000);
      expect(r.status).toBe(408);
      expect(r.headers['connection']).toBe('close');
      expectEnvelope(r.status ?? 0, JSON.parse(r.body), { status: 408, code: 'INVALID_ARGUMENT', field: 'request' });
    } finally {
      await slow.close();
    }
  });

  it('a reset connection gets no answer', () => {
    expect(clientFaultError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBeNull();
  });
});

describe('the OpenAPI document', () => {
  it('lists 408, 414 and 431 on every operation, and 413 on every write', () => {
    const doc = buildOpenApi(OPERATIONS) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown }>>;
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const status of ['400', '408', '414', '431']) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
        if (method === 'post') expect(op.responses['413'], `${method} ${path} 413`).toBeDefined();
      }
    }
  });
});
