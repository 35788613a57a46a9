/**
 * Liveness and readiness (src/plugins/health.ts). Readiness turns 503 once the app starts
 * closing; inject() is refused from then on, so that case is checked over a real port, which
 * stays open while preClose hooks run.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import health from '../../src/plugins/health.ts';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('health plugin', () => {
  it("answers liveness, and readiness with the dependencies' states", async () => {
    app = Fastify({ logger: false });
    await app.register(health, { dependencies: async () => ({ redis: 'up' }) });
    expect((await app.inject({ method: 'GET', url: '/livez' })).json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', dependencies: { redis: 'up' } });
  });

  it('stays ready when reading the dependencies fails: they are information, not a condition', async () => {
    app = Fastify({ logger: false });
    await app.register(health, {
      dependencies: async () => {
        throw new Error('redis: connection refused');
      },
    });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', dependencies: {} });
  });

  it('answers 503 draining once the app starts closing, while the listener still serves', async () => {
    // As the app is built: requests that still arrive are served by their routes, not Fastify's own 503.
    const a = Fastify({ logger: false, return503OnClosing: false });
    await a.register(health);
    let during: { status: number; body: unknown } | undefined;
    // Runs after the plugin's own preClose hook, before the listener stops.
    a.addHook('preClose', async () => {
      const res = await fetch(`${url}/readyz`);
      during = { status: res.status, body: await res.json() };
    });
    await a.listen({ port: 0, host: '127.0.0.1' });
    const addr = a.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}`;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    await a.close();
    expect(during).toEqual({ status: 503, body: { status: 'draining', dependencies: {} } });
  });
});
