/** The request-id plugin (src/plugins/request-id.ts), through inject(). */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { genReqId } from '../../src/http/request-id.ts';
import requestId from '../../src/plugins/request-id.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

async function boot() {
  const a = Fastify({ logger: false, genReqId });
  app = a;
  await a.register(requestId);
  // Registered after the plugin, in a child scope: the hook must still cover it.
  await a.register(async (child) => {
    child.get('/child', async (request) => ({ id: request.id }));
  });
  return a;
}

describe('request-id plugin', () => {
  it('echoes the id Fastify gave the request, on routes of child scopes too', async () => {
    const a = await boot();
    const res = await a.inject({ method: 'GET', url: '/child' });
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.headers['x-request-id']).toBe(res.json().id);
  });

  it('keeps a sane incoming X-Request-Id, and replaces one that is not', async () => {
    const a = await boot();
    const kept = await a.inject({ method: 'GET', url: '/child', headers: { 'x-request-id': 'ingress-42.a:b' } });
    expect(kept.headers['x-request-id']).toBe('ingress-42.a:b');
    const replaced = await a.inject({ method: 'GET', url: '/child', headers: { 'x-request-id': 'has spaces\tand tabs' } });
    expect(replaced.headers['x-request-id']).toMatch(UUID);
    // A key or a confirm token would be echoed, logged and sent to the backend as it is.
    for (const secret of ['opk_test_bob_write_00000000000', 'ct1.k1.cGF5bG9hZA.bWFj']) {
      const res = await a.inject({ method: 'GET', url: '/child', headers: { 'x-request-id': secret } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('echoes the id on answers no route made (404)', async () => {
    const a = await boot();
    const res = await a.inject({ method: 'GET', url: '/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });
});
