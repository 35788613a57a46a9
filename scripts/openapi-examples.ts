/**
 * Captures the examples of the OpenAPI document from real answers: it starts the sandbox backend
 * and gateways in this process (fixed clock, fixed secrets), calls every operation, success and
 * failure, and keeps what they answered. `npm run openapi` writes the result to
 * src/surfaces/rest/openapi-examples.json before it writes docs/openapi.json; a test captures again and
 * compares, so the examples cannot drift from what the gateway really says.
 *
 * Volatile values are normalised: confirm tokens (random `jti`, long) become one readable
 * placeholder, and the random id of a published opinion becomes a fixed one.
 */
import { writeFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { configFrom, type Config } from '../src/config.ts';
import { ErrorEnvelope } from '../src/contract/common.ts';
import type { Example, OpenApiExamples, OperationExamples } from '../src/surfaces/rest/openapi.ts';
import {
  CATEGORIES,
  CONTESTS,
  HIDDEN_TOPIC_ID,
  KEYS,
  MARKETS,
  OPINIONS,
  POLLS,
  USERS,
  genericMarketId,
  outcomeId,
  startSandbox,
  type Sandbox,
} from '../sandbox/index.ts';

/** The instant every capture runs at: the sandbox seeds its world relative to it. */
export const EXAMPLES_CLOCK = Date.parse('2026-03-02T09:30:00.000Z');
const SERVICE_TOKEN = 'examples-service-token';
const API = '/open/v1';
const EXAMPLE_TOKEN = 'ct1.k1.eyJqdGkiOiJleGFtcGxlIn0.bWFjLW9mLXRoZS1leGFtcGxl';
const PUBLISHED_OPINION_ID = '00000000-0000-4000-8000-0000000e0100';

interface Reply {
  status: number;
  body: unknown;
}

interface Gateway {
  app: FastifyInstance;
  url: string;
}

async function gateway(sandbox: Sandbox, now: () => number, env: Partial<Record<keyof Config, string>> = {}): Promise<Gateway> {
  const config = configFrom({
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
    LOG_LEVEL: 'silent',
    CURSOR_SECRET: 'examples-cursor-secret-0123456789',
    CONFIRM_KEYS: `k1:${'e'.repeat(40)}`,
    RATE_LIMITS: 'off',
    ...env,
  });
  const app = await buildApp(config, { logger: false, now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}` };
}

async function call(
  gw: Gateway,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) headers['authorization'] = `Bearer ${opts.key}`;
  let body = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(gw.url + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text, and refused below where an envelope is expected.
  }
  return { status: res.status, body: parsed };
}

function query(params: Record<string, string | number>): string {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return q === '' ? '' : `?${q}`;
}

/** Collects the examples; refuses any answer whose status is not the one expected. */
class Recorder {
  readonly operations: Record<string, OperationExamples> = {};
  readonly shared: Record<string, Record<string, Example>> = {};

  #op(name: string): OperationExamples {
    return (this.operations[name] ??= { parameters: {}, responses: {} });
  }

  parameters(op: string, params: Record<string, string | number>): void {
    this.#op(op).parameters = params;
  }

  body(op: string, name: string, summary: string, value: unknown): void {
    (this.#op(op).requestBodies ??= {})[name] = { summary, value };
  }

  response(op: string, status: number, name: string, summary: string, reply: Reply): void {
    expectStatus(reply, status, `${op} ${name}`);
    ((this.#op(op).responses[String(status)] ??= {}) as Record<string, Example>)[name] = { summary, value: reply.body };
  }

  /** Answers shared by every operation (401, 429, 503…), taken once from a representative call. */
  common(
    status: number,
    name: string,
    summary: string,
    reply: Reply,
    fallback?: { code: 'INVALID_ARGUMENT'; message: string; details?: Record<string, unknown> },
  ): void {
    const envelope = ErrorEnvelope.safeParse(reply.body);
    if (reply.status === status && envelope.success) {
      (this.shared[String(status)] ??= {})[name] = { summary, value: reply.body };
      return;
    }
    // The gateway does not answer this one in the contract's envelope yet: document what the
    // contract says it is (docs/contract/errors.md#error-codes), marked so, until a capture sees the real one.
    if (fallback === undefined) expectStatus(reply, status, name);
    (this.shared[String(status)] ??= {})[name] = { summary, value: { error: fallback }, contract: true };
  }
}

function expectStatus(reply: Reply, status: number, what: string): void {
  if (reply.status !== status) {
    throw new Error(`examples: ${what} answered ${reply.status}, expected ${status}: ${JSON.stringify(reply.body).slice(0, 300)}`);
  }
}

function tokenOf(reply: Reply): string {
  const token = (reply.body as { confirm_token?: unknown }).confirm_token;
  if (typeof token !== 'string') throw new Error(`examples: no confirm_token in ${JSON.stringify(reply.body).slice(0, 300)}`);
  return token;
}

export async function captureExamples(): Promise<OpenApiExamples> {
  const sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN, now: () => EXAMPLES_CLOCK });
  let clock = EXAMPLES_CLOCK;
  const gw = await gateway(sandbox, () => clock);
  const others: Gateway[] = [];
  const rec = new Recorder();
  const tokens = new Set<string>();
  const keep = (reply: Reply): Reply => {
    const t = (reply.body as { confirm_token?: unknown } | null)?.confirm_token;
    if (typeof t === 'string') tokens.add(t);
    return reply;
  };
  const alice = KEYS.aliceWrite;
  const get = (path: string, params: Record<string, string | number> = {}, key: string = alice) =>
    call(gw, 'GET', path + query(params), { key });
  const post = async (path: string, body: unknown, key: string = alice) => keep(await call(gw, 'POST', path, { key, body }));

  try {
    // ---- Reads -------------------------------------------------------------------------------
    const search = { q: 'will', type: 'prediction', limit: 2 };
    rec.parameters('search_topics', search);
    rec.response('search_topics', 200, 'predictions', 'Predictions matching “will”, two per page', await get(`${API}/search`, search));
    rec.response('search_topics', 400, 'missing_q', 'No keyword given', await get(`${API}/search`, { type: 'prediction' }));

    const topics = { type: 'prediction', sort: 'trending', category_id: CATEGORIES.crypto, limit: 2 };
    rec.parameters('list_topics', topics);
    rec.response(
      'list_topics',
      200,
      'predictions',
      'Trending open predictions of one category, two per page',
      await get(`${API}/topics`, topics),
    );
    rec.response('list_topics', 200, 'polls', 'Open polls, one per page', await get(`${API}/topics`, { type: 'poll', limit: 1 }));
    rec.response(
      'list_topics',
      400,
      'poll_sort',
      'A prediction-only sort asked of polls',
      await get(`${API}/topics`, { type: 'poll', sort: 'ending_soon' }),
    );

    rec.response('list_topic_categories', 200, 'categories', 'Every category channel', await get(`${API}/topic-categories`));

    rec.parameters('get_topic', { topic_id: MARKETS.boosted });
    rec.response('get_topic', 200, 'prediction', 'A prediction with a live ruby boost', await get(`${API}/topics/${MARKETS.boosted}`));
    rec.response(
      'get_topic',
      200,
      'poll',
      'A poll the caller has voted on',
      await get(`${API}/topics/${POLLS.aliceVoted}`, { type: 'poll' }),
    );
    rec.response('get_topic', 404, 'hidden', 'A topic hidden by moderation', await get(`${API}/topics/${HIDDEN_TOPIC_ID}`));

    rec.parameters('list_topic_opinions', { topic_id: MARKETS.aliceOpen, limit: 2 });
    rec.response(
      'list_topic_opinions',
      200,
      'opinions',
      'Top-level opinions, two per page',
      await get(`${API}/topics/${MARKETS.aliceOpen}/comments`, { limit: 2 }),
    );
    rec.response(
      'list_topic_opinions',
      200,
      'gated',
      'A poll whose opinions unlock once the caller votes',
      await get(`${API}/topics/${POLLS.notVotedGated}/comments`),
    );
    rec.response(
      'list_topic_opinions',
      404,
      'hidden',
      'A topic hidden by moderation',
      await get(`${API}/topics/${HIDDEN_TOPIC_ID}/comments`),
    );

    rec.response('get_my_profile', 200, 'profile', 'The key owner', await get(`${API}/me`));
    const owner: [string, string, string][] = [
      ['list_my_positions', '/me/positions', 'Positions, newest first'],
      ['list_my_opinions', '/me/opinions', 'Opinions published by the key owner'],
      ['list_my_backed_opinions', '/me/backed-opinions', 'Opinions the key owner backed'],
      ['list_my_watchlist', '/me/watchlist', 'Watched topics'],
      ['list_my_coin_ledger', '/me/coin-ledger', 'Coin movements, newest first'],
      ['list_my_ruby_ledger', '/me/ruby-ledger', 'Ruby movements, newest first'],
    ];
    for (const [op, path, summary] of owner) {
      rec.parameters(op, { limit: 2 });
      rec.response(op, 200, 'page', `${summary}, two per page`, await get(API + path, { limit: 2 }));
    }
    rec.parameters('list_my_topics', { type: 'prediction', limit: 2 });
    rec.response(
      'list_my_topics',
      200,
      'page',
      'Predictions the key owner created, with moderation notes',
      await get(`${API}/me/topics`, { type: 'prediction', limit: 2 }),
    );

    rec.parameters('get_topic_price_history', { topic_id: MARKETS.uneven, range: '1d' });
    rec.response(
      'get_topic_price_history',
      200,
      'day',
      'The last day of a prediction',
      await get(`${API}/topics/${MARKETS.uneven}/price-history`, { range: '1d' }),
    );
    rec.response(
      'get_topic_price_history',
      404,
      'poll',
      'A poll has no price history',
      await get(`${API}/topics/${POLLS.aliceVoted}/price-history`),
    );

    rec.response('list_zones', 200, 'zones', 'Every zone', await get(`${API}/zones`));

    rec.parameters('get_contest', { contest_id: CONTESTS.settled });
    rec.response('get_contest', 200, 'settled', 'A settled contest', await get(`${API}/contests/${CONTESTS.settled}`));
    rec.response('get_contest', 404, 'unknown', 'No such contest', await get(`${API}/contests/00000000-0000-4000-8000-00000000c0ff`));

    rec.parameters('list_user_topics', { handle: 'openpm_official', type: 'prediction', limit: 2 });
    rec.response(
      'list_user_topics',
      200,
      'page',
      'Predictions a user created, two per page',
      await get(`${API}/users/openpm_official/topics`, { type: 'prediction', limit: 2 }),
    );
    rec.response('list_user_topics', 200, 'hidden', 'A user who hides their created topics', await get(`${API}/users/quiet_quinn/topics`));
    rec.response('list_user_topics', 404, 'unknown', 'No such user', await get(`${API}/users/nobody_here/topics`));

    // ---- Orders ------------------------------------------------------------------------------
    const orderPath = `${API}/topics/${MARKETS.boosted}/order-preview`;
    const order = { option_id: outcomeId(MARKETS.boosted, 1), amount_coins: 25 };
    rec.parameters('preview_order', { topic_id: MARKETS.boosted });
    rec.body('preview_order', 'can_place', 'Stake 25 coins on the first option', order);
    const placeable = await post(orderPath, order);
    rec.response('preview_order', 200, 'can_place', 'The order can be placed: a token to execute it', placeable);
    const again = await post(orderPath, order);
    const outOfRange = { option_id: order.option_id, amount_coins: 5000 };
    rec.body('preview_order', 'stake_out_of_range', "A stake above the topic's range", outOfRange);
    rec.response(
      'preview_order',
      200,
      'stake_out_of_range',
      "Refused: the stake is outside the topic's range",
      await post(orderPath, outOfRange),
    );
    rec.response(
      'preview_order',
      400,
      'quoted_amount',
      'amount_coins sent as a string',
      await post(orderPath, { option_id: order.option_id, amount_coins: '25' }),
    );
    rec.response(
      'preview_order',
      404,
      'hidden',
      'A topic hidden by moderation',
      await post(`${API}/topics/${HIDDEN_TOPIC_ID}/order-preview`, order),
    );

    rec.body('place_order', 'token', 'The token of an order preview', { confirm_token: tokenOf(placeable) });
    rec.response('place_order', 201, 'placed', 'The order is placed', await post(`${API}/orders`, { confirm_token: tokenOf(placeable) }));
    rec.response(
      'place_order',
      200,
      'replayed',
      'A retry with the same token: the same order, replayed',
      await post(`${API}/orders`, { confirm_token: tokenOf(placeable) }),
    );
    rec.response(
      'place_order',
      409,
      'already_staked',
      "A second token for a topic that now has the owner's order",
      await post(`${API}/orders`, { confirm_token: tokenOf(again) }),
    );
    rec.response(
      'place_order',
      400,
      'invalid_token',
      'A token that was not issued to this key',
      await post(`${API}/orders`, { confirm_token: 'ct1.k1.bm90LWEtdG9rZW4.Zm9yZ2Vk' }),
    );
    const stale = await post(`${API}/topics/${MARKETS.uneven}/order-preview`, {
      option_id: outcomeId(MARKETS.uneven, 2),
      amount_coins: 10,
    });
    clock += 6 * 60_000;
    rec.response(
      'place_order',
      410,
      'expired',
      'A token older than 5 minutes',
      await post(`${API}/orders`, { confirm_token: tokenOf(stale) }),
    );
    clock = EXAMPLES_CLOCK;
    // Bob has 5 coins: two previews of 5 each, the first order spends them, the second cannot.
    const bob = KEYS.bobWrite;
    const [m0, m3] = [genericMarketId(0), genericMarketId(3)];
    const first = await post(`${API}/topics/${m0}/order-preview`, { option_id: outcomeId(m0, 1), amount_coins: 5 }, bob);
    const second = await post(`${API}/topics/${m3}/order-preview`, { option_id: outcomeId(m3, 1), amount_coins: 5 }, bob);
    expectStatus(await post(`${API}/orders`, { confirm_token: tokenOf(first) }, bob), 201, 'bob spends his coins');
    rec.response(
      'place_order',
      422,
      'insufficient_balance',
      'The balance fell below the stake since the preview',
      await post(`${API}/orders`, { confirm_token: tokenOf(second) }, bob),
    );

    // ---- Opinions ----------------------------------------------------------------------------
    const opinionPath = `${API}/topics/${MARKETS.aliceOpen}/opinion-preview`;
    const opinion = { content: 'Turnout data keeps pointing the same way; I am holding.' };
    rec.parameters('preview_opinion', { topic_id: MARKETS.aliceOpen });
    rec.body('preview_opinion', 'can_publish', 'An opinion on a topic the owner holds a position on', opinion);
    const publishable = await post(opinionPath, opinion);
    rec.response('preview_opinion', 200, 'can_publish', 'The opinion can be published: a token to execute it', publishable);
    const reply = { content: 'Turnout says otherwise, as far as I can see.', reply_to_opinion_id: OPINIONS.graceOnAliceOpen };
    rec.body('preview_opinion', 'can_publish_reply', 'A reply to another opinion on the topic', reply);
    rec.response('preview_opinion', 200, 'can_publish_reply', 'The reply can be published', await post(opinionPath, reply));
    // Its body is the one above: only another topic (another path) makes it a refusal, so it is
    // not offered as a body example of this path.
    rec.response(
      'preview_opinion',
      200,
      'no_position',
      'Refused: opinions need a position on the topic',
      await post(`${API}/topics/${MARKETS.backable}/opinion-preview`, opinion),
    );
    rec.response(
      'preview_opinion',
      400,
      'missing_content',
      'No content',
      await post(opinionPath, { reply_to_opinion_id: OPINIONS.graceOnAliceOpen }),
    );
    const bidi = { content: 'Yes \u202eon no' };
    rec.body('preview_opinion', 'bidi_override', 'Text with a bidirectional override character', bidi);
    rec.response(
      'preview_opinion',
      200,
      'bidi_override',
      'Refused: the text holds a bidirectional override character (shown as U+FFFD)',
      await post(opinionPath, bidi),
    );
    // Bob spent his coins above: the fee is more than he has.
    rec.response(
      'preview_opinion',
      200,
      'insufficient_balance',
      'Refused: the fee is above the balance',
      await post(opinionPath, opinion, bob),
    );
    rec.response(
      'preview_opinion',
      404,
      'hidden',
      'A topic hidden by moderation',
      await post(`${API}/topics/${HIDDEN_TOPIC_ID}/opinion-preview`, opinion),
    );
    const moderated = await post(opinionPath, { content: 'Honestly this market is a scam.' });
    const staleOpinion = await post(opinionPath, { content: 'Second thoughts, a little later.' });

    rec.body('publish_opinion', 'token', 'The token of an opinion preview', { confirm_token: tokenOf(publishable) });
    const published = await post(`${API}/opinions`, { confirm_token: tokenOf(publishable) });
    rec.response('publish_opinion', 201, 'published', 'The opinion is published', published);
    rec.response(
      'publish_opinion',
      409,
      'used',
      'A retry with the same token: publishing is strictly single-use',
      await post(`${API}/opinions`, { confirm_token: tokenOf(publishable) }),
    );
    rec.response(
      'publish_opinion',
      422,
      'moderated',
      'The text was refused by moderation',
      await post(`${API}/opinions`, { confirm_token: tokenOf(moderated) }),
    );
    rec.response(
      'publish_opinion',
      400,
      'invalid_token',
      'A token that was not issued to this key',
      await post(`${API}/opinions`, { confirm_token: 'ct1.k1.bm90LWEtdG9rZW4.Zm9yZ2Vk' }),
    );
    clock += 6 * 60_000;
    rec.response(
      'publish_opinion',
      410,
      'expired',
      'A token older than 5 minutes',
      await post(`${API}/opinions`, { confirm_token: tokenOf(staleOpinion) }),
    );
    clock = EXAMPLES_CLOCK;

    // ---- Backs -------------------------------------------------------------------------------
    const backPath = `${API}/opinions/${OPINIONS.heidiBoosted}/back-preview`;
    const back = { topic_id: MARKETS.boosted };
    rec.parameters('preview_back', { opinion_id: OPINIONS.heidiBoosted });
    rec.body('preview_back', 'can_back', 'Back an opinion on a boosted topic', back);
    const backable = await post(backPath, back);
    rec.response('preview_back', 200, 'can_back', 'The back can be placed: a token to execute it', backable);
    const backAgain = await post(backPath, back);
    // No body example for it: with the operation's own path example it would back another opinion.
    rec.response(
      'preview_back',
      200,
      'full',
      'Refused: every seat of the relay is taken',
      await post(`${API}/opinions/${OPINIONS.erinFull}/back-preview`, { topic_id: MARKETS.fullRelay }),
    );
    rec.response('preview_back', 400, 'missing_topic', 'No topic_id', await post(backPath, {}));
    rec.response(
      'preview_back',
      404,
      'other_topic',
      'The opinion does not belong to that topic',
      await post(backPath, { topic_id: MARKETS.uneven }),
    );
    const staleBack = await post(`${API}/opinions/${OPINIONS.graceOnAliceOpen}/back-preview`, { topic_id: MARKETS.aliceOpen });

    rec.body('back_opinion', 'token', 'The token of a back preview', { confirm_token: tokenOf(backable) });
    rec.response('back_opinion', 201, 'backed', 'The back is placed', await post(`${API}/backs`, { confirm_token: tokenOf(backable) }));
    rec.response(
      'back_opinion',
      200,
      'replayed',
      'A retry with the same token: the same back, replayed',
      await post(`${API}/backs`, { confirm_token: tokenOf(backable) }),
    );
    rec.response(
      'back_opinion',
      409,
      'already_backed',
      'A second token for an opinion the owner has now backed',
      await post(`${API}/backs`, { confirm_token: tokenOf(backAgain) }),
    );
    rec.response(
      'back_opinion',
      400,
      'invalid_token',
      'A token that was not issued to this key',
      await post(`${API}/backs`, { confirm_token: 'ct1.k1.bm90LWEtdG9rZW4.Zm9yZ2Vk' }),
    );
    clock += 6 * 60_000;
    rec.response(
      'back_opinion',
      410,
      'expired',
      'A token older than 5 minutes',
      await post(`${API}/backs`, { confirm_token: tokenOf(staleBack) }),
    );
    clock = EXAMPLES_CLOCK;
    // Bob gets coins for one seat, previews, then spends them on an order before confirming.
    sandbox.world.grant(USERS.bob, 'COIN', 100);
    const bobBack = await post(`${API}/opinions/${OPINIONS.graceOnAliceOpen}/back-preview`, { topic_id: MARKETS.aliceOpen }, bob);
    const bobOrder = await post(
      `${API}/topics/${MARKETS.multiOutcome}/order-preview`,
      { option_id: outcomeId(MARKETS.multiOutcome, 1), amount_coins: 100 },
      bob,
    );
    expectStatus(await post(`${API}/orders`, { confirm_token: tokenOf(bobOrder) }, bob), 201, 'bob spends his coins');
    rec.response(
      'back_opinion',
      422,
      'insufficient_balance',
      'The balance fell below the seat price since the preview',
      await post(`${API}/backs`, { confirm_token: tokenOf(bobBack) }, bob),
    );

    // ---- Answers every operation can give --------------------------------------------------
    rec.common(400, 'limit', 'A parameter out of range', await get(`${API}/topics`, { limit: 0 }));
    rec.common(401, 'missing_key', 'No Authorization header', await call(gw, 'GET', `${API}/me`));
    rec.common(401, 'revoked_key', 'A revoked key', await get(`${API}/me`, {}, KEYS.carolRevoked));
    rec.common(403, 'read_only_key', 'A read-only key calling a write operation', await post(orderPath, order, KEYS.aliceRead));
    rec.common(404, 'hidden', 'A topic that is missing or hidden', await get(`${API}/topics/${HIDDEN_TOPIC_ID}`));
    rec.common(
      413,
      'body_too_large',
      'A body over 16 KiB',
      await call(gw, 'POST', opinionPath, { key: alice, body: { content: 'x'.repeat(17_000) } }),
    );
    rec.common(414, 'path_too_long', 'A path segment over 200 characters', await get(`${API}/topics/${'a'.repeat(300)}`), {
      code: 'INVALID_ARGUMENT',
      message: 'The request URI is too long.',
      details: { field: 'url' },
    });
    rec.common(
      431,
      'headers_too_large',
      "Request headers over the server's limit",
      await call(gw, 'GET', `${API}/me`, { key: alice, headers: { 'x-padding': 'x'.repeat(20_000) } }),
      {
        code: 'INVALID_ARGUMENT',
        message: 'The request headers are too large.',
        details: { field: 'headers' },
      },
    );

    const limited = await gateway(sandbox, () => clock, { RATE_LIMITS: 'on', RATE_LIMIT_READ_PER_MINUTE: '1' });
    others.push(limited);
    await call(limited, 'GET', `${API}/me`, { key: alice });
    rec.common(429, 'rate_limited', 'The minute window is used up', await call(limited, 'GET', `${API}/me`, { key: alice }));

    const disabled = await gateway(sandbox, () => clock, { KILL_SWITCH: 'on' });
    others.push(disabled);
    rec.common(503, 'disabled', 'The kill switch is on', await call(disabled, 'GET', `${API}/topics`, { key: alice }));

    const broken = await gateway(sandbox, () => clock, { UPSTREAM_RETRIES: '0', UPSTREAM_BREAKER_THRESHOLD: '0' });
    others.push(broken);
    sandbox.faults.add({ method: 'GET', pathPrefix: '/internal/', status: 500, body: 'upstream exploded', times: 1, phase: 'before' });
    rec.common(500, 'internal', 'The backend failed unexpectedly', await call(broken, 'GET', `${API}/topic-categories`, { key: alice }));
  } finally {
    await Promise.allSettled([gw.app.close(), ...others.map((o) => o.app.close())]);
    await sandbox.close();
  }

  return normalise({ operations: rec.operations, shared: rec.shared }, tokens);
}

/** Replaces what changes from run to run with fixed stand-ins (see the header). */
function normalise(examples: OpenApiExamples, tokens: Set<string>): OpenApiExamples {
  let text = JSON.stringify(examples);
  for (const token of tokens) text = text.split(token).join(EXAMPLE_TOKEN);
  const publishedId = (examples.operations['publish_opinion']?.responses['201']?.['published']?.value as { id?: string } | undefined)?.id;
  if (publishedId !== undefined) text = text.split(publishedId).join(PUBLISHED_OPINION_ID);
  return JSON.parse(text) as OpenApiExamples;
}

export const EXAMPLES_FILE = new URL('../src/surfaces/rest/openapi-examples.json', import.meta.url);

export function writeExamples(examples: OpenApiExamples): void {
  writeFileSync(EXAMPLES_FILE, `${JSON.stringify(examples, null, 2)}\n`);
}

if (import.meta.main) {
  writeExamples(await captureExamples());
  console.log(`wrote ${EXAMPLES_FILE.pathname}`);
}
