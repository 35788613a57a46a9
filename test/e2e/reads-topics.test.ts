/**
 * End to end over real HTTP against the sandbox: GET /topics, /topics/{id}, /topics/{id}/comments,
 * /topics/{id}/price-history, /topic-categories, /zones and /contests/{id} (SPEC 2, 4.2 rules
 * 1 to 5; DECISIONS.md sections 1, 3, 9). Every 200 parses with its contract schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CategoryList,
  CommentList,
  Contest,
  PollDetail,
  PredictionDetail,
  PriceHistory,
  TopicDetail,
  TopicList,
  UserTopicList,
  ZoneList,
} from '../../src/contract/index.ts';
import { CONTESTS, GENERIC_MARKET_COUNT, genericMarketId } from '../../sandbox/ids.ts';
import { GENERIC_MARKETS, NOTABLE_MARKETS } from '../../fixtures/seed/markets.ts';
import { API, expectContract, expectError, expectOk, itemsOf, walkPages, withQuery } from '../helpers/contract-assert.ts';
import { CATEGORIES, KEYS, MARKETS, OPINIONS, POLLS, USERS, ZONES, startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
const KEY: string = KEYS.aliceRead;

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await stack?.close();
});

/** The open v21_lmsr predictions of the seeded world (docs/contract/sandbox.md#seeded-world: 34 of them). */
const OPEN_LMSR = [
  MARKETS.aliceOpen,
  MARKETS.aliceSold,
  MARKETS.boosted,
  MARKETS.uneven,
  MARKETS.multiOutcome,
  MARKETS.legacyStake,
  MARKETS.backable,
  MARKETS.fullRelay,
  MARKETS.noEnglish,
  ...Array.from({ length: GENERIC_MARKET_COUNT }, (_, i) => genericMarketId(i)),
];
const OPEN_POLLS = [POLLS.aliceVoted, POLLS.aliceVoted2, POLLS.notVotedGated, POLLS.notVotedOpen, POLLS.quinn];
const SEED = [...NOTABLE_MARKETS, ...GENERIC_MARKETS];
const seedOf = (id: string) => SEED.find((m) => m.id === id);

const PREDICTION_ONLY = ['total_volume', 'traders_count', 'mechanism', 'stake_rules', 'ruby_boost'];
const POLL_ONLY = ['voters_count', 'total_stake', 'votes_visible'];

async function list(query: Record<string, string | number | undefined> = {}) {
  return expectOk(await stack.get(withQuery(`${API}/topics`, query), KEY), TopicList);
}

describe('GET /topics', () => {
  it('defaults: predictions, open, v21_lmsr, 20 per page', async () => {
    const page = await list();
    expect(page.data).toHaveLength(20);
    expect(page.has_more).toBe(true);
    expect(page.next_cursor).toEqual(expect.any(String));
    for (const t of page.data) {
      expect(t.type).toBe('prediction');
      expect(t.status).toBe('open');
      if (t.type === 'prediction') expect(t.mechanism).toBe('v21_lmsr');
      expect(OPEN_LMSR).toContain(t.id);
    }
  });

  it('walks all 34 open LMSR predictions with limit=10: no duplicate, no gap', async () => {
    const pages = await walkPages(stack, `${API}/topics`, KEY, TopicList, { limit: 10 });
    expect(pages.map((p) => p.data.length)).toEqual([10, 10, 10, 4]);
    const ids = itemsOf(pages).map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...OPEN_LMSR].sort());
    // The same order as one big page.
    const all = await list({ limit: 100 });
    expect(all.has_more).toBe(false);
    expect(all.next_cursor).toBeNull();
    expect(all.data.map((t) => t.id)).toEqual(ids);
  });

  it('limit=100 on the last page; limit=1 pages one by one', async () => {
    const one = await list({ limit: 1 });
    expect(one.data).toHaveLength(1);
    expect(one.has_more).toBe(true);
    const next = await list({ limit: 1, cursor: one.next_cursor ?? undefined });
    expect(next.data).toHaveLength(1);
    expect(next.data[0]?.id).not.toBe(one.data[0]?.id);
  });

  it('sort: newest is by created_at descending, ending_soon by end_time ascending, trending accepted', async () => {
    const newest = await list({ sort: 'newest', limit: 100 });
    const created = newest.data.map((t) => Date.parse(t.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const ending = await list({ sort: 'ending_soon', limit: 100 });
    const ends = ending.data.map((t) => Date.parse(t.end_time));
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    const trending = await list({ sort: 'trending', limit: 100 });
    expect([...trending.data.map((t) => t.id)].sort()).toEqual([...OPEN_LMSR].sort());
  });

  it('status filters: closed, resolved, refunded; resolving is never listed', async () => {
    expect((await list({ status: 'closed' })).data.map((t) => [t.id, t.status])).toEqual([[MARKETS.expired, 'closed']]);
    const resolved = await list({ status: 'resolved' });
    expect(resolved.data.map((t) => t.id).sort()).toEqual([MARKETS.aliceWon, MARKETS.aliceLost].sort());
    expect(resolved.data.every((t) => t.status === 'resolved')).toBe(true);
    expect((await list({ status: 'refunded' })).data.map((t) => [t.id, t.status])).toEqual([[MARKETS.refunded, 'refunded']]);
    for (const status of ['open', 'closed', 'resolved', 'refunded']) {
      expect((await list({ status, limit: 100, mechanism: 'all' })).data.map((t) => t.id)).not.toContain(MARKETS.judging);
    }
  });

  it('zone filter: exactly the open LMSR predictions of that zone; an unknown zone is empty', async () => {
    for (const zone of Object.values(ZONES)) {
      const page = await list({ zone, limit: 100 });
      const expected = OPEN_LMSR.filter((id) => seedOf(id)?.zoneSlug === zone);
      expect(expected.length).toBeGreaterThan(0);
      expect(page.data.map((t) => t.id).sort()).toEqual(expected.sort());
    }
    const none = await list({ zone: 'no-such-zone' });
    expect(none).toEqual({ data: [], next_cursor: null, has_more: false });
  });

  it('category_id filter: exactly that category; detail agrees', async () => {
    const page = await list({ category_id: CATEGORIES.crypto, limit: 100 });
    const expected = OPEN_LMSR.filter((id) => seedOf(id)?.categoryId === CATEGORIES.crypto);
    expect(page.data.map((t) => t.id).sort()).toEqual(expected.sort());
    const first = page.data[0];
    expect(first).toBeDefined();
    const detail = expectOk(await stack.get(`${API}/topics/${first?.id}`, KEY), TopicDetail);
    expect(detail.category.id).toBe(CATEGORIES.crypto);
    const unknown = await list({ category_id: '00000000-0000-4000-8000-00000000caff' });
    expect(unknown.data).toEqual([]);
  });

  it('mechanism: v2_share lists the share-pool one only; all adds it to the 34; the default excludes it', async () => {
    const share = await list({ mechanism: 'v2_share' });
    expect(share.data.map((t) => t.id)).toEqual([MARKETS.sharePool]);
    expect(share.data[0]?.type === 'prediction' && share.data[0].mechanism).toBe('v2_share');
    const all = await list({ mechanism: 'all', limit: 100 });
    expect(all.data.map((t) => t.id).sort()).toEqual([...OPEN_LMSR, MARKETS.sharePool].sort());
    const lmsr = await list({ mechanism: 'v21_lmsr', limit: 100 });
    expect(lmsr.data.map((t) => t.id)).not.toContain(MARKETS.sharePool);
    expect(lmsr.data).toHaveLength(34);
  });

  it('polls are their own list: open polls only, never a prediction, never the hidden one', async () => {
    const polls = await list({ type: 'poll', limit: 100 });
    expect(polls.data.map((t) => t.id).sort()).toEqual([...OPEN_POLLS].sort());
    for (const t of polls.data) {
      expect(t.type).toBe('poll');
      expect(t.status).toBe('open');
      for (const k of PREDICTION_ONLY) expect(t).not.toHaveProperty(k);
    }
    const newest = await list({ type: 'poll', sort: 'newest' });
    expect(newest.data.every((t) => t.type === 'poll')).toBe(true);
    // Paginates too.
    const pages = await walkPages(stack, `${API}/topics?type=poll`, KEY, TopicList, { limit: 2 });
    expect(
      itemsOf(pages)
        .map((t) => t.id)
        .sort(),
    ).toEqual([...OPEN_POLLS].sort());
    // Predictions carry no poll-only field.
    for (const t of (await list({ limit: 100, mechanism: 'all' })).data) {
      expect(t.type).toBe('prediction');
      for (const k of POLL_ONLY) expect(t).not.toHaveProperty(k);
    }
  });

  it('polls filter by category_id too; status=open is accepted for polls', async () => {
    const sports = await list({ type: 'poll', category_id: CATEGORIES.sports, status: 'open', limit: 100 });
    expect(sports.data.map((t) => t.id)).toContain(POLLS.notVotedGated);
    expect(sports.data.length).toBeLessThan(OPEN_POLLS.length);
    for (const t of sports.data) {
      const d = expectOk(await stack.get(`${API}/topics/${t.id}`, KEY), TopicDetail);
      expect(d.category.id).toBe(CATEGORIES.sports);
    }
  });

  it('poll-only misuse and bad values are 400 INVALID_ARGUMENT naming the parameter', async () => {
    const cases: [string, string][] = [
      ['type=poll&sort=ending_soon', 'sort'],
      ['type=poll&zone=x', 'zone'],
      ['type=poll&zone=tech-talk', 'zone'],
      ['type=poll&status=closed', 'status'],
      ['type=poll&status=resolved', 'status'],
      ['status=resolving', 'status'],
      ['type=poll&status=resolving', 'status'],
      ['status=OPEN', 'status'],
      ['type=all', 'type'],
      ['type=polls', 'type'],
      ['sort=hot', 'sort'],
      ['mechanism=lmsr', 'mechanism'],
      ['category_id=crypto', 'category_id'],
      ['zone=', 'zone'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=', 'limit'],
      ['limit=1e1', 'limit'],
      ['limit=5&limit=6', 'limit'],
      ['cursor=', 'cursor'],
      ['cursor=not-a-cursor', 'cursor'],
    ];
    for (const [q, field] of cases) expectError(await stack.get(`${API}/topics?${q}`, KEY), 400, 'INVALID_ARGUMENT', field);
  });

  it('a tampered or foreign cursor is 400 on cursor', async () => {
    const first = await list({ limit: 5 });
    const cursor = first.next_cursor ?? '';
    const mid = Math.floor(cursor.length / 2);
    const flipped = cursor.slice(0, mid) + (cursor[mid] === 'A' ? 'B' : 'A') + cursor.slice(mid + 1);
    expectError(await stack.get(`${API}/topics?cursor=${flipped}`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
    expectError(await stack.get(`${API}/topics?cursor=${cursor.slice(0, -2)}`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
    expectError(await stack.get(`${API}/topics?cursor=${cursor}xx`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
    // A keyset cursor (from a comment list) is not a /topics cursor.
    const comments = expectOk(await stack.get(`${API}/topics/${MARKETS.aliceOpen}/comments?limit=1`, KEY), CommentList);
    expect(comments.next_cursor).not.toBeNull();
    expectError(await stack.get(`${API}/topics?cursor=${comments.next_cursor}`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
  });

  it("another offset list's cursor is 400 on cursor, and a /topics cursor opens no other list", async () => {
    const created = expectOk(await stack.get(`${API}/users/openpm_official/topics?limit=1`, KEY), UserTopicList);
    expect(created.next_cursor).not.toBeNull();
    expectError(await stack.get(`${API}/topics?cursor=${created.next_cursor}`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
    const topics = await list({ limit: 3 });
    for (const other of ['/me/coin-ledger', '/me/positions', '/search?q=will&type=prediction&']) {
      const url = `${API}${other}${other.endsWith('&') ? '' : '?'}cursor=${topics.next_cursor}`;
      expectError(await stack.get(url, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
    }
    // Other query parameters on the same list are allowed (continuity is not promised).
    expect((await stack.get(`${API}/topics?type=poll&cursor=${topics.next_cursor}`, KEY)).status).toBe(200);
  });
});

describe('GET /topics/{id}', () => {
  const get = async (id: string, q = '') => expectOk(await stack.get(`${API}/topics/${id}${q}`, KEY), TopicDetail);

  it('reads an id without regard to case (RFC 9562): path ids and id filters alike', async () => {
    const upper = MARKETS.boosted.toUpperCase();
    expect(upper).not.toBe(MARKETS.boosted);
    expect(await get(upper)).toEqual(await get(MARKETS.boosted));
    const comments = await stack.get(`${API}/topics/${upper}/comments?limit=2`, KEY);
    expect(comments.body).toEqual((await stack.get(`${API}/topics/${MARKETS.boosted}/comments?limit=2`, KEY)).body);
    expect(await list({ category_id: CATEGORIES.crypto.toUpperCase(), limit: 100 })).toEqual(
      await list({ category_id: CATEGORIES.crypto, limit: 100 }),
    );
  });

  it('a prediction in full: implied_price per option, stake rules, mechanism, category, ref; nothing poll-only', async () => {
    const t = expectContract(PredictionDetail, await get(MARKETS.aliceOpen));
    expect(t.id).toBe(MARKETS.aliceOpen);
    expect(t.url).toBe(`https://sandbox.openpm.example/predictions/${MARKETS.aliceOpen}`);
    expect(t.status).toBe('open');
    expect(t.mechanism).toBe('v21_lmsr');
    expect(t.options).toHaveLength(2);
    for (const o of t.options) expect(o.implied_price).toMatch(/^\d\.\d{4}$/);
    expect(t.category).toEqual({ id: CATEGORIES.entertainment, name: 'Entertainment' });
    expect(t.ref).toEqual({ type: 'original', url: 'https://sandbox.openpm.example/rules/weather' });
    expect(t.stake_rules).toMatchObject({ min_coins: 1, max_coins: 1000, default_coins: 10 });
    expect(t).not.toHaveProperty('resolved_at');
    expect(t).not.toHaveProperty('ruby_boost');
    for (const k of POLL_ONLY) expect(t).not.toHaveProperty(k);
    expect(t.creator.handle).toBe('openpm_official');
  });

  it('a poll alice did not vote on: votes_visible false, every votes_count and probability null; nothing prediction-only', async () => {
    const t = expectContract(PollDetail, await get(POLLS.notVotedGated));
    expect(t.type).toBe('poll');
    expect(t.url).toBe(`https://sandbox.openpm.example/polls/${POLLS.notVotedGated}`);
    expect(t.votes_visible).toBe(false);
    expect(t.options.length).toBeGreaterThan(1);
    for (const o of t.options) {
      expect(o.votes_count).toBeNull();
      expect(o.probability).toBeNull();
      expect(o).not.toHaveProperty('implied_price');
    }
    for (const k of PREDICTION_ONLY) expect(t).not.toHaveProperty(k);
  });

  it('a poll alice voted on shows tallies', async () => {
    const t = expectContract(PollDetail, await get(POLLS.aliceVoted));
    expect(t.votes_visible).toBe(true);
    for (const o of t.options) {
      expect(o.votes_count).toEqual(expect.any(Number));
      expect(o.probability).toMatch(/^\d\.\d{4}$/);
    }
    const votes = t.options.reduce((s, o) => s + (o.votes_count ?? 0), 0);
    expect(votes).toBeGreaterThan(0);
  });

  it('the type hint works both ways and never changes the answer', async () => {
    const p = await get(MARKETS.boosted);
    expect(await get(MARKETS.boosted, '?type=prediction')).toEqual(p);
    expect(await get(MARKETS.boosted, '?type=poll')).toEqual(p);
    const q = await get(POLLS.aliceVoted);
    expect(q.type).toBe('poll');
    expect(await get(POLLS.aliceVoted, '?type=poll')).toEqual(q);
    expect(await get(POLLS.aliceVoted, '?type=prediction')).toEqual(q);
    expectError(await stack.get(`${API}/topics/${MARKETS.boosted}?type=market`, KEY), 400, 'INVALID_ARGUMENT', 'type');
  });

  it('ruby_boost on the boosted topic (live now), absent on topics that never had one', async () => {
    const t = expectContract(PredictionDetail, await get(MARKETS.boosted));
    expect(t.ruby_boost).toBeDefined();
    expect(t.ruby_boost?.multiplier).toBe('2.0000');
    const now = Date.now();
    expect(Date.parse(t.ruby_boost?.starts_at ?? '')).toBeLessThanOrEqual(now);
    expect(Date.parse(t.ruby_boost?.ends_at ?? '')).toBeGreaterThan(now);
    for (const id of [MARKETS.aliceOpen, MARKETS.uneven, MARKETS.legacyStake, MARKETS.sharePool, MARKETS.multiOutcome]) {
      expect(await get(id)).not.toHaveProperty('ruby_boost');
    }
  });

  it('stake rules 100..100 on the legacy topic; v2_share on the share-pool one', async () => {
    const legacy = expectContract(PredictionDetail, await get(MARKETS.legacyStake));
    expect(legacy.stake_rules).toMatchObject({ min_coins: 100, max_coins: 100, default_coins: 100 });
    const share = expectContract(PredictionDetail, await get(MARKETS.sharePool));
    expect(share.mechanism).toBe('v2_share');
  });

  it('uneven opening probabilities and a four-option topic; probabilities add up to 1', async () => {
    const uneven = expectContract(PredictionDetail, await get(MARKETS.uneven));
    expect(uneven.options.map((o) => o.probability)).not.toEqual(['0.5000', '0.5000']);
    const multi = expectContract(PredictionDetail, await get(MARKETS.multiOutcome));
    expect(multi.options).toHaveLength(4);
    for (const t of [uneven, multi]) {
      const sum = t.options.reduce((s, o) => s + Number(o.probability), 0);
      expect(Math.abs(sum - 1)).toBeLessThan(0.001);
      for (const o of t.options) expect(o.implied_price).toBe(o.probability);
    }
  });

  it('statuses; resolved_at only once resolved (or refunded); is_winner only on the winner', async () => {
    const won = expectContract(PredictionDetail, await get(MARKETS.aliceWon));
    expect(won.status).toBe('resolved');
    expect(won.resolved_at).toMatch(/Z$/);
    expect(won.options.filter((o) => o.is_winner)).toHaveLength(1);
    const refunded = await get(MARKETS.refunded);
    expect(refunded.status).toBe('refunded');
    expect(refunded.resolved_at).toEqual(expect.any(String));
    for (const [id, status] of [
      [MARKETS.expired, 'closed'],
      [MARKETS.judging, 'resolving'],
      [MARKETS.aliceOpen, 'open'],
      [POLLS.ended, 'closed'],
    ] as const) {
      const t = await get(id);
      expect(t.status).toBe(status);
      expect(t).not.toHaveProperty('resolved_at');
      expect(t.options.every((o) => !o.is_winner)).toBe(true);
    }
    const settledPoll = expectContract(PollDetail, await get(POLLS.settled));
    expect(settledPoll.status).toBe('resolved');
    expect(settledPoll.resolved_at).toEqual(expect.any(String));
    // Tallies are visible to everyone once a poll has settled.
    expect(settledPoll.votes_visible).toBe(true);
  });

  it('the topic with no English title still has a non-empty title and option names in en', async () => {
    const t = await get(MARKETS.noEnglish);
    expect(t.title.trim()).not.toBe('');
    for (const o of t.options) expect(o.name.trim()).not.toBe('');
  });

  it('hidden, missing and malformed ids are 404 NOT_FOUND', async () => {
    expectError(await stack.get(`${API}/topics/${MARKETS.hidden}`, KEY), 404, 'NOT_FOUND');
    expectError(await stack.get(`${API}/topics/${POLLS.hidden}`, KEY), 404, 'NOT_FOUND');
    expectError(await stack.get(`${API}/topics/00000000-0000-4000-8000-00000000ffff`, KEY), 404, 'NOT_FOUND');
    for (const bad of ['not-a-uuid', '123', 'b0001', `${MARKETS.aliceOpen}x`, '%20']) {
      expectError(await stack.get(`${API}/topics/${bad}`, KEY), 404, 'NOT_FOUND');
    }
  });
});

describe('GET /topics/{id}/comments', () => {
  const comments = async (id: string, q = '') => expectOk(await stack.get(`${API}/topics/${id}/comments${q}`, KEY), CommentList);

  it("top-level opinions only: bob's reply never appears, on any page", async () => {
    const page = await comments(MARKETS.aliceOpen);
    expect(page.gated).toBe(false);
    expect(page.data.map((c) => c.id)).toContain(OPINIONS.aliceOpen);
    const pages = await walkPages(stack, `${API}/topics/${MARKETS.aliceOpen}/comments`, KEY, CommentList, { limit: 1 });
    const ids = itemsOf(pages).map((c) => c.id);
    expect(ids).toEqual(page.data.map((c) => c.id));
    expect(ids).not.toContain(OPINIONS.bobReply);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of pages) expect(p.gated).toBe(false);
    const alice = page.data.find((c) => c.id === OPINIONS.aliceOpen);
    expect(alice?.reply_count).toBeGreaterThanOrEqual(1);
    expect(alice?.author.handle).toBe('alice');
    expect(alice?.url).toBe(`https://sandbox.openpm.example/predictions/${MARKETS.aliceOpen}/opinions/${OPINIONS.aliceOpen}`);
  });

  it('vote-gated poll alice did not vote on: gated true, empty data, no cursor', async () => {
    expect(await comments(POLLS.notVotedGated)).toEqual({ data: [], next_cursor: null, has_more: false, gated: true });
    expect(await comments(POLLS.notVotedGated, '?limit=1')).toEqual({ data: [], next_cursor: null, has_more: false, gated: true });
  });

  it('gated false where she voted (and where the poll is not gated); poll comments paginate', async () => {
    const voted = await comments(POLLS.aliceVoted);
    expect(voted.gated).toBe(false);
    expect(voted.data.length).toBeGreaterThan(0);
    for (const c of voted.data) expect(c.author_position?.label ?? 'voter').toBe('voter');
    const pages = await walkPages(stack, `${API}/topics/${POLLS.aliceVoted}/comments`, KEY, CommentList, { limit: 1 });
    expect(itemsOf(pages).map((c) => c.id)).toEqual(voted.data.map((c) => c.id));
    expect((await comments(POLLS.notVotedOpen)).gated).toBe(false);
  });

  it('limit and cursor are validated; a cursor from another list is refused', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=x']) {
      expectError(await stack.get(`${API}/topics/${MARKETS.aliceOpen}/comments?${q}`, KEY), 400, 'INVALID_ARGUMENT', 'limit');
    }
    expectError(await stack.get(`${API}/topics/${MARKETS.aliceOpen}/comments?cursor=abc`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
    const topics = await list({ limit: 1 });
    expectError(
      await stack.get(`${API}/topics/${MARKETS.aliceOpen}/comments?cursor=${topics.next_cursor}`, KEY),
      400,
      'INVALID_ARGUMENT',
      'cursor',
    );
  });

  it("a cursor from another topic's comments is 400 on cursor, never a 500", async () => {
    const a = await comments(MARKETS.aliceOpen, '?limit=1');
    expect(a.next_cursor).not.toBeNull();
    expectError(
      await stack.get(`${API}/topics/${MARKETS.uneven}/comments?cursor=${a.next_cursor}`, KEY),
      400,
      'INVALID_ARGUMENT',
      'cursor',
    );
    expectError(
      await stack.get(`${API}/topics/${POLLS.aliceVoted}/comments?cursor=${a.next_cursor}`, KEY),
      400,
      'INVALID_ARGUMENT',
      'cursor',
    );
  });

  it('missing, hidden and malformed topic ids are 404', async () => {
    expectError(await stack.get(`${API}/topics/${MARKETS.hidden}/comments`, KEY), 404, 'NOT_FOUND');
    expectError(await stack.get(`${API}/topics/${POLLS.hidden}/comments`, KEY), 404, 'NOT_FOUND');
    expectError(await stack.get(`${API}/topics/nope/comments`, KEY), 404, 'NOT_FOUND');
  });
});

describe('GET /topics/{id}/price-history', () => {
  const history = async (id: string, q = '') => expectOk(await stack.get(`${API}/topics/${id}/price-history${q}`, KEY), PriceHistory);

  it("default is all; oldest first; each point lists the topic's options in order; complete list", async () => {
    const all = await history(MARKETS.aliceOpen);
    expect(await history(MARKETS.aliceOpen, '?range=all')).toEqual(all);
    expect(all.next_cursor).toBeNull();
    expect(all.has_more).toBe(false);
    expect(all.data.length).toBeGreaterThan(1);
    const ts = all.data.map((p) => Date.parse(p.timestamp));
    expect(ts).toEqual([...ts].sort((a, b) => a - b));
    const detail = expectContract(PredictionDetail, expectOk(await stack.get(`${API}/topics/${MARKETS.aliceOpen}`, KEY), TopicDetail));
    const optionIds = detail.options.map((o) => o.id);
    for (const p of all.data) {
      expect(p.probabilities.map((x) => x.option_id)).toEqual(optionIds);
      const sum = p.probabilities.reduce((s, x) => s + Number(x.probability), 0);
      expect(Math.abs(sum - 1)).toBeLessThan(0.001);
    }
    // The latest point is the current price.
    expect(all.data.at(-1)?.probabilities.map((x) => x.probability)).toEqual(detail.options.map((o) => o.probability));
  });

  it('1d and 1w are windows of all', async () => {
    const now = Date.now();
    const day = await history(MARKETS.aliceOpen, '?range=1d');
    const week = await history(MARKETS.aliceOpen, '?range=1w');
    const all = await history(MARKETS.aliceOpen, '?range=all');
    expect(day.data.length).toBeGreaterThan(0);
    for (const p of day.data) expect(Date.parse(p.timestamp)).toBeGreaterThanOrEqual(now - 86_400_000 - 60_000);
    for (const p of week.data) expect(Date.parse(p.timestamp)).toBeGreaterThanOrEqual(now - 7 * 86_400_000 - 60_000);
    expect(day.data.length).toBeLessThanOrEqual(week.data.length);
    expect(week.data.length).toBeLessThanOrEqual(all.data.length + 1);
    // Also on a multi-option and on a share-pool topic.
    expect((await history(MARKETS.multiOutcome)).data[0]?.probabilities).toHaveLength(4);
    expect((await history(MARKETS.sharePool)).data.length).toBeGreaterThan(0);
  });

  it('a poll id is 404; a bad range is 400 on range', async () => {
    expectError(await stack.get(`${API}/topics/${POLLS.aliceVoted}/price-history`, KEY), 404, 'NOT_FOUND');
    for (const r of ['1m', 'ALL', '1D', '', 'week']) {
      expectError(await stack.get(`${API}/topics/${MARKETS.aliceOpen}/price-history?range=${r}`, KEY), 400, 'INVALID_ARGUMENT', 'range');
    }
  });
});

describe('GET /topic-categories and /zones', () => {
  it('categories: the five seeded ones, complete (next_cursor null, has_more false), usable as category_id', async () => {
    const cats = expectOk(await stack.get(`${API}/topic-categories`, KEY), CategoryList);
    expect(cats.next_cursor).toBeNull();
    expect(cats.has_more).toBe(false);
    expect(cats.data.map((c) => c.id).sort()).toEqual(Object.values(CATEGORIES).sort());
    for (const c of cats.data) expect(c.name.length).toBeGreaterThan(0);
    // limit and cursor do not paginate a complete list.
    const again = expectOk(await stack.get(`${API}/topic-categories?limit=1`, KEY), CategoryList);
    expect(again.data).toHaveLength(5);
  });

  it('zones: the three seeded ones, complete, slugs usable as zone', async () => {
    const zones = expectOk(await stack.get(`${API}/zones`, KEY), ZoneList);
    expect(zones.next_cursor).toBeNull();
    expect(zones.has_more).toBe(false);
    expect(zones.data.map((z) => z.slug).sort()).toEqual(Object.values(ZONES).sort());
    for (const z of zones.data) {
      expect(z.url).toBe(`https://sandbox.openpm.example/zones/${z.slug}`);
      expect((await list({ zone: z.slug })).data.length).toBeGreaterThan(0);
    }
  });
});

describe('GET /contests/{id}', () => {
  const cases = [
    [CONTESTS.upcoming, 'upcoming'],
    [CONTESTS.open, 'open'],
    [CONTESTS.revealPending, 'pending_reveal'],
    [CONTESTS.settled, 'settled'],
    [CONTESTS.voided, 'voided'],
  ] as const;

  it('c001..c005 in every status; settled_at only when settled, void_reason only when voided', async () => {
    for (const [id, status] of cases) {
      const c = expectOk(await stack.get(`${API}/contests/${id}`, KEY), Contest);
      expect(c.id).toBe(id);
      expect(c.status).toBe(status);
      expect(c.url).toBe(`https://sandbox.openpm.example/contests/${id}`);
      expect('settled_at' in c).toBe(status === 'settled');
      expect('void_reason' in c).toBe(status === 'voided');
      const correct = c.options.filter((o) => o.is_correct);
      expect(correct).toHaveLength(status === 'settled' ? 1 : 0);
      expect(c.entries_count).toBe(c.options.reduce((s, o) => s + o.entries_count, 0));
    }
  });

  it('an unknown or malformed contest id is 404', async () => {
    expectError(await stack.get(`${API}/contests/00000000-0000-4000-8000-00000000c0ff`, KEY), 404, 'NOT_FOUND');
    expectError(await stack.get(`${API}/contests/c001`, KEY), 404, 'NOT_FOUND');
  });
});

// Mutate the world: run last in this file.
describe('after alice votes (sandbox admin)', () => {
  it("the gated poll's comments open to her and its tallies become visible", async () => {
    const before = expectContract(PollDetail, expectOk(await stack.get(`${API}/topics/${POLLS.notVotedGated}`, KEY), TopicDetail));
    expect(before.votes_visible).toBe(false);
    const choice = before.options[0]?.id ?? '';
    await stack.admin('POST', `/polls/${POLLS.notVotedGated}/vote`, { userId: USERS.alice, choiceId: choice, stake: 5 });
    const after = expectContract(PollDetail, expectOk(await stack.get(`${API}/topics/${POLLS.notVotedGated}`, KEY), TopicDetail));
    expect(after.votes_visible).toBe(true);
    for (const o of after.options) expect(o.votes_count).toEqual(expect.any(Number));
    expect(after.options[0]?.votes_count).toBeGreaterThanOrEqual(1);
    const comments = expectOk(await stack.get(`${API}/topics/${POLLS.notVotedGated}/comments`, KEY), CommentList);
    expect(comments.gated).toBe(false);
    expect(comments.data.length).toBeGreaterThan(0);
    // Bob has still not voted: gated for him.
    const bob = expectOk(await stack.get(`${API}/topics/${POLLS.notVotedGated}/comments`, KEYS.bobWrite), CommentList);
    expect(bob).toEqual({ data: [], next_cursor: null, has_more: false, gated: true });
  });
});

describe('after a settlement (sandbox admin)', () => {
  it('resolved_at appears, the winner is marked, and the topic leaves the open list', async () => {
    const id = genericMarketId(GENERIC_MARKET_COUNT - 1);
    const before = expectContract(PredictionDetail, expectOk(await stack.get(`${API}/topics/${id}`, KEY), TopicDetail));
    expect(before).not.toHaveProperty('resolved_at');
    const winner = before.options[1]?.id ?? '';
    await stack.admin('POST', `/markets/${id}/settle`, { winnerOutcomeId: winner });
    const after = expectContract(PredictionDetail, expectOk(await stack.get(`${API}/topics/${id}`, KEY), TopicDetail));
    expect(after.status).toBe('resolved');
    expect(after.resolved_at).toEqual(expect.any(String));
    expect(after.options.map((o) => o.is_winner)).toEqual([false, true]);
    expect((await list({ limit: 100 })).data.map((t) => t.id)).not.toContain(id);
    expect((await list({ status: 'resolved' })).data.map((t) => t.id)).toContain(id);
  });
});
