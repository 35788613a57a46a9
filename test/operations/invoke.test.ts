/**
 * The invocation pipeline, unit by unit (src/operations/invoke.ts): the order of its gates,
 * what a refusal consumes, language from either surface, strict validation, and the
 * per-operation metric. Real limiter and stores (in memory); a fake operation and backend.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Caller, Scope } from '../../src/auth/caller.ts';
import { ApiError } from '../../src/errors/api-error.ts';
import { RateLimiter } from '../../src/limits/limiter.ts';
import { MemoryRateLimitStore } from '../../src/limits/store.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import { Invoker, type Invocation } from '../../src/operations/invoke.ts';
import { defineOperation, type Operation } from '../../src/operations/operation.ts';
import type { Services } from '../../src/services.ts';
import { CursorCodec } from '../../src/pagination/cursor.ts';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const caller = (scopes: Scope[] = ['read', 'write']): Caller => ({ userId: 'u1', keyId: 'k1', keyHash: 'h', scopes: new Set(scopes) });

function world(opts: { readPerMinute?: number; killMode?: 'off' | 'writes' | 'all' } = {}) {
  const metrics = new Metrics({ defaultMetrics: false });
  const limiter = new RateLimiter(
    new MemoryRateLimitStore(),
    { readPerMinute: opts.readPerMinute ?? 100, readPerDay: 1000, searchPerMinute: 2, writePerMinute: 1, writePerDay: 10 },
    metrics,
    silent,
  );
  const services = {
    config: { PUBLIC_WEB_URL: 'https://example.test' },
    cursors: new CursorCodec('a-test-cursor-secret'),
    confirm: {},
    metrics,
    limiter,
    killSwitch: { current: () => ({ mode: opts.killMode ?? 'off', by: null, reason: null, at: null }) },
    upstream: { call: async () => ({}) },
    now: Date.now,
  } as unknown as Services;
  return { invoker: new Invoker(services), metrics };
}

let runs = 0;
function op(over: Partial<Operation> = {}): Operation {
  return defineOperation({
    name: 'probe',
    title: 'Probe',
    description: 'A test operation.',
    scope: 'read',
    kind: 'read',
    localised: true,
    rest: { method: 'GET', path: '/probe' },
    tag: 'Topics',
    mcp: true,
    input: z.strictObject({ n: z.int().min(1).optional() }),
    output: z.object({ lang: z.string() }),
    async execute(ctx) {
      runs++;
      return { body: { lang: ctx.lang } };
    },
    ...over,
  } as Operation);
}

const call = (over: Partial<Invocation> = {}): Invocation => ({
  caller: caller(),
  requestId: 'r1',
  log: silent,
  surface: 'rest',
  language: 'en',
  ...over,
});

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return err instanceof ApiError ? err.code : `not an ApiError: ${String(err)}`;
  }
}

describe('the invocation pipeline', () => {
  it('counts every call first, whatever its outcome, and a refused call runs nothing', async () => {
    const { invoker } = world({ readPerMinute: 3 });
    runs = 0;
    expect(await code(invoker.invoke(op(), { bogus: 1 }, call()))).toBe('INVALID_ARGUMENT');
    expect(await code(invoker.invoke(op({ scope: 'write', kind: 'preview' }), {}, call({ caller: caller(['read']) })))).toBe(
      'FORBIDDEN_SCOPE',
    );
    expect(await code(invoker.invoke(op(), {}, call()))).toBe('ok');
    expect(await code(invoker.invoke(op(), {}, call()))).toBe('RATE_LIMITED');
    expect(runs).toBe(1);
  });

  it('hands the X-RateLimit-* headers of the counted call to the surface', async () => {
    const { invoker } = world({ readPerMinute: 5 });
    let headers: Record<string, string> = {};
    await invoker.invoke(op(), {}, call({ onMetered: (h) => (headers = h) }));
    expect(headers).toMatchObject({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4' });
  });

  it('spends the budget the operation declares: search, then write', async () => {
    const { invoker } = world();
    const search = op({ name: 'find', limit: 'search' });
    expect([
      await code(invoker.invoke(search, {}, call())),
      await code(invoker.invoke(search, {}, call())),
      await code(invoker.invoke(search, {}, call())),
    ]).toEqual(['ok', 'ok', 'RATE_LIMITED']);
    // The search budget is spent; a plain read is not.
    expect(await code(invoker.invoke(op(), {}, call()))).toBe('ok');
    const write = op({ name: 'do', scope: 'write', kind: 'execute' });
    expect([await code(invoker.invoke(write, {}, call())), await code(invoker.invoke(write, {}, call()))]).toEqual(['ok', 'RATE_LIMITED']);
  });

  it('refuses write operations while the writes kill switch is on, and only them', async () => {
    const { invoker } = world({ killMode: 'writes' });
    expect(await code(invoker.invoke(op({ scope: 'write', kind: 'preview' }), {}, call()))).toBe('SERVICE_DISABLED');
    expect(await code(invoker.invoke(op(), {}, call()))).toBe('ok');
  });

  it("takes the language from REST negotiation, or folds MCP's `language` argument", async () => {
    const { invoker } = world();
    expect((await invoker.invoke(op(), {}, call({ language: 'ja' }))).body).toEqual({ lang: 'ja' });
    expect((await invoker.invoke(op(), { language: 'zh-Hant' }, call({ surface: 'mcp', language: 'argument' }))).lang).toBe('zh-TW');
    expect(await code(invoker.invoke(op(), { language: 'klingon' }, call({ surface: 'mcp', language: 'argument' })))).toBe(
      'INVALID_ARGUMENT',
    );
    // A tool that returns no text declares no `language`: there it is an unknown argument.
    expect(await code(invoker.invoke(op({ localised: false }), { language: 'ja' }, call({ surface: 'mcp', language: 'argument' })))).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('counts each call under its operation, surface and outcome', async () => {
    const { invoker, metrics } = world();
    await invoker.invoke(op(), {}, call({ surface: 'mcp', language: 'argument' }));
    await code(invoker.invoke(op(), { n: 0 }, call()));
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/openpm_operations_total\{operation="probe",surface="mcp",outcome="ok"\} 1/);
    expect(text).toMatch(/openpm_operations_total\{operation="probe",surface="rest",outcome="INVALID_ARGUMENT"\} 1/);
  });

  it('turns anything an operation throws that is not a contract error into INTERNAL, logged', async () => {
    const { invoker } = world();
    const logged: string[] = [];
    const failing = op({
      async execute() {
        throw new Error('boom');
      },
    });
    const log = { ...silent, error: (_o: object, msg: string) => void logged.push(msg) };
    expect(await code(invoker.invoke(failing, {}, call({ log })))).toBe('INTERNAL');
    expect(logged).toEqual(['operation failed']);
  });
});
