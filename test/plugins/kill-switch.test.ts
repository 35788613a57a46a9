/**
 * The kill-switch gate (src/plugins/kill-switch.ts), through inject(): fully on, it refuses
 * both public surfaces with 503 SERVICE_DISABLED before any handler runs, and nothing else.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/error-handler.ts';
import type { KillMode } from '../../src/killswitch/kill-switch.ts';
import killSwitchGate from '../../src/plugins/kill-switch.ts';

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

async function boot(mode: { value: KillMode }) {
  const handled: string[] = [];
  const a = Fastify({ logger: false });
  app = a;
  installErrorHandling(a);
  await a.register(killSwitchGate, { killSwitch: { current: () => ({ mode: mode.value, by: 'test', reason: 'test', at: null }) } });
  for (const url of ['/open/v1/topics', '/mcp', '/livez', '/openapi.json']) {
    a.route({
      method: url === '/mcp' ? 'POST' : 'GET',
      url,
      handler: async () => {
        handled.push(url);
        return { ok: true };
      },
    });
  }
  return { app: a, handled };
}

describe('kill-switch gate', () => {
  it('refuses /open/v1 and /mcp with the contract envelope while fully on, running no handler', async () => {
    const { app: a, handled } = await boot({ value: 'all' });
    for (const [method, url] of [
      ['GET', '/open/v1/topics'],
      ['POST', '/mcp'],
      ['GET', '/open/v1/no-such-route'],
    ] as const) {
      const res = await a.inject({ method, url });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: { code: 'SERVICE_DISABLED', message: 'The service is temporarily disabled.' } });
    }
    expect(handled).toEqual([]);
  });

  it('lets health and the API reference answer while fully on', async () => {
    const { app: a } = await boot({ value: 'all' });
    expect((await a.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    expect((await a.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
  });

  it('leaves `writes` to the pipeline and `off` alone, reading the switch on every request', async () => {
    const mode: { value: KillMode } = { value: 'writes' };
    const { app: a, handled } = await boot(mode);
    expect((await a.inject({ method: 'GET', url: '/open/v1/topics' })).statusCode).toBe(200);
    mode.value = 'all';
    expect((await a.inject({ method: 'GET', url: '/open/v1/topics' })).statusCode).toBe(503);
    mode.value = 'off';
    expect((await a.inject({ method: 'GET', url: '/open/v1/topics' })).statusCode).toBe(200);
    expect(handled).toEqual(['/open/v1/topics', '/open/v1/topics']);
  });
});
