/** A gateway stand-in around the failed-authentication throttle, for its tests with and without Redis. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { KeyHash } from '../../src/auth/authenticator.ts';
import { ApiError } from '../../src/errors/api-error.ts';
import { createAuthThrottle } from '../../src/limits/auth-throttle.ts';

export interface Answer {
  status: number;
  body: { admitted?: true; error?: { code: string; message: string; details?: unknown } };
  retryAfter?: string;
}

let apps: FastifyInstance[] = [];
/** Close every stand-in opened so far (call it after each test). */
export async function closeGateways(): Promise<void> {
  await Promise.all(apps.map((a) => a.close()));
  apps = [];
}

/**
 * A gateway stand-in: POST /admit runs the throttle on the key in `x-key` (none: a missing key),
 * POST /fail records one failed authentication. `known` keys have a verdict somewhere,
 * `valid` ones a live valid verdict in this replica.
 */
export async function gateway(opts: {
  perMinute: number;
  totalPerMinute: number;
  known?: string[];
  valid?: string[];
  redis?: Redis;
  prefix?: string;
}) {
  const logs: { throttled?: string; msg: string }[] = [];
  const stream = { write: (line: string) => logs.push(JSON.parse(line) as { throttled?: string; msg: string }) };
  const app = Fastify({ logger: { level: 'warn', stream } });
  apps.push(app);
  const known = new Set(opts.known ?? []);
  const valid = new Set(opts.valid ?? []);
  const asked: string[] = [];
  const throttle = await createAuthThrottle(app, {
    perMinute: opts.perMinute,
    totalPerMinute: opts.totalPerMinute,
    authenticator: {
      isKnownValid: (k) => valid.has(k),
      hasVerdict: async (k) => {
        asked.push(k);
        return known.has(k) || valid.has(k);
      },
    },
    redis: opts.redis ?? null,
    prefix: opts.prefix ?? 'test:',
  });
  app.post('/admit', async (req, reply) => {
    const key = req.headers['x-key'];
    try {
      // The throttle only ever sees a key's hash; the test's made-up keys stand for theirs.
      await throttle.admit(req, typeof key === 'string' ? (key as KeyHash) : null);
      return { admitted: true };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return reply.code(err.status).send(err.toEnvelope());
    }
  });
  app.post('/fail', async (req) => {
    await throttle.recordFailure(req);
    return {};
  });
  await app.ready();
  const a = app;
  const admit = async (ip: string, key?: string): Promise<Answer> => {
    const res = await a.inject({ method: 'POST', url: '/admit', remoteAddress: ip, headers: key === undefined ? {} : { 'x-key': key } });
    const retryAfter = res.headers['retry-after'];
    return { status: res.statusCode, body: res.json(), ...(retryAfter === undefined ? {} : { retryAfter: String(retryAfter) }) };
  };
  const fail = async (ip: string, times: number) => {
    for (let i = 0; i < times; i++) await a.inject({ method: 'POST', url: '/fail', remoteAddress: ip });
  };
  return { admit, fail, asked, logs };
}

export const ADMITTED = { status: 200, body: { admitted: true } };
