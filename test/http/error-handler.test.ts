import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/contract/common.ts';
import { ApiError } from '../../src/errors/api-error.ts';
import { installErrorHandling } from '../../src/http/error-handler.ts';

async function app() {
  const a = Fastify({ logger: false, bodyLimit: 16 * 1024 });
  installErrorHandling(a);
  a.get('/bug', async () => {
    throw new TypeError('cannot read properties of undefined (secret internals)');
  });
  a.get('/coded', async () => {
    throw new ApiError('OPINION_BACK_RETRY', { headers: { 'retry-after': '2' }, details: { retry_after: 2 } });
  });
  a.post('/echo', async (req) => req.body);
  a.get('/schema', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, async () => ({}));
  await a.ready();
  return a;
}

describe('error envelope for everything Fastify can raise', () => {
  it('turns a thrown bug into 500 INTERNAL with no stack or message leak', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/bug' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal error.' } });
    expect(res.body).not.toContain('secret');
  });

  it('sends an ApiError with its status, headers and details', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/coded' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json().error).toMatchObject({ code: 'OPINION_BACK_RETRY', details: { retry_after: 2 } });
  });

  it.each([
    ['unknown route', { method: 'GET' as const, url: '/nope' }, 404, 'NOT_FOUND', undefined],
    ['wrong method', { method: 'DELETE' as const, url: '/echo' }, 404, 'NOT_FOUND', undefined],
    [
      'bad JSON',
      { method: 'POST' as const, url: '/echo', payload: '{"a":', headers: { 'content-type': 'application/json' } },
      400,
      'INVALID_ARGUMENT',
      'body',
    ],
    [
      'empty JSON body',
      { method: 'POST' as const, url: '/echo', payload: '', headers: { 'content-type': 'application/json' } },
      400,
      'INVALID_ARGUMENT',
      'body',
    ],
    [
      'body over 16 KiB',
      {
        method: 'POST' as const,
        url: '/echo',
        payload: JSON.stringify({ a: 'x'.repeat(17_000) }),
        headers: { 'content-type': 'application/json' },
      },
      413,
      'INVALID_ARGUMENT',
      'body',
    ],
    [
      'unsupported media type',
      { method: 'POST' as const, url: '/echo', payload: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      400,
      'INVALID_ARGUMENT',
      'content-type',
    ],
    ['schema failure', { method: 'GET' as const, url: '/schema?n=abc' }, 400, 'INVALID_ARGUMENT', 'n'],
  ])('%s', async (_name, req, status, code, field) => {
    const res = await (await app()).inject(req);
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(body.error.code).toBe(code);
    expect(ERROR_CODES).toContain(body.error.code);
    expect(typeof body.error.message).toBe('string');
    if (field !== undefined) expect(body.error.details).toEqual({ field });
    expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});
