/**
 * The generated client (clients/typescript/src/generated/, wrapped by createOpenPmClient)
 * against the sandbox over real HTTP, the way an integrator uses it: reads, owner reads, the
 * two-phase flow with its replay, and errors as typed OpenPmErrors.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOpenPmClient,
  getMyProfile,
  getTopic,
  isRetryable,
  listMyOpinions,
  listMyPositions,
  listTopics,
  OpenPmError,
  placeOrder,
  previewConfirmExecute,
  previewOrder,
  searchTopics,
  type Client,
} from '../../clients/typescript/src/index.ts';
import { genericMarketId, outcomeId } from '../../sandbox/index.ts';
import { KEYS, MARKETS, startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
let client: Client;

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
  client = createOpenPmClient({ baseUrl: `${stack.url}/open/v1`, apiKey: KEYS.aliceWrite });
});
afterAll(async () => {
  await stack?.close();
});

/** The rejection of a call, for asserting on it. */
const failure = (call: Promise<unknown>): Promise<unknown> =>
  call.then(
    () => expect.fail('the call succeeded'),
    (err: unknown) => err,
  );

describe('generated client: reads', () => {
  it('lists, pages and reads a topic in detail', async () => {
    const { data: page, response } = await listTopics({ client, query: { limit: 3 } });
    expect(response.status).toBe(200);
    expect(page.data).toHaveLength(3);
    expect(page.has_more).toBe(true);
    expect(page.data.every((t) => t.type === 'prediction')).toBe(true);

    const next = await listTopics({ client, query: { limit: 3, cursor: page.next_cursor ?? '' } });
    const ids = new Set([...page.data, ...next.data.data].map((t) => t.id));
    expect(ids.size).toBe(6);

    const first = page.data[0];
    if (first === undefined) throw new Error('empty page');
    const { data: detail } = await getTopic({ client, path: { topic_id: first.id } });
    expect(detail).toMatchObject({ id: first.id, type: 'prediction', title: first.title });
    if (detail.type !== 'prediction') throw new Error('not a prediction');
    expect(detail.stake_rules.min_coins).toBeLessThanOrEqual(detail.stake_rules.max_coins);
  });

  it('searches, and sends headers given to the client (Accept-Language)', async () => {
    const { data: found } = await searchTopics({ client, query: { q: 'metro', type: 'prediction' } });
    const metro = found.data.find((t) => t.title.includes('metro line'));
    expect(metro, JSON.stringify(found.data.map((t) => t.title))).toBeDefined();

    const inChinese = createOpenPmClient({
      baseUrl: `${stack.url}/open/v1`,
      apiKey: KEYS.aliceRead,
      headers: { 'Accept-Language': 'zh-TW' },
    });
    const { data: translated, response } = await getTopic({ client: inChinese, path: { topic_id: metro?.id ?? '' } });
    expect(response.headers.get('content-language')).toBe('zh-TW');
    expect(translated.title).toBe('新捷運線會在截止日前通車嗎？');
  });

  it("reads the key owner's profile, positions and opinions", async () => {
    const { data: me } = await getMyProfile({ client });
    expect(me.handle).toMatch(/\S/);
    expect(me.coins).toMatch(/^\d+\.\d{4}$/);

    const { data: positions } = await listMyPositions({ client, query: { limit: 100 } });
    expect(positions.data.some((p) => p.topic_id === MARKETS.aliceOpen)).toBe(true);

    const { data: opinions } = await listMyOpinions({ client, query: { limit: 100 } });
    expect(opinions.data.length).toBeGreaterThan(0);
  });
});

describe('generated client: the two-phase flow', () => {
  it('previews, executes what the user confirmed, and replays the same order for the same token', async () => {
    const topic = genericMarketId(3);
    const coins = async () => Number((await getMyProfile({ client })).data.coins);
    const before = await coins();

    const outcome = await previewConfirmExecute({
      preview: async () =>
        (await previewOrder({ client, path: { topic_id: topic }, body: { option_id: outcomeId(topic, 1), amount_coins: 15 } })).data,
      confirm: (p) => p.summary.stake_coins === '15.0000',
      execute: async (token) => (await placeOrder({ client, body: { confirm_token: token } })).data,
    });
    expect(outcome.status).toBe('executed');
    if (outcome.status !== 'executed') return;
    expect(outcome.result).toMatchObject({ topic_id: topic, option_id: outcomeId(topic, 1), stake_coins: '15.0000', replayed: false });
    expect(await coins()).toBe(before - 15);

    // Presenting the token again (as a retry after a lost answer would) answers the same order.
    const token = outcome.preview.confirm_token ?? '';
    const again = await placeOrder({ client, body: { confirm_token: token } });
    expect(again.response.status).toBe(200);
    expect(again.data).toEqual({ ...outcome.result, replayed: true });
    expect(await coins()).toBe(before - 15);
  });

  it('reports a preview that refuses without asking the user', async () => {
    const topic = genericMarketId(4);
    let asked = false;
    const outcome = await previewConfirmExecute({
      preview: async () =>
        (await previewOrder({ client, path: { topic_id: topic }, body: { option_id: outcomeId(topic, 1), amount_coins: 999_999 } })).data,
      confirm: () => (asked = true),
      execute: () => Promise.reject(new Error('must not run')),
    });
    expect(outcome).toMatchObject({ status: 'refused', reason: 'STAKE_OUT_OF_RANGE' });
    expect(asked).toBe(false);
  });
});

describe('generated client: errors', () => {
  it('rejects with an OpenPmError carrying status, code, field and request id', async () => {
    const invalid = await failure(listTopics({ client, query: { limit: 0 } }));
    expect(invalid).toBeInstanceOf(OpenPmError);
    const e = invalid as OpenPmError;
    expect([e.status, e.code, e.field]).toEqual([400, 'INVALID_ARGUMENT', 'limit']);
    expect(e.requestId).toMatch(/\S+/);
    expect(isRetryable(e)).toBe(false);

    const missing = await failure(getTopic({ client, path: { topic_id: MARKETS.hidden } }));
    expect(missing).toMatchObject({ name: 'OpenPmError', status: 404, code: 'NOT_FOUND' });

    const readOnly = createOpenPmClient({ baseUrl: `${stack.url}/open/v1`, apiKey: KEYS.aliceRead });
    const topic = genericMarketId(6);
    const scope = await failure(
      previewOrder({ client: readOnly, path: { topic_id: topic }, body: { option_id: outcomeId(topic, 1), amount_coins: 10 } }),
    );
    expect(scope).toMatchObject({ name: 'OpenPmError', status: 403, code: 'FORBIDDEN_SCOPE' });

    const revoked = createOpenPmClient({ baseUrl: `${stack.url}/open/v1`, apiKey: KEYS.carolRevoked });
    expect(await failure(getMyProfile({ client: revoked }))).toMatchObject({ name: 'OpenPmError', status: 401, code: 'UNAUTHORIZED' });
  });

  it('an execution refused for a bad token is not retried', async () => {
    let attempts = 0;
    const err = await failure(
      previewConfirmExecute({
        preview: async () => ({ summary: {}, confirm_token: 'ct1.k1.bm90LWEtdG9rZW4.Zm9yZ2Vk' }),
        confirm: () => true,
        execute: async (token) => {
          attempts++;
          return (await placeOrder({ client, body: { confirm_token: token } })).data;
        },
        sleep: async () => {},
      }),
    );
    expect(err).toMatchObject({ name: 'OpenPmError', status: 400, code: 'CONFIRM_TOKEN_INVALID' });
    expect(attempts).toBe(1);
  });

  it('leaves a failure without an answer as it is, which the two-phase helper may retry', async () => {
    // A port that was free a moment ago: the connection is refused, so there is no answer.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    const nowhere = createOpenPmClient({ baseUrl: `http://127.0.0.1:${port}/open/v1`, apiKey: KEYS.aliceRead });
    const err = await failure(getMyProfile({ client: nowhere }));
    expect(err).toBeInstanceOf(TypeError);
    expect(isRetryable(err)).toBe(true);
  });
});
