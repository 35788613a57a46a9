/** One access-log line per request (src/http/access-log.ts), through the gateway's own logger options. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AccessLog } from '../../src/http/access-log.ts';
import { genReqId } from '../../src/http/request-id.ts';
import { loggerOptions } from '../../src/http/logging.ts';

type Line = Record<string, unknown> & { msg: string; level: number };

async function serve(level: 'info' | 'debug', opts: { failingOnResponse?: boolean } = {}) {
  const lines: Line[] = [];
  const app = Fastify({
    logger: loggerOptions({ LOG_LEVEL: level }, { write: (l: string) => void lines.push(JSON.parse(l) as Line) }),
    logController: new AccessLog(),
    genReqId,
  });
  app.get('/x', async () => ({ ok: true }));
  if (opts.failingOnResponse === true) {
    app.addHook('onResponse', async () => {
      throw new Error('hook failed');
    });
  }
  await app.ready();
  const res = await app.inject({ method: 'GET', url: '/x?limit=2&api_key=opk_test_secret_0000', headers: { 'x-request-id': 'trace-1' } });
  expect(res.statusCode).toBe(200);
  await app.close();
  return lines.filter((l) => l['reqId'] === 'trace-1');
}

describe('AccessLog', () => {
  it('writes one line per request at info, with the request and the answer in it', async () => {
    const before = Date.now();
    const lines = await serve('info');
    const after = Date.now();
    expect(lines.map((l) => l.msg)).toEqual(['request completed']);
    const [line] = lines as [Line];
    expect(line.level).toBe(30);
    expect(line['req']).toMatchObject({ method: 'GET', url: '/x?limit=2&api_key=[redacted]' });
    expect(line['res']).toEqual({ statusCode: 200 });
    // The response time in ms and the time in epoch ms, as numbers.
    const responseTime = line['responseTime'] as number;
    expect(typeof responseTime).toBe('number');
    expect(responseTime).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(line['time'])).toBe(true);
    expect(line['time']).toBeGreaterThanOrEqual(before);
    expect(line['time']).toBeLessThanOrEqual(after);
  });

  it('adds the arrival line at debug, before the completion line', async () => {
    const lines = await serve('debug');
    expect(lines.map((l) => [l.msg, l.level])).toEqual([
      ['incoming request', 20],
      ['request completed', 30],
    ]);
    expect(lines[0]?.['req']).toMatchObject({ method: 'GET', url: '/x?limit=2&api_key=[redacted]' });
  });

  it('logs a request whose completion failed at error, with the request and the error', async () => {
    const lines = await serve('info', { failingOnResponse: true });
    expect(lines.map((l) => [l.msg, l.level])).toEqual([['request errored', 50]]);
    expect(lines[0]?.['req']).toMatchObject({ method: 'GET' });
    expect(lines[0]?.['err']).toMatchObject({ message: 'hook failed' });
  });

  it('keeps the switch that turns request lines off', async () => {
    const lines: string[] = [];
    const app = Fastify({
      logger: loggerOptions({ LOG_LEVEL: 'debug' }, { write: (l: string) => void lines.push(l) }),
      logController: new AccessLog({ disableRequestLogging: true }),
    });
    app.get('/x', async () => ({ ok: true }));
    expect((await app.inject({ method: 'GET', url: '/x' })).statusCode).toBe(200);
    await app.close();
    expect(lines.filter((l) => /incoming request|request completed/.test(l))).toEqual([]);
  });
});
