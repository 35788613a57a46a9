/** The Server-Timing plugin (src/plugins/server-timing.ts) and the backend-time tally it reads. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import serverTiming, { serverTimingValue } from '../../src/plugins/server-timing.ts';
import { addUpstreamMs } from '../../src/upstream/timing.ts';

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

const HEADER = /^gw;dur=(\d+\.\d), upstream;dur=(\d+\.\d)$/;

async function boot(): Promise<FastifyInstance> {
  const a = Fastify({ logger: false });
  app = a;
  await a.register(serverTiming);
  await a.register(async (child) => {
    // Two backend calls, one after a hop through the event loop: both count for this request.
    child.get('/open/v1/thing', async () => {
      addUpstreamMs(12.25);
      await new Promise((r) => setImmediate(r));
      addUpstreamMs(0.5);
      return { ok: true };
    });
    child.post('/mcp', async (_request, reply) => reply.code(202).send());
    child.get('/open/v1/fails', async () => {
      addUpstreamMs(3);
      throw Object.assign(new Error('no'), { statusCode: 503 });
    });
    child.get('/livez', async () => ({ ok: true }));
  });
  return a;
}

describe('Server-Timing', () => {
  it('sums the backend calls of the request into upstream, the rest into gw', async () => {
    const a = await boot();
    const res = await a.inject({ method: 'GET', url: '/open/v1/thing' });
    const m = HEADER.exec(String(res.headers['server-timing']));
    expect(m).not.toBeNull();
    expect(m?.[2]).toBe('12.8');
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(0);
  });

  it('keeps each request to its own calls, concurrent ones included', async () => {
    const a = await boot();
    const answers = await Promise.all([1, 2, 3].map(() => a.inject({ method: 'GET', url: '/open/v1/thing' })));
    for (const res of answers) expect(HEADER.exec(String(res.headers['server-timing']))?.[2]).toBe('12.8');
  });

  it('is on error answers and on /mcp, with no backend call as 0', async () => {
    const a = await boot();
    const failed = await a.inject({ method: 'GET', url: '/open/v1/fails' });
    expect(failed.statusCode).toBe(503);
    expect(HEADER.exec(String(failed.headers['server-timing']))?.[2]).toBe('3.0');
    const mcp = await a.inject({ method: 'POST', url: '/mcp' });
    expect(HEADER.exec(String(mcp.headers['server-timing']))?.[2]).toBe('0.0');
    const unknown = await a.inject({ method: 'GET', url: '/open/v1/nowhere' });
    expect(unknown.headers['server-timing']).toMatch(HEADER);
  });

  it('leaves answers outside the API alone, and a call outside any request counts nowhere', async () => {
    const a = await boot();
    addUpstreamMs(1_000);
    const probe = await a.inject({ method: 'GET', url: '/livez' });
    expect(probe.headers['server-timing']).toBeUndefined();
    const res = await a.inject({ method: 'GET', url: '/open/v1/thing' });
    expect(HEADER.exec(String(res.headers['server-timing']))?.[2]).toBe('12.8');
  });

  it('never writes a negative gw: side-by-side calls can sum past the request', () => {
    expect(serverTimingValue(10, 25)).toBe('gw;dur=0.0, upstream;dur=25.0');
    expect(serverTimingValue(30.26, 10)).toBe('gw;dur=20.3, upstream;dur=10.0');
  });
});
