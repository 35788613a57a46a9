/**
 * Backend trouble, end to end (docs/operations.md, "When the backend fails"): the sandbox
 * behind a gateway, broken with fault injection or closed outright. After
 * UPSTREAM_BREAKER_THRESHOLD failed calls the breaker opens and requests are answered at once
 * with the contract's 500 INTERNAL envelope, without reaching the backend; after the cool-down
 * one probe goes through and a healthy backend is served again. GETs are retried on 503;
 * identical concurrent public reads share one backend call.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope, TopicDetail, ZoneList } from '../../src/contract/index.ts';
import { outcomeId, startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { type DeadlinePair, startDeadlinePair } from '../helpers/deadline-pair.ts';
import { settles, type HeldBackend } from '../helpers/held-backend.ts';
import { KEYS, MARKETS, SERVICE_TOKEN, startStack, type Reply, type Stack } from '../helpers/stack.ts';

const V1 = '/open/v1';
const KEY = KEYS.aliceRead;
const TIMEOUT_MS = 1_500;
const THRESHOLD = 3;
const COOLDOWN_MS = 1_000;

let sandbox: Sandbox;
let port = 0;
let stack: Stack;

beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
  port = Number(new URL(sandbox.url).port);
  stack = await startStack({
    sandbox,
    env: {
      RATE_LIMITS: 'off',
      UPSTREAM_TIMEOUT_MS: TIMEOUT_MS,
      UPSTREAM_BREAKER_THRESHOLD: THRESHOLD,
      UPSTREAM_BREAKER_COOLDOWN_MS: COOLDOWN_MS,
    },
  });
  // The keys' verdicts are cached in-process: the faults below hit only the operations.
  for (const k of [KEY, KEYS.aliceWrite, KEYS.bobWrite]) expect((await stack.get(`${V1}/me`, k)).status).toBe(200);
});
afterAll(async () => {
  await stack?.close();
  await sandbox?.close();
});
afterEach(async () => {
  await clearFaults();
});

async function clearFaults(): Promise<void> {
  await stack.admin('DELETE', '/faults');
}

/** Add a fault; returns a function telling how many requests it has met so far. */
async function fault(spec: Record<string, unknown>): Promise<() => Promise<number>> {
  const times = typeof spec['times'] === 'number' ? spec['times'] : 10_000;
  const { faultId } = (await stack.admin('POST', '/faults', { ...spec, times })) as { faultId: number };
  return async () => {
    const { items } = (await stack.admin('GET', '/faults')) as { items: { id: number; remaining: number }[] };
    const f = items.find((i) => i.id === faultId);
    return f === undefined ? times : times - f.remaining;
  };
}

const get = (path: string): Promise<Reply> => stack.get(path, KEY);

function expectInternal(r: Reply): void {
  expect(r.status, JSON.stringify(r.body)).toBe(500);
  expect(ErrorEnvelope.parse(r.body).error.code).toBe('INTERNAL');
  expect(Object.keys(r.body as object)).toEqual(['error']);
}

const breaker = () => stack.app.services.upstream.breakerState;

/** Wait out the cool-down, then a good call closes the breaker again. */
async function recover(): Promise<void> {
  await new Promise((r) => setTimeout(r, COOLDOWN_MS + 50));
  const r = await get(`${V1}/zones`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(breaker()).toBe('closed');
}

describe('a backend answering 503', () => {
  it('GETs are retried, so one 503 is invisible to the caller', async () => {
    const met = await fault({ method: 'GET', pathPrefix: '/internal/zones', status: 503, body: { errCode: 99999 }, times: 1 });
    expect(ZoneList.parse((await stack.get(`${V1}/zones`, KEY)).body).data).toHaveLength(3);
    expect(await met()).toBe(1);
  });

  it('after the threshold, requests are answered fast with 500 INTERNAL and reach no backend', async () => {
    const met = await fault({ pathPrefix: '/internal/', status: 503, body: { errCode: 99999, errMsg: 'down' } });
    for (let i = 0; i < THRESHOLD; i++) expectInternal(await get(`${V1}/zones`));
    expect(breaker()).toBe('open');
    const reached = await met();
    expect(reached).toBe(THRESHOLD * 3); // each GET: 1 attempt + 2 retries

    for (const path of [`${V1}/zones`, `${V1}/topics`, `${V1}/topics/${MARKETS.aliceOpen}`, `${V1}/me`, `${V1}/topics?type=poll`]) {
      expectInternal(await get(path));
    }
    // Refused by the open breaker: none of them reached the backend.
    expect(await met()).toBe(reached);
    await clearFaults();
    await recover();
  });

  it('an order is refused fast too while the breaker is open, charges nothing, and its token works afterwards', async () => {
    const p = await stack.post(`${V1}/topics/${MARKETS.boosted}/order-preview`, KEYS.aliceWrite, {
      option_id: outcomeId(MARKETS.boosted, 1),
      amount_coins: 10,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const token = p.body.confirm_token as string;
    const orders = async () => ((await stack.admin('GET', '/counters')) as { performed: { order: number } }).performed.order;
    const before = await orders();

    await fault({ pathPrefix: '/internal/', status: 503, body: { errCode: 99999 } });
    for (let i = 0; i < THRESHOLD; i++) await stack.get(`${V1}/zones`, KEY);
    expect(breaker()).toBe('open');
    const r = await stack.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: token });
    expectInternal(r);
    expect(await orders()).toBe(before);

    await clearFaults();
    await recover();
    // The refusal performed nothing and gave the token's claim back: the order goes through once.
    const placed = await stack.post(`${V1}/orders`, KEYS.aliceWrite, { confirm_token: token });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(await orders()).toBe(before + 1);
    expect(await stack.admin('GET', '/audit')).toMatchObject({ ok: true });
  });
});

describe('a backend that hangs', () => {
  // The held backend behind a gateway with the file's deadline and breaker and a patient one
  // (../helpers/deadline-pair.ts): no clock is read.
  let pair: DeadlinePair;
  let backend: HeldBackend;
  let short: Stack;
  let patient: Stack;

  beforeAll(async () => {
    pair = await startDeadlinePair(sandbox, TIMEOUT_MS, {
      RATE_LIMITS: 'off',
      UPSTREAM_BREAKER_THRESHOLD: THRESHOLD,
      UPSTREAM_BREAKER_COOLDOWN_MS: COOLDOWN_MS,
    });
    ({ backend, short, patient } = pair);
  });
  afterEach(() => {
    backend.releaseAll();
  });
  afterAll(async () => {
    await pair?.close();
  });

  it('costs K timeouts, then requests are refused by the open breaker without reaching the backend', async () => {
    const hold = backend.hold('/internal/');
    const waiting = settles(patient.get(`${V1}/zones`, KEY));
    await hold.arrival(1);
    for (let i = 0; i < THRESHOLD; i++) {
      expectInternal(await short.get(`${V1}/zones`, KEY));
      // The request reached the backend, which still holds it (as it holds the other gateway's):
      // the gateway's deadline ended the wait, not an answer of the backend.
      await hold.arrival(2 + i);
      expect(waiting.settled).toBe(false);
    }
    expect(short.app.services.upstream.breakerState).toBe('open');
    // A timeout is never retried: one backend request per call. Any later arrival settles this.
    const more = settles(hold.arrival(2 + THRESHOLD));
    for (let i = 0; i < 10; i++) expectInternal(await short.get(`${V1}/topics`, KEY));
    // Answered while the backend still holds everything, and none of them reached it: refused by
    // the open breaker, without waiting on the hanging backend.
    expect(more.settled).toBe(false);
    expect(waiting.settled).toBe(false);

    // The backend was only slow: released, it answers the patient gateway's request.
    hold.release();
    expect(ZoneList.parse((await waiting.reply).body).data).toHaveLength(3);
    // After the cool-down, a good call closes the short gateway's breaker again.
    await new Promise((r) => setTimeout(r, COOLDOWN_MS + 50));
    const r = await short.get(`${V1}/zones`, KEY);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(short.app.services.upstream.breakerState).toBe('closed');
  });
});

describe('a backend that is gone (closed)', () => {
  it('refused connections open the breaker; the backend back on its port is served again after the cool-down', async () => {
    await sandbox.close();
    try {
      for (let i = 0; i < THRESHOLD; i++) expectInternal(await get(`${V1}/zones`));
      expect(breaker()).toBe('open');
      for (let i = 0; i < 10; i++) expectInternal(await get(`${V1}/topics/${MARKETS.boosted}`));
    } finally {
      // The backend comes back on the same port (also when an assertion above failed, so the
      // tests after this one still have a backend).
      sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN, port });
    }
    // While the breaker is open, still refused.
    expectInternal(await get(`${V1}/zones`));
    await new Promise((r) => setTimeout(r, COOLDOWN_MS + 50));
    const probe = await get(`${V1}/topics/${MARKETS.boosted}`);
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    expect(TopicDetail.parse(probe.body).id).toBe(MARKETS.boosted);
    expect(breaker()).toBe('closed');
  });
});

describe('coalescing identical public reads', () => {
  it('10 concurrent identical topic reads make one backend call; every caller gets the topic', async () => {
    // A slow backend answer keeps the first call in flight while the others arrive.
    const keys = [KEYS.aliceRead, KEYS.aliceWrite, KEYS.bobWrite];
    // Keys verified beforehand, so no caller's key check delays its read past the first one's.
    for (const key of keys) expect((await stack.get(`${V1}/topic-categories`, key)).status).toBe(200);
    const met = await fault({ method: 'GET', pathPrefix: `/internal/prediction/markets/${MARKETS.boosted}`, delayMs: 500 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => stack.get(`${V1}/topics/${MARKETS.boosted}`, keys[i % keys.length])),
    );
    for (const r of answers) {
      expect(r.status).toBe(200);
      expect(TopicDetail.parse(r.body).id).toBe(MARKETS.boosted);
    }
    expect(await met()).toBe(1);
  });

  it('viewer-dependent reads (polls) are not coalesced', async () => {
    const met = await fault({ method: 'GET', pathPrefix: '/internal/poll/polls', delayMs: 200 });
    const answers = await Promise.all(Array.from({ length: 4 }, () => stack.get(`${V1}/topics?type=poll`, KEY)));
    for (const r of answers) expect(r.status).toBe(200);
    expect(await met()).toBe(4);
  });

  it('every upstream call is measured by endpoint template', async () => {
    await stack.get(`${V1}/topics/${MARKETS.aliceOpen}`, KEY);
    const text = await stack.app.services.metrics.registry.metrics();
    expect(text).toMatch(
      /openpm_upstream_request_duration_seconds_count\{endpoint="\/internal\/prediction\/markets\/\{id\}",method="GET",outcome="ok"\} [1-9]/,
    );
    expect(text).toMatch(
      /openpm_upstream_request_duration_seconds_count\{endpoint="\/internal\/zones",method="GET",outcome="failed"\} [1-9]/,
    );
  });
});
