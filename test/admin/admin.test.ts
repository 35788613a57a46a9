/**
 * The admin server (src/admin/app.ts): metrics, the kill switch behind the admin token, the
 * loopback rule without a token, and the error envelope.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildAdminApp, type AdminConfig } from '../../src/admin/app.ts';
import { isLoopbackHost, tokenMatches } from '../../src/admin/tokens.ts';
import { KillSwitchUnavailableError, MemoryKillSwitch, OFF, type KillSwitch } from '../../src/killswitch/kill-switch.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import { KEYS, startStack, type Stack } from '../helpers/stack.ts';

const TOKEN = 'admin-token-0123456789abcdef';
const apps: FastifyInstance[] = [];

async function admin(config: Partial<AdminConfig> = {}, killSwitch: KillSwitch = new MemoryKillSwitch(OFF)) {
  const metrics = new Metrics({ defaultMetrics: false });
  const app = await buildAdminApp({ metrics, killSwitch }, { ADMIN_HOST: '127.0.0.1', ...config });
  apps.push(app);
  return { app, metrics, killSwitch };
}
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

describe('admin server: open routes', () => {
  it('GET /livez answers without a token', async () => {
    const { app } = await admin({ ADMIN_TOKEN: TOKEN });
    const res = await app.inject({ method: 'GET', url: '/livez' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /metrics is Prometheus text, without a token', async () => {
    const { app, metrics } = await admin({ ADMIN_TOKEN: TOKEN });
    metrics.request('/open/v1/topics', 'GET', 200, 'rest', 0.01);
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toContain('# TYPE openpm_requests_total counter');
    expect(res.body).toContain('openpm_requests_total{route="/open/v1/topics",method="GET",status="200",surface="rest"} 1');
  });

  it('unknown routes and methods are 404 NOT_FOUND in the envelope', async () => {
    const { app } = await admin();
    for (const [method, url] of [
      ['GET', '/nope'],
      ['POST', '/kill-switch'],
      ['DELETE', '/kill-switch'],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      // Whatever the body: a malformed one must not make an unknown route answer 400.
      const withBody = await app.inject({ method, url, payload: '{"mode":', headers: { 'content-type': 'application/json' } });
      expect([withBody.statusCode, withBody.json().error.code]).toEqual([404, 'NOT_FOUND']);
    }
  });
});

describe('admin server: kill switch with ADMIN_TOKEN', () => {
  it('refuses a missing or wrong token with 401 UNAUTHORIZED and a challenge', async () => {
    const { app, killSwitch } = await admin({ ADMIN_TOKEN: TOKEN });
    for (const headers of [{}, bearer('wrong-token-0123456789'), { authorization: TOKEN }, bearer(`${TOKEN}x`)]) {
      for (const method of ['GET', 'PUT'] as const) {
        const res = await app.inject({
          method,
          url: '/kill-switch',
          headers,
          payload: method === 'PUT' ? { mode: 'all', reason: 'x' } : undefined,
        });
        expect(res.statusCode, `${method} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.stringContaining('admin token') } });
        expect(res.headers['www-authenticate']).toBe('Bearer realm="openpm-admin"');
      }
    }
    expect(killSwitch.current().mode).toBe('off');
  });

  it('reads and changes the state with the token; the answer is the new state', async () => {
    const { app, killSwitch } = await admin({ ADMIN_TOKEN: TOKEN });
    const read = await app.inject({ method: 'GET', url: '/kill-switch', headers: bearer(TOKEN) });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(OFF);

    const put = await app.inject({
      method: 'PUT',
      url: '/kill-switch',
      headers: bearer(TOKEN),
      payload: { mode: 'writes', reason: 'maintenance', by: 'oncall' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ mode: 'writes', by: 'oncall', reason: 'maintenance' });
    expect(Date.parse(put.json().at)).not.toBeNaN();
    expect(killSwitch.current().mode).toBe('writes');

    const again = await app.inject({ method: 'GET', url: '/kill-switch', headers: bearer(TOKEN) });
    expect(again.json()).toEqual(put.json());
  });

  it('names the caller by address when `by` is not given', async () => {
    const { app } = await admin({ ADMIN_TOKEN: TOKEN });
    const put = await app.inject({
      method: 'PUT',
      url: '/kill-switch',
      headers: bearer(TOKEN),
      payload: { mode: 'all', reason: 'incident' },
    });
    expect(put.json().by).toBe('admin API from 127.0.0.1');
  });

  it.each([
    [{ reason: 'x' }, 'mode'],
    [{ mode: 'sideways', reason: 'x' }, 'mode'],
    [{ mode: 'on', reason: 'x' }, 'mode'],
    [{ mode: 'all' }, 'reason'],
    [{ mode: 'all', reason: '   ' }, 'reason'],
    [{ mode: 'all', reason: 'r'.repeat(501) }, 'reason'],
    [{ mode: 'all', reason: 'x', by: '' }, 'by'],
    [['all'], 'body'],
  ])('refuses the body %j with 400 INVALID_ARGUMENT naming %s', async (payload, field) => {
    const { app, killSwitch } = await admin({ ADMIN_TOKEN: TOKEN });
    const res = await app.inject({ method: 'PUT', url: '/kill-switch', headers: bearer(TOKEN), payload: payload as object });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field } });
    expect(killSwitch.current().mode).toBe('off');
  });

  it('refuses bad JSON, other media types and big bodies in the envelope', async () => {
    const { app } = await admin({ ADMIN_TOKEN: TOKEN });
    const badJson = await app.inject({
      method: 'PUT',
      url: '/kill-switch',
      headers: { ...bearer(TOKEN), 'content-type': 'application/json' },
      payload: '{"mode":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().error.code).toBe('INVALID_ARGUMENT');
    const text = await app.inject({
      method: 'PUT',
      url: '/kill-switch',
      headers: { ...bearer(TOKEN), 'content-type': 'text/plain' },
      payload: 'all',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().error.code).toBe('INVALID_ARGUMENT');
    const big = await app.inject({
      method: 'PUT',
      url: '/kill-switch',
      headers: bearer(TOKEN),
      payload: { mode: 'all', reason: 'x'.repeat(10_000) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('INVALID_ARGUMENT');
  });

  it('answers 500 INTERNAL with a clear message when the shared store cannot be written', async () => {
    const broken: KillSwitch = {
      current: () => OFF,
      set: async () => {
        throw new KillSwitchUnavailableError(
          'the kill switch could not be changed: the shared store (Redis) did not answer (Connection is closed.)',
        );
      },
      close: async () => {},
    };
    const { app } = await admin({ ADMIN_TOKEN: TOKEN }, broken);
    const res = await app.inject({
      method: 'PUT',
      url: '/kill-switch',
      headers: bearer(TOKEN),
      payload: { mode: 'all', reason: 'incident' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('INTERNAL');
    expect(res.json().error.message).toContain('shared store (Redis)');
  });
});

describe('admin server: kill switch without ADMIN_TOKEN', () => {
  it('on a loopback address, anyone who can reach the port may read and change it', async () => {
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      const { app, killSwitch } = await admin({ ADMIN_HOST: host });
      expect((await app.inject({ method: 'GET', url: '/kill-switch' })).statusCode).toBe(200);
      const put = await app.inject({ method: 'PUT', url: '/kill-switch', payload: { mode: 'all', reason: 'local ops' } });
      expect(put.statusCode, host).toBe(200);
      expect(killSwitch.current().mode).toBe('all');
    }
  });

  it('on a loopback address, refuses what a web page sends (DNS rebinding): a foreign Host, any Origin', async () => {
    const { app, killSwitch } = await admin({ ADMIN_HOST: '127.0.0.1' });
    const page = { host: 'rebind.attacker.example:9090', origin: 'http://rebind.attacker.example:9090' };
    for (const headers of [page, { host: page.host }, { host: '127.0.0.1:9090', origin: page.origin }]) {
      const put = await app.inject({ method: 'PUT', url: '/kill-switch', headers, payload: { mode: 'all', reason: 'rebound page' } });
      expect(put.statusCode).toBe(403);
      expect(put.json().error.code).toBe('FORBIDDEN');
      expect((await app.inject({ method: 'GET', url: '/kill-switch', headers })).statusCode).toBe(403);
    }
    expect(killSwitch.current().mode).toBe('off');
    // What operators' commands send: the loopback name or address, with or without a port.
    for (const host of ['localhost:9090', '127.0.0.1:9090', '[::1]:9090', 'localhost']) {
      const get = await app.inject({ method: 'GET', url: '/kill-switch', headers: { host } });
      expect(get.statusCode, host).toBe(200);
    }
  });

  it('on any other address, reads work and changes are 403 FORBIDDEN', async () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'admin.internal']) {
      const { app, killSwitch } = await admin({ ADMIN_HOST: host });
      expect((await app.inject({ method: 'GET', url: '/kill-switch' })).statusCode).toBe(200);
      const put = await app.inject({ method: 'PUT', url: '/kill-switch', payload: { mode: 'all', reason: 'remote ops' } });
      expect(put.statusCode, host).toBe(403);
      expect(put.json().error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('ADMIN_TOKEN') });
      expect(killSwitch.current().mode).toBe('off');
    }
  });
});

describe('helpers', () => {
  it('isLoopbackHost', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'example.com', '::ffff:10.0.0.1', ''])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it('tokenMatches', () => {
    expect(tokenMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(tokenMatches(`bearer   ${TOKEN}`, TOKEN)).toBe(true);
    expect(tokenMatches(undefined, TOKEN)).toBe(false);
    expect(tokenMatches(TOKEN, TOKEN)).toBe(false);
    expect(tokenMatches(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
    expect(tokenMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
  });
});

describe('admin server next to the gateway', () => {
  let stack: Stack;
  let adminApp: FastifyInstance;
  beforeAll(async () => {
    stack = await startStack();
    adminApp = await buildAdminApp(stack.app.services, { ADMIN_HOST: '127.0.0.1', ADMIN_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await adminApp?.close();
    await stack?.close();
  });

  it('flips the gateway: all → 503 SERVICE_DISABLED, writes → reads only, off → back; health keeps answering', async () => {
    const flip = async (mode: string) => {
      const res = await adminApp.inject({ method: 'PUT', url: '/kill-switch', headers: bearer(TOKEN), payload: { mode, reason: 'test' } });
      expect(res.statusCode).toBe(200);
    };
    await flip('all');
    const refused = await stack.get('/open/v1/topic-categories', KEYS.aliceRead);
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('SERVICE_DISABLED');
    expect((await stack.get('/livez')).status).toBe(200);
    expect((await stack.get('/readyz')).status).toBe(200);

    await flip('writes');
    expect((await stack.get('/open/v1/topic-categories', KEYS.aliceRead)).status).toBe(200);
    const order = await stack.post('/open/v1/orders', KEYS.aliceWrite, { confirm_token: 'anything' });
    expect(order.status).toBe(503);
    expect(order.body.error.code).toBe('SERVICE_DISABLED');

    await flip('off');
    expect((await stack.get('/open/v1/topic-categories', KEYS.aliceRead)).status).toBe(200);

    const metrics = await adminApp.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /openpm_requests_total\{route="\/open\/v1\/topic-categories",method="GET",status="503",surface="rest"\} 1/,
    );
  });
});

describe('admin server: rotating ADMIN_TOKEN', () => {
  const NEW = 'new-admin-token-0123456789abcdef';

  it('accepts every token of the list, and refuses one no longer listed', async () => {
    const both = (await admin({ ADMIN_TOKEN: `${NEW},${TOKEN}` })).app;
    for (const t of [NEW, TOKEN])
      expect((await both.inject({ method: 'GET', url: '/kill-switch', headers: bearer(t) })).statusCode).toBe(200);
    const after = (await admin({ ADMIN_TOKEN: NEW })).app;
    expect((await after.inject({ method: 'GET', url: '/kill-switch', headers: bearer(NEW) })).statusCode).toBe(200);
    const refused = await after.inject({ method: 'GET', url: '/kill-switch', headers: bearer(TOKEN) });
    expect([refused.statusCode, refused.json().error.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(tokenMatches(`Bearer ${TOKEN}`, [NEW, TOKEN])).toBe(true);
    expect(tokenMatches(`Bearer ${TOKEN}`, [NEW])).toBe(false);
    expect(tokenMatches(`Bearer ${TOKEN}`, [])).toBe(false);
  });
});

describe('admin server: POST /sandbox/reset', () => {
  async function withSandbox(config: Partial<AdminConfig>) {
    const metrics = new Metrics({ defaultMetrics: false });
    let resets = 0;
    const sandbox = {
      reset: () => {
        resets += 1;
        return { now: Date.UTC(2026, 0, 2) };
      },
    };
    const app = await buildAdminApp({ metrics, killSwitch: new MemoryKillSwitch(OFF), sandbox }, { ADMIN_HOST: '127.0.0.1', ...config });
    apps.push(app);
    return { app, resets: () => resets };
  }

  it('resets the sandbox behind the admin token, and exists only where a sandbox runs', async () => {
    const { app, resets } = await withSandbox({ ADMIN_TOKEN: TOKEN });
    const refused = await app.inject({ method: 'POST', url: '/sandbox/reset' });
    expect([refused.statusCode, resets()]).toEqual([401, 0]);
    const ok = await app.inject({ method: 'POST', url: '/sandbox/reset', headers: bearer(TOKEN) });
    expect([ok.statusCode, ok.json(), resets()]).toEqual([200, { reset: true, now: '2026-01-02T00:00:00.000Z' }, 1]);
    const without = (await admin({ ADMIN_TOKEN: TOKEN })).app;
    expect((await without.inject({ method: 'POST', url: '/sandbox/reset', headers: bearer(TOKEN) })).statusCode).toBe(404);
  });

  it('without a token on loopback, answers a command of this host but not a web page', async () => {
    const { app, resets } = await withSandbox({});
    const page = await app.inject({
      method: 'POST',
      url: '/sandbox/reset',
      headers: { host: '127.0.0.1:9090', origin: 'http://evil.example' },
    });
    expect([page.statusCode, resets()]).toEqual([403, 0]);
    const cli = await app.inject({ method: 'POST', url: '/sandbox/reset', headers: { host: '127.0.0.1:9090' } });
    expect([cli.statusCode, resets()]).toEqual([200, 1]);
  });
});
