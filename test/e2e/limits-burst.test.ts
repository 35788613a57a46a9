/**
 * SPEC 8 and DECISIONS.md section 8 across replicas: three gateways share one Redis; a burst of
 * limit + k requests for one key gets exactly k 429s, for each window kind; the search budget
 * is shared between REST and MCP; headers describe the binding minute window.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { mcpClient } from '../helpers/mcp.ts';
import { testPrefix } from '../helpers/redis.ts';
import { KEYS, SERVICE_TOKEN, USERS, startStack, type Stack, type StackOptions } from '../helpers/stack.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
});
afterAll(async () => sandbox.close());

/** Three replicas in front of one backend, sharing one Redis under a fresh prefix. */
async function fleet(env: StackOptions['env'] = {}): Promise<Stack[]> {
  const prefix = testPrefix('fleet');
  return Promise.all([0, 1, 2].map(() => startStack({ sandbox, redis: true, prefix, env })));
}

/** A fresh key, so each test starts with untouched windows (users hold at most 5 keys each). */
const OWNERS = [USERS.erin, USERS.frank, USERS.grace, USERS.heidi, USERS.ivan, USERS.judy, USERS.kim, USERS.leo];
let issued = 0;
async function freshKey(stack: Stack, scopes = ['READ']): Promise<string> {
  const userId = OWNERS[issued++ % OWNERS.length];
  return (await stack.admin('POST', '/keys', { userId, scopes })).key as string;
}

/** Send n requests spread over the replicas, all at once; count the statuses. */
async function burst(replicas: Stack[], n: number, send: (s: Stack) => Promise<{ status: number }>) {
  const results = await Promise.all(Array.from({ length: n }, (_, i) => send(replicas[i % replicas.length] as Stack)));
  const count = (code: number) => results.filter((r) => r.status === code).length;
  return { results, count };
}

describe('minute windows across three replicas', () => {
  let replicas: Stack[];
  beforeAll(async () => {
    replicas = await fleet();
  });
  afterAll(async () => Promise.all(replicas.map((r) => r.close())));

  it('read window: 120 + 7 requests → exactly 7 × 429', async () => {
    const key = await freshKey(replicas[0] as Stack);
    const { count, results } = await burst(replicas, 127, (s) => s.get('/open/v1/topic-categories', key));
    expect(count(429)).toBe(7);
    expect(count(200)).toBe(120);
    const refused = results.find((r) => r.status === 429) as Awaited<ReturnType<Stack['get']>>;
    expect((refused.body as any).error.code).toBe('RATE_LIMITED');
    const retry = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 60).toBe(true);
    expect((refused.body as any).error.details.retry_after).toBe(retry);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('search window: 30 + 4 searches → exactly 4 × 429, shared by REST and MCP', async () => {
    const key = await freshKey(replicas[0] as Stack);
    const clients: Client[] = await Promise.all(replicas.map((r) => mcpClient(r.url, key)));
    // MCP initialize counts in the read window only, never the search budget.
    const results = await Promise.all(
      Array.from({ length: 34 }, async (_, i) => {
        if (i % 2 === 0) return (await (replicas[i % 3] as Stack).get('/open/v1/search?q=will', key)).status;
        const r = await (clients[i % 3] as Client).callTool({ name: 'search_topics', arguments: { q: 'will' } });
        if (!r.isError) return 200;
        const env = JSON.parse((r.content as { text: string }[])[0]?.text ?? '{}');
        return env.error?.code === 'RATE_LIMITED' ? 429 : 500;
      }),
    );
    expect(results.filter((s) => s === 429)).toHaveLength(4);
    expect(results.filter((s) => s === 200)).toHaveLength(30);
    // A plain read is still admitted: only the search budget is spent.
    expect((await (replicas[1] as Stack).get('/open/v1/topic-categories', key)).status).toBe(200);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('over MCP a refused tool call is a tool error that names the delay', async () => {
    const key = await freshKey(replicas[0] as Stack);
    const client = await mcpClient((replicas[2] as Stack).url, key);
    await burst(replicas, 30, (s) => s.get('/open/v1/search?q=will', key));
    const r = await client.callTool({ name: 'search_topics', arguments: { q: 'will' } });
    expect(r.isError).toBe(true);
    const env = JSON.parse((r.content as { text: string }[])[0]?.text ?? '{}');
    expect(env.error.code).toBe('RATE_LIMITED');
    expect(env.error.message).toMatch(/retry after \d+ seconds/);
    expect(env.error.details.retry_after).toBeGreaterThanOrEqual(1);
    await client.close();
  });

  it('write window: 10 + 3 executions → exactly 3 × 429; they also count as reads', async () => {
    const key = await freshKey(replicas[0] as Stack, ['READ', 'WRITE']);
    const { count } = await burst(replicas, 13, (s) => s.post('/open/v1/orders', key, { confirm_token: 'not-a-token' }));
    expect(count(429)).toBe(3);
    expect(count(400)).toBe(10); // each admitted one failed on its token, and still counted
    const read = await (replicas[0] as Stack).get('/open/v1/topic-categories', key);
    expect(read.status).toBe(200);
    expect(read.headers.get('x-ratelimit-remaining')).toBe(String(120 - 10 - 1));
  });

  it('previews count in the read window only', async () => {
    const key = await freshKey(replicas[0] as Stack, ['READ', 'WRITE']);
    const { count } = await burst(replicas, 12, (s) =>
      s.post('/open/v1/topics/00000000-0000-4000-8000-00000000ffff/order-preview', key, {}),
    );
    expect(count(429)).toBe(0);
    const exec = await (replicas[0] as Stack).post('/open/v1/orders', key, { confirm_token: 'x' });
    expect(exec.status).toBe(400);
    expect(exec.headers.get('x-ratelimit-limit')).toBe('10');
    expect(exec.headers.get('x-ratelimit-remaining')).toBe('9');
  });

  it('puts the binding minute window on every response', async () => {
    const key = await freshKey(replicas[0] as Stack);
    const read = await (replicas[0] as Stack).get('/open/v1/topic-categories', key);
    expect([read.headers.get('x-ratelimit-limit'), read.headers.get('x-ratelimit-remaining')]).toEqual(['120', '119']);
    expect(Number(read.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    const search = await (replicas[1] as Stack).get('/open/v1/search?q=will', key);
    expect([search.headers.get('x-ratelimit-limit'), search.headers.get('x-ratelimit-remaining')]).toEqual(['30', '29']);
    const notFound = await (replicas[2] as Stack).get('/open/v1/topics/00000000-0000-4000-8000-00000000ffff', key);
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-ratelimit-remaining')).toBe('117');
  });
});

describe('day windows across three replicas', () => {
  let replicas: Stack[];
  beforeAll(async () => {
    replicas = await fleet({ RATE_LIMIT_READ_PER_DAY: 25, RATE_LIMIT_WRITE_PER_DAY: 4 });
  });
  afterAll(async () => Promise.all(replicas.map((r) => r.close())));

  it('read day: 25 + 5 → exactly 5 × 429, retry after the next 00:00 UTC', async () => {
    const key = await freshKey(replicas[0] as Stack);
    const { count, results } = await burst(replicas, 30, (s) => s.get('/open/v1/topic-categories', key));
    expect(count(429)).toBe(5);
    const refused = results.find((r) => r.status === 429) as Awaited<ReturnType<Stack['get']>>;
    const untilMidnight = Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);
    expect(Math.abs(Number(refused.headers.get('retry-after')) - untilMidnight)).toBeLessThanOrEqual(5);
    expect((refused.body as any).error.details.window).toBe('read_day');
  });

  it('write day: 4 + 2 → exactly 2 × 429', async () => {
    const key = await freshKey(replicas[0] as Stack, ['READ', 'WRITE']);
    const { count } = await burst(replicas, 6, (s) => s.post('/open/v1/backs', key, { confirm_token: 'x' }));
    expect(count(429)).toBe(2);
  });
});

describe('RATE_LIMITS=off', () => {
  it('admits everything and sends no rate-limit headers', async () => {
    const stack = await startStack({ sandbox, env: { RATE_LIMITS: 'off', RATE_LIMIT_READ_PER_MINUTE: 2 } });
    const { count, results } = await burst([stack], 10, (s) => s.get('/open/v1/topic-categories', KEYS.aliceRead));
    expect(count(200)).toBe(10);
    expect((results[0] as Awaited<ReturnType<Stack['get']>>).headers.get('x-ratelimit-limit')).toBeNull();
    await stack.close();
  });
});

describe('failed authentication per client address', () => {
  it('throttles guessing after AUTH_ATTEMPTS_PER_MINUTE failures, while a known-valid key keeps working', async () => {
    const stack = await startStack({ sandbox, env: { AUTH_ATTEMPTS_PER_MINUTE: 5 } });
    expect((await stack.get('/open/v1/topic-categories', KEYS.aliceRead)).status).toBe(200);
    const guesses = [];
    for (let i = 0; i < 8; i++)
      guesses.push((await stack.get('/open/v1/topic-categories', `opk_test_guess_${String(i).padStart(12, '0')}`)).status);
    // Past the budget, verification is metered (1 a second for 5 a minute), not blocked.
    expect(guesses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    const refused = await stack.get('/open/v1/topic-categories', 'opk_test_guess_999999999999');
    expect((refused.body as any).error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await stack.get('/open/v1/topic-categories', KEYS.aliceRead)).status).toBe(200);
    await stack.close();
  });
});
