/**
 * Upstream faults on the read surface, end to end: the sandbox answers with a wrong shape, a
 * non-JSON body, an error envelope of an unknown code (with HTTP 200, as the poll service
 * does), a 5xx, or too slowly. The gateway answers `500 INTERNAL` in the contract envelope:
 * never a partial shape, a stack trace or the upstream's own message.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope, TopicDetail, TopicList, ZoneList } from '../../src/contract/index.ts';
import { API, clearFaults, expectContract, expectOk } from '../helpers/contract-assert.ts';
import { type DeadlinePair, startDeadlinePair } from '../helpers/deadline-pair.ts';
import { settles, type HeldBackend } from '../helpers/held-backend.ts';
import { KEYS, MARKETS, POLLS, SERVICE_TOKEN, USERS, startStack, type Reply, type Stack } from '../helpers/stack.ts';

let stack: Stack;
const KEY: string = KEYS.aliceRead;
const TIMEOUT_MS = 300;
const SECRET = 'UPSTREAM-SECRET-errMsg-7f3a';

beforeAll(async () => {
  // The breaker is off: these tests fail the backend on purpose, many times in a row.
  stack = await startStack({ env: { RATE_LIMITS: 'off', UPSTREAM_TIMEOUT_MS: TIMEOUT_MS, UPSTREAM_BREAKER_THRESHOLD: 0 } });
  await stack.get(`${API}/me`, KEY); // key verdict cached: faults below hit only the operations
});
afterAll(async () => {
  await stack?.close();
});
afterEach(async () => {
  await clearFaults(stack);
});

type FaultSpec = { method?: string; pathPrefix: string; status?: number; body?: unknown; times?: number };

async function fault(spec: FaultSpec): Promise<void> {
  await stack.admin('POST', '/faults', { method: 'GET', ...spec });
}

/** The raw answer of the sandbox, as the gateway would get it. */
async function upstream(path: string): Promise<{ errCode: number; data: Record<string, unknown> }> {
  const res = await fetch(`${stack.sandbox.url}${path}`, {
    headers: { 'x-service-token': SERVICE_TOKEN, 'x-acting-user': USERS.alice },
  });
  return (await res.json()) as { errCode: number; data: Record<string, unknown> };
}

/** 500 INTERNAL, the strict envelope and nothing else: no data, no stack, no upstream text. */
function expectInternal(reply: Reply, ...mustNotContain: string[]): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(500);
  const env = expectContract(ErrorEnvelope, reply.body);
  expect(env.error.code).toBe('INTERNAL');
  expect(Object.keys(reply.body as object)).toEqual(['error']);
  const text = JSON.stringify(reply.body);
  for (const bad of [SECRET, 'stack', '.ts:', 'at async', 'ZodError', 'undici', 'errMsg', 'errCode', ...mustNotContain]) {
    expect(text, `body leaks ${bad}`).not.toContain(bad);
  }
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
}

const READS: [string, string][] = [
  ['/internal/zones', `${API}/zones`],
  ['/internal/prediction/categories', `${API}/topic-categories`],
  ['/internal/prediction/markets', `${API}/topics`],
  [`/internal/prediction/markets/${MARKETS.aliceOpen}`, `${API}/topics/${MARKETS.aliceOpen}`],
  ['/internal/poll/polls', `${API}/topics?type=poll`],
  [`/internal/poll/polls/${POLLS.aliceVoted}`, `${API}/topics/${POLLS.aliceVoted}?type=poll`],
  ['/internal/search', `${API}/search?q=will&type=prediction`],
  ['/internal/users/by-handle/', `${API}/users/erin/topics`],
  [`/internal/users/${USERS.alice}/profile`, `${API}/me`],
  [`/internal/users/${USERS.alice}/favorites`, `${API}/me/watchlist`],
  [`/internal/wallet/${USERS.alice}/ledger`, `${API}/me/ruby-ledger`],
  [`/internal/prediction/users/${USERS.alice}/holdings`, `${API}/me/positions`],
  ['/internal/contests/', `${API}/contests/00000000-0000-4000-8000-00000000c004`],
];

describe('a broken upstream answer is 500 INTERNAL on every read', () => {
  it('a wrong shape (data that breaks the internal schema)', async () => {
    for (const [prefix, path] of READS) {
      await fault({ pathPrefix: prefix, status: 200, body: { errCode: 0, data: { items: [{ surprise: SECRET }], total: 'many' } } });
      expectInternal(await stack.get(path, KEY), 'surprise');
      await clearFaults(stack);
    }
  });

  it('a success envelope without data, and a bare JSON value', async () => {
    for (const body of [{ errCode: 0 }, [1, 2, 3], 'null', '"text"', { data: { items: [] } }]) {
      await fault({ pathPrefix: '/internal/zones', status: 200, body });
      expectInternal(await stack.get(`${API}/zones`, KEY));
      await clearFaults(stack);
    }
  });

  it('a non-JSON body, with 200 and with 502', async () => {
    for (const [status, body] of [
      [200, '{not json'],
      [200, ''],
      [502, '<html><body>Bad gateway: upstream SECRET</body></html>'],
    ] as const) {
      for (const [prefix, path] of READS.slice(0, 6)) {
        await fault({ pathPrefix: prefix, status, body: body.replace('SECRET', SECRET) });
        expectInternal(await stack.get(path, KEY), 'html', 'not json');
        await clearFaults(stack);
      }
    }
  });

  it('an error envelope with HTTP 200 and a code the gateway does not know', async () => {
    for (const [prefix, path] of READS) {
      await fault({ pathPrefix: prefix, status: 200, body: { errCode: 424242, errMsg: SECRET } });
      expectInternal(await stack.get(path, KEY), '424242');
      await clearFaults(stack);
    }
  });

  it("a 5xx, with the backend's internal error code, an unknown one, or no body", async () => {
    for (const body of [{ errCode: 99999, errMsg: SECRET }, { errCode: 31337, errMsg: SECRET }, '']) {
      // 502/503/504 are retried by the client (with a backoff), so fewer reads for those.
      for (const [status, reads] of [
        [500, READS],
        [503, READS.slice(0, 3)],
        [504, READS.slice(3, 5)],
      ] as const) {
        for (const [prefix, path] of reads) {
          await fault({ pathPrefix: prefix, status, body });
          expectInternal(await stack.get(path, KEY), '31337', '99999');
          await clearFaults(stack);
        }
      }
    }
  });

  it('a complete answer with one unknown enum value is refused, not guessed at', async () => {
    const market = await upstream(`/internal/prediction/markets/${MARKETS.aliceOpen}`);
    expect(market.errCode).toBe(0);
    for (const patch of [{ state: 'FROZEN' }, { pricingModel: 'CLOB' }, { auditState: 'SHADOW' }]) {
      await fault({
        pathPrefix: `/internal/prediction/markets/${MARKETS.aliceOpen}`,
        status: 200,
        body: { errCode: 0, data: { ...market.data, ...patch } },
      });
      expectInternal(await stack.get(`${API}/topics/${MARKETS.aliceOpen}`, KEY), 'FROZEN', 'CLOB', 'SHADOW');
      await clearFaults(stack);
    }
    // The same answer unpatched passes through the fault path unharmed.
    await fault({ pathPrefix: `/internal/prediction/markets/${MARKETS.aliceOpen}`, status: 200, body: market });
    expect(expectOk(await stack.get(`${API}/topics/${MARKETS.aliceOpen}`, KEY), TopicDetail).id).toBe(MARKETS.aliceOpen);
  });

  it('a failure in the second of two backend calls never yields a partial answer', async () => {
    // price history: detail first, then history.
    await fault({
      pathPrefix: `/internal/prediction/markets/${MARKETS.aliceOpen}/price-history`,
      status: 500,
      body: { errCode: 99999, errMsg: SECRET },
    });
    expectInternal(await stack.get(`${API}/topics/${MARKETS.aliceOpen}/price-history`, KEY));
    // comments: detail first, then the opinions.
    await fault({
      pathPrefix: `/internal/prediction/markets/${MARKETS.aliceOpen}/opinions`,
      status: 200,
      body: '{"errCode":0,"data":{"items":[',
    });
    expectInternal(await stack.get(`${API}/topics/${MARKETS.aliceOpen}/comments`, KEY));
    await fault({
      pathPrefix: `/internal/poll/polls/${POLLS.aliceVoted}/comments`,
      status: 200,
      body: { errCode: 424242, errMsg: SECRET },
    });
    expectInternal(await stack.get(`${API}/topics/${POLLS.aliceVoted}/comments`, KEY));
    // detail of a poll probes the prediction service first: a broken probe is not a "not found".
    await fault({ pathPrefix: `/internal/prediction/markets/${POLLS.aliceVoted}`, status: 503, body: '' });
    expectInternal(await stack.get(`${API}/topics/${POLLS.aliceVoted}`, KEY));
    // search type=all: one of its two backend searches fails.
    await fault({ pathPrefix: '/internal/search', status: 500, body: { errCode: 99999, errMsg: SECRET }, times: 1 });
    expectInternal(await stack.get(`${API}/search?q=the`, KEY));
  });

  it('a hidden or missing topic behind a broken backend is 500, not a 404', async () => {
    await fault({ pathPrefix: '/internal/poll/', status: 500, body: { errCode: 99999 } });
    expectInternal(await stack.get(`${API}/topics/${MARKETS.hidden}`, KEY));
    expectInternal(await stack.get(`${API}/topics/00000000-0000-4000-8000-00000000beef`, KEY));
  });

  it("the request id is echoed on a 500, a caller's sane one kept", async () => {
    await fault({ pathPrefix: '/internal/zones', status: 500, body: { errCode: 99999, errMsg: SECRET } });
    const mine = await stack.get(`${API}/zones`, KEY, { 'x-request-id': 'fault-req-0001' });
    expectInternal(mine);
    expect(mine.headers.get('x-request-id')).toBe('fault-req-0001');
    const fresh = await stack.get(`${API}/zones`, KEY);
    expectInternal(fresh);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the upstream recovers: once the fault is gone the read answers normally', async () => {
    await fault({ pathPrefix: '/internal/prediction/markets', status: 500, body: { errCode: 99999 }, times: 1 });
    expectInternal(await stack.get(`${API}/topics`, KEY));
    expect(expectOk(await stack.get(`${API}/topics`, KEY), TopicList).data).toHaveLength(20);
  });
});

describe('a backend that does not answer', () => {
  // The held backend behind a gateway with the file's deadline and a patient one
  // (../helpers/deadline-pair.ts): whichever answers before the release shows whose deadline
  // ended the wait, so a busy machine cannot make it fail.
  let pair: DeadlinePair;
  let backend: HeldBackend;
  let short: Stack;
  let patient: Stack;

  beforeAll(async () => {
    pair = await startDeadlinePair(stack.sandbox, TIMEOUT_MS, { RATE_LIMITS: 'off', UPSTREAM_BREAKER_THRESHOLD: 0 });
    ({ backend, short, patient } = pair);
  });
  afterEach(() => {
    backend.releaseAll();
  });
  afterAll(async () => {
    await pair?.close();
  });

  it(`UPSTREAM_TIMEOUT_MS (${TIMEOUT_MS} ms) ends the wait: 500 INTERNAL while the backend still holds the request`, async () => {
    for (const [prefix, path] of [
      ['/internal/zones', `${API}/zones`],
      [`/internal/prediction/markets/${MARKETS.aliceOpen}`, `${API}/topics/${MARKETS.aliceOpen}`],
      ['/internal/poll/polls', `${API}/topics?type=poll`],
    ] as const) {
      const hold = backend.hold(prefix);
      const waiting = settles(patient.get(path, KEY));
      await hold.arrival(1);
      const r = await short.get(path, KEY, { 'x-request-id': 'slow-upstream-1' });
      expectInternal(r);
      expect(r.headers.get('x-request-id')).toBe('slow-upstream-1');
      // The same backend holds the other gateway's request too: only the short deadline has ended.
      expect(waiting.settled).toBe(false);
      hold.release();
      expect((await waiting.reply).status).toBe(200);
    }
  });

  it('an answer slower than usual but inside the deadline is served normally', async () => {
    const hold = backend.hold('/internal/zones');
    const waiting = settles(patient.get(`${API}/zones`, KEY));
    await hold.arrival(1);
    expect(waiting.settled).toBe(false);
    hold.release();
    expect(expectOk(await waiting.reply, ZoneList).data).toHaveLength(3);
  });
});
