/**
 * The REST adapter (src/surfaces/rest/routes.ts) over a fake operation set, through inject():
 * parameters gathered under their REST names (path, query, body), integer query parameters
 * converted, statuses and headers of the answer, refusals in the contract envelope, and every
 * request counted against the caller's limits, including those refused before the handler.
 * The pipeline is the real one, on in-memory limits and a backend that is never called.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Caller, Scope } from '../../../src/auth/caller.ts';
import { installErrorHandling } from '../../../src/http/error-handler.ts';
import { RateLimiter } from '../../../src/limits/limiter.ts';
import { MemoryRateLimitStore } from '../../../src/limits/store.ts';
import { Metrics } from '../../../src/metrics/metrics.ts';
import { Invoker } from '../../../src/operations/invoke.ts';
import { defineOperation, type Operation } from '../../../src/operations/operation.ts';
import type { Services } from '../../../src/services.ts';
import { restRoutes, toFastifyPath } from '../../../src/surfaces/rest/routes.ts';
import { CursorCodec } from '../../../src/pagination/cursor.ts';

const THING = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

/** What the fake operations were called with, in order. */
const executed: { op: string; input: unknown; lang: string }[] = [];

const getThing = defineOperation({
  name: 'get_thing',
  title: 'Get a thing',
  description: 'Reads one thing.',
  scope: 'read',
  kind: 'read',
  localised: true,
  rest: { method: 'GET', path: '/things/{thing_id}' },
  tag: 'Topics',
  mcp: false,
  input: z.strictObject({ thing_id: z.uuid(), limit: z.int().min(1).max(10).optional(), tag: z.string().optional() }),
  output: z.looseObject({}),
  async execute(ctx, input) {
    executed.push({ op: 'get_thing', input, lang: ctx.lang });
    return { body: { ...input, lang: ctx.lang } };
  },
});

const listPlain = defineOperation({
  name: 'list_plain',
  title: 'List plain things',
  description: 'Returns text in no particular language.',
  scope: 'read',
  kind: 'read',
  localised: false,
  rest: { method: 'GET', path: '/plain' },
  tag: 'Topics',
  mcp: false,
  input: z.strictObject({}),
  output: z.object({ data: z.array(z.string()) }),
  async execute() {
    return { body: { data: ['a'] } };
  },
});

const renameThing = defineOperation({
  name: 'rename_thing',
  title: 'Rename a thing',
  description: 'Writes.',
  scope: 'write',
  kind: 'execute',
  localised: false,
  rest: { method: 'POST', path: '/things/{thing_id}/rename' },
  tag: 'Topics',
  mcp: false,
  input: z.strictObject({ thing_id: z.uuid(), name: z.string().min(1).max(20) }),
  output: z.looseObject({}),
  async execute(ctx, input) {
    executed.push({ op: 'rename_thing', input, lang: ctx.lang });
    return { status: 201, body: { renamed: input.thing_id, name: input.name } };
  },
});

const OPERATIONS: readonly Operation[] = [getThing, listPlain, renameThing] as unknown as Operation[];

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  executed.length = 0;
});

/**
 * The adapter behind a stand-in for authentication: `x-test-scopes` names the caller's scopes
 * (each test's caller has a key of its own, so limits never leak between tests).
 */
async function boot(limits: { readPerMinute?: number; writePerMinute?: number } = {}): Promise<FastifyInstance> {
  const metrics = new Metrics({ defaultMetrics: false });
  const silent = { warn: () => {} };
  const limiter = new RateLimiter(
    new MemoryRateLimitStore(),
    {
      readPerMinute: limits.readPerMinute ?? 100,
      readPerDay: 1_000,
      searchPerMinute: 10,
      writePerMinute: limits.writePerMinute ?? 10,
      writePerDay: 100,
    },
    metrics,
    silent,
  );
  const services = {
    config: { PUBLIC_WEB_URL: 'https://example.test' },
    cursors: new CursorCodec('a-test-cursor-secret'),
    confirm: {},
    metrics,
    limiter,
    killSwitch: { current: () => ({ mode: 'off', by: null, reason: null, at: null }) },
    upstream: {
      call: async () => {
        throw new Error('the backend is not part of these tests');
      },
    },
    now: Date.now,
  } as unknown as Services;

  const a = Fastify({ logger: false, bodyLimit: 1024 });
  installErrorHandling(a);
  a.decorateRequest('caller', null);
  a.addHook('onRequest', async (request) => {
    const scopes = String(request.headers['x-test-scopes'] ?? 'read').split(',') as Scope[];
    const caller: Caller = { userId: 'u1', keyId: 'k1', keyHash: 'h', scopes: new Set(scopes) };
    request.caller = caller;
  });
  await a.register(restRoutes, { prefix: '/open/v1', pipeline: new Invoker(services), operations: OPERATIONS });
  await a.ready();
  app = a;
  return a;
}

describe('toFastifyPath', () => {
  it('turns OpenAPI path templates into Fastify parameters', () => {
    expect(toFastifyPath('/topics/{topic_id}/opinions/{opinion_id}/back')).toBe('/topics/:topic_id/opinions/:opinion_id/back');
    expect(toFastifyPath('/me')).toBe('/me');
  });
});

describe('REST routes', () => {
  it('gathers path and query parameters, converts integers, and answers 200 with the limit headers', async () => {
    const a = await boot({ readPerMinute: 7 });
    const res = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?limit=5&tag=blue` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ thing_id: THING, limit: 5, tag: 'blue', lang: 'en' });
    expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '7', 'x-ratelimit-remaining': '6' });
  });

  it('writes localised answers in the negotiated language, said in Content-Language and Vary', async () => {
    const a = await boot();
    const res = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}`, headers: { 'accept-language': 'fr;q=0.9, ja-JP;q=0.8' } });
    expect(res.json()).toMatchObject({ lang: 'ja' });
    expect(res.headers['content-language']).toBe('ja');
    expect(res.headers['vary']).toBe('Accept-Language');
    // An answer whose text is not localised says nothing about language.
    const plain = await a.inject({ method: 'GET', url: '/open/v1/plain', headers: { 'accept-language': 'ja' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-language']).toBeUndefined();
    expect(plain.headers['vary']).toBeUndefined();
  });

  it('refuses a value that is not an integer with 400 INVALID_ARGUMENT naming the parameter', async () => {
    const a = await boot();
    for (const value of ['five', '5.5', '1e1']) {
      const res = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?limit=${value}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT', details: { field: 'limit' } } });
    }
    const outOfRange = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?limit=11` });
    expect(outOfRange.json()).toEqual({
      error: { code: 'INVALID_ARGUMENT', message: 'limit must be an integer from 1 to 10.', details: { field: 'limit' } },
    });
    expect(executed).toEqual([]);
  });

  it('refuses unknown and repeated parameters, and each refusal still counts', async () => {
    const a = await boot({ readPerMinute: 10 });
    const unknown = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?colour=red` });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'colour' } });
    const twice = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?tag=a&tag=b` });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ error: { code: 'INVALID_ARGUMENT', message: 'tag must be given once.', details: { field: 'tag' } } });
    // Refused before the pipeline, and still answered with the window it counted in.
    expect(twice.headers).toMatchObject({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '8' });
    const next = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}` });
    expect(next.headers['x-ratelimit-remaining']).toBe('7');
    expect(executed).toHaveLength(1);
  });

  it('refuses a path parameter given in the query, and `__proto__`, as unknown parameters', async () => {
    const a = await boot({ readPerMinute: 10 });
    const inQuery = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?thing_id=${OTHER}` });
    expect(inQuery.statusCode).toBe(400);
    // The known ones are the query's: the path parameter is given by the path.
    expect(inQuery.json()).toEqual({
      error: {
        code: 'INVALID_ARGUMENT',
        message: 'thing_id is not a known parameter; the known ones are: limit, tag.',
        details: { field: 'thing_id' },
      },
    });
    const unknown = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?colour=red` });
    expect(unknown.json().error.message).toBe('colour is not a known parameter; the known ones are: limit, tag.');
    const proto = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?__proto__=x` });
    expect(proto.statusCode).toBe(400);
    expect(proto.json().error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: '__proto__' } });
    expect(proto.headers['x-ratelimit-remaining']).toBe('7');
    expect(executed).toEqual([]);
  });

  it('refuses a query that is not validly percent-encoded, naming the parameter, and a nameless one', async () => {
    const a = await boot({ readPerMinute: 10 });
    for (const [query, field] of [
      ['tag=%zz', 'tag'],
      ['tag=%E9', 'tag'],
      ['limit=1&tag=a%2', 'tag'],
      ['ta%zzg=1', 'query'],
      ['=x', 'query'],
    ]) {
      const res = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field } });
    }
    // Valid escapes, `+` and a literal percent sign written as %25 decode as usual.
    const fine = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}?tag=50%25+off%21` });
    expect(fine.statusCode).toBe(200);
    expect(fine.json()).toMatchObject({ tag: '50% off!' });
    expect(executed).toHaveLength(1);
  });

  it('answers 404 NOT_FOUND for a malformed path id, without running the operation', async () => {
    const a = await boot();
    const res = await a.inject({ method: 'GET', url: '/open/v1/things/not-a-uuid' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect(executed).toEqual([]);
  });

  it('passes the status an operation chooses, and refuses a path parameter given in the body', async () => {
    const a = await boot();
    const url = `/open/v1/things/${THING}/rename`;
    const headers = { 'x-test-scopes': 'read,write' };
    const res = await a.inject({ method: 'POST', url, headers, payload: { name: 'new' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ renamed: THING, name: 'new' });
    for (const thing of [OTHER, THING]) {
      const inBody = await a.inject({ method: 'POST', url, headers, payload: { name: 'new', thing_id: thing } });
      expect(inBody.statusCode).toBe(400);
      expect(inBody.json()).toEqual({
        error: {
          code: 'INVALID_ARGUMENT',
          message: 'thing_id is not a known parameter; the known ones are: name.',
          details: { field: 'thing_id' },
        },
      });
    }
    expect(executed).toHaveLength(1);
  });

  it('refuses a query parameter on a POST, which reads its input from the body alone', async () => {
    const a = await boot();
    const headers = { 'x-test-scopes': 'read,write' };
    for (const [query, field] of [
      ['name=other', 'name'],
      ['extra=1', 'extra'],
      ['=1', 'query'],
    ] as const) {
      const res = await a.inject({ method: 'POST', url: `/open/v1/things/${THING}/rename?${query}`, headers, payload: { name: 'new' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'INVALID_ARGUMENT',
        message: `${field} is not a known parameter; this operation reads its input from the JSON body.`,
        details: { field },
      });
    }
    expect(executed).toEqual([]);
    // A bare `?` carries no parameter.
    expect(
      (await a.inject({ method: 'POST', url: `/open/v1/things/${THING}/rename?`, headers, payload: { name: 'new' } })).statusCode,
    ).toBe(201);
  });

  it("refuses a key without the operation's scope with 403 FORBIDDEN_SCOPE", async () => {
    const a = await boot();
    const res = await a.inject({
      method: 'POST',
      url: `/open/v1/things/${THING}/rename`,
      headers: { 'x-test-scopes': 'read' },
      payload: { name: 'new' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN_SCOPE');
    expect(executed).toEqual([]);
  });

  it('refuses bodies that are not a JSON object, naming `body`', async () => {
    const a = await boot();
    const headers = { 'x-test-scopes': 'read,write', 'content-type': 'application/json' };
    for (const payload of ['["new"]', '"new"', '{"name":']) {
      const res = await a.inject({ method: 'POST', url: `/open/v1/things/${THING}/rename`, headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'body' } });
    }
    const missing = await a.inject({ method: 'POST', url: `/open/v1/things/${THING}/rename`, headers: { 'x-test-scopes': 'read,write' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'name' } });
    expect(executed).toEqual([]);
  });

  it('counts a body that never reaches the handler (unreadable, too large) against the write budget', async () => {
    const a = await boot({ writePerMinute: 2 });
    const headers = { 'x-test-scopes': 'read,write', 'content-type': 'application/json' };
    const url = `/open/v1/things/${THING}/rename`;
    expect((await a.inject({ method: 'POST', url, headers, payload: '{"name":' })).statusCode).toBe(400);
    expect((await a.inject({ method: 'POST', url, headers, payload: JSON.stringify({ name: 'x'.repeat(2_000) }) })).statusCode).toBe(413);
    const third = await a.inject({ method: 'POST', url, headers, payload: { name: 'ok' } });
    expect(third.statusCode).toBe(429);
    expect(third.json().error).toMatchObject({ code: 'RATE_LIMITED', details: { window: 'write_minute' } });
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(executed).toEqual([]);
  });

  it('answers 429 rather than 400 to an unreadable body past the limit, and counts it only once', async () => {
    const a = await boot({ writePerMinute: 2, readPerMinute: 50 });
    const headers = { 'x-test-scopes': 'read,write', 'content-type': 'application/json' };
    const url = `/open/v1/things/${THING}/rename`;
    const first = await a.inject({ method: 'POST', url, headers, payload: '{"name":' });
    expect(first.statusCode).toBe(400);
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1' });
    expect((await a.inject({ method: 'POST', url, headers, payload: '{"name":' })).statusCode).toBe(400);
    for (let i = 0; i < 3; i++) {
      const refused = await a.inject({ method: 'POST', url, headers, payload: '{"name":' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', details: { window: 'write_minute' } });
    }
    // The 429s consumed nothing: the read window saw the two counted writes only.
    const read = await a.inject({ method: 'GET', url: `/open/v1/things/${THING}` });
    expect(read.headers['x-ratelimit-remaining']).toBe('47');
  });
});
