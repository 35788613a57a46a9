/**
 * Cross-cutting rules of the read surface, end to end over real HTTP against the sandbox:
 * - SPEC 4.2 rule 9: a hidden topic is indistinguishable from a missing one (status, body and
 *   the backend calls it costs, counted with a sandbox fault rule that never changes an answer);
 * - SPEC 4.2 rule 8, 1.1 rule 10, DECISIONS.md section 6: Accept-Language negotiation;
 * - SPEC 1.1 rules 2 to 5: decimals, timestamps and urls on every read;
 * - the X-Request-Id header.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BackedOpinionList,
  CategoryList,
  CommentList,
  Contest,
  LedgerList,
  MyProfile,
  OwnerOpinionList,
  OwnerTopicList,
  PositionList,
  PriceHistory,
  TopicDetail,
  TopicList,
  UserTopicList,
  WatchlistList,
  ZoneList,
} from '../../src/contract/index.ts';
import { CONTESTS } from '../../sandbox/ids.ts';
import { NOTABLE_MARKETS } from '../../fixtures/seed/markets.ts';
import { SEED_POLLS } from '../../fixtures/seed/polls.ts';
import { API, clearFaults, countOf, expectError, expectOk, startCounting } from '../helpers/contract-assert.ts';
import { genericMarketId } from '../../sandbox/ids.ts';
import { CATEGORIES, KEYS, MARKETS, OPINIONS, POLLS, startStack, type Stack } from '../helpers/stack.ts';
import type { AppLocaleTag } from '../../src/i18n/languages.ts';

let stack: Stack;
const KEY: string = KEYS.aliceRead;
const MISSING = '00000000-0000-4000-8000-00000000beef';
const MISSING_2 = '7d3c1f7e-5b8a-4c8e-9d2a-0f4b6c1e2a33';

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
  // Warm the key cache so that only the operations' own backend calls are counted below.
  await stack.get(`${API}/me`, KEY);
  await stack.get(`${API}/me`, KEYS.bobWrite);
});
afterAll(async () => {
  await stack?.close();
});

describe('rule 9: existence never leaks', () => {
  afterEach(async () => {
    await clearFaults(stack);
  });

  /** Status, body and the number of backend calls per service of one request. */
  async function observe(path: string, key = KEY) {
    const pred = await startCounting(stack, '/internal/prediction/');
    const poll = await startCounting(stack, '/internal/poll/');
    const reply = await stack.get(path, key);
    const calls = { prediction: await countOf(stack, pred), poll: await countOf(stack, poll) };
    await clearFaults(stack);
    return { status: reply.status, body: reply.body as unknown, calls };
  }

  const shapes: [string, (id: string) => string][] = [
    ['detail', (id) => `${API}/topics/${id}`],
    ['detail, poll hint', (id) => `${API}/topics/${id}?type=poll`],
    ['detail, prediction hint', (id) => `${API}/topics/${id}?type=prediction`],
    ['comments', (id) => `${API}/topics/${id}/comments`],
    ['comments, paged', (id) => `${API}/topics/${id}/comments?limit=5`],
    ['price history', (id) => `${API}/topics/${id}/price-history`],
    ['price history, 1d', (id) => `${API}/topics/${id}/price-history?range=1d`],
  ];

  for (const [name, path] of shapes) {
    it(`${name}: hidden prediction, hidden poll and missing ids answer alike and cost alike`, async () => {
      const missing = await observe(path(MISSING));
      expect(missing.status).toBe(404);
      expectError({ status: missing.status, headers: new Headers(), body: missing.body }, 404, 'NOT_FOUND');
      expect(missing.calls.prediction + missing.calls.poll).toBeGreaterThan(0);
      for (const id of [MARKETS.hidden, POLLS.hidden, MISSING_2]) {
        // alice created both hidden topics: even their creator gets 404 here; so does bob.
        for (const key of [KEY, KEYS.bobWrite]) expect(await observe(path(id), key), `${id} with ${key}`).toEqual(missing);
      }
    });
  }

  it('a poll on price-history answers and costs what a missing id does', async () => {
    expect(await observe(`${API}/topics/${POLLS.aliceVoted}/price-history`)).toEqual(
      await observe(`${API}/topics/${MISSING}/price-history`),
    );
  });

  it('a visible topic costs fewer or equal calls than a miss (the miss probes both services)', async () => {
    const miss = await observe(`${API}/topics/${MISSING}`);
    expect(miss.calls).toEqual({ prediction: 1, poll: 1 });
    const hit = await observe(`${API}/topics/${MARKETS.aliceOpen}`);
    expect(hit.status).toBe(200);
    expect(hit.calls).toEqual({ prediction: 1, poll: 0 });
  });

  it('a malformed id is 404 NOT_FOUND without calling the backend', async () => {
    for (const path of [`${API}/topics/nope`, `${API}/topics/nope/comments`, `${API}/topics/nope/price-history`]) {
      const r = await observe(path);
      expect(r.status).toBe(404);
      expect((r.body as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      expect(r.calls).toEqual({ prediction: 0, poll: 0 });
    }
  });

  it('hidden topics appear in no public list', async () => {
    const lists = [
      `${API}/topics?limit=100&mechanism=all`,
      `${API}/topics?type=poll&limit=100`,
      `${API}/search?q=neighbour`,
      `${API}/search?q=neighbour&type=prediction`,
      `${API}/search?q=neighbour&type=poll`,
      `${API}/users/alice/topics`,
      `${API}/users/alice/topics?type=poll`,
      `${API}/me/watchlist?limit=100`,
    ];
    for (const path of lists) {
      const r = await stack.get(path, KEYS.bobWrite);
      expect(r.status).toBe(200);
      const ids = (r.body as { data: { id: string }[] }).data.map((t) => t.id);
      expect(ids).not.toContain(MARKETS.hidden);
      expect(ids).not.toContain(POLLS.hidden);
    }
  });
});

describe('localisation (Accept-Language)', () => {
  const title9 = NOTABLE_MARKETS.find((m) => m.id === MARKETS.aliceOpen)?.title ?? {};
  const snack9 = SEED_POLLS.find((p) => p.id === POLLS.aliceVoted)?.subject ?? {};
  const TAG: Record<string, AppLocaleTag> = {
    en: 'en',
    'zh-TW': 'zh_TW',
    'zh-CN': 'zh_CN',
    vi: 'vi',
    id: 'in',
    th: 'th',
    ja: 'ja',
    ko: 'ko',
    ms: 'ms',
  };

  async function detail(id: string, acceptLanguage?: string) {
    const r = await stack.get(`${API}/topics/${id}`, KEY, acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage });
    return { topic: expectOk(r, TopicDetail), lang: r.headers.get('content-language'), vary: r.headers.get('vary') ?? '' };
  }

  it('each of the nine languages: title and options follow; Content-Language names it; Vary has Accept-Language', async () => {
    for (const [lang, tag] of Object.entries(TAG)) {
      const { topic, lang: cl, vary } = await detail(MARKETS.aliceOpen, lang);
      expect(cl).toBe(lang);
      expect(vary.toLowerCase()).toContain('accept-language');
      expect(topic.title).toBe(title9[tag]);
      const poll = await detail(POLLS.aliceVoted, lang);
      expect(poll.topic.title).toBe(snack9[tag]);
    }
    const zh = await detail(MARKETS.aliceOpen, 'zh-TW');
    expect(zh.topic.options.map((o) => o.name)).toEqual(['是', '否']);
    const ja = await detail(MARKETS.aliceOpen, 'ja');
    expect(ja.topic.options.map((o) => o.name)).toEqual(['はい', 'いいえ']);
  });

  it('negotiation: aliases, q-values, q=0 and garbage', async () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'en'],
      ['', 'en'],
      ['zh-TW', 'zh-TW'],
      ['zh-tw', 'zh-TW'],
      ['zh_TW', 'zh-TW'],
      ['zh-Hant', 'zh-TW'],
      ['zh-HK', 'zh-TW'],
      ['zh', 'zh-CN'],
      ['zh-Hans', 'zh-CN'],
      ['ja;q=0.9,en;q=0.8', 'ja'],
      ['en;q=0.8,ja;q=0.9', 'ja'],
      ['ja-JP', 'ja'],
      ['en-US,en;q=0.9', 'en'],
      ['in', 'id'],
      ['ja;q=0, ja-JP', 'en'],
      ['ja;q=0,ko;q=0.5', 'ko'],
      ['zh-TW;q=0,zh-Hant;q=0.9,vi;q=0.1', 'vi'],
      ['*', 'en'],
      ['fr-FR, de;q=0.9', 'en'],
      ['fr-FR, th;q=0.2', 'th'],
      ['!!garbage!!', 'en'],
      ['ja;q=abc', 'en'],
      ['ja;q=1.5, ko', 'ko'],
      ['x'.repeat(300), 'en'],
      [';;;,,,', 'en'],
    ];
    for (const [header, expected] of cases) {
      const { topic, lang } = await detail(MARKETS.aliceOpen, header);
      expect(lang, `Accept-Language: ${header}`).toBe(expected);
      expect(topic.title, `Accept-Language: ${header}`).toBe(title9[TAG[expected] ?? 'en']);
    }
  });

  it('the topic with no English title still gets a non-empty title and options in en', async () => {
    const en = await detail(MARKETS.noEnglish, 'en');
    expect(en.lang).toBe('en');
    expect(en.topic.title).toBe('颱風會在週末登陸嗎？');
    expect(en.topic.options.map((o) => o.name)).toEqual(['會', '不會']);
    const ja = await detail(MARKETS.noEnglish, 'ja');
    expect(ja.topic.title).toBe('台風は週末に上陸するか？');
    // A language the topic lacks falls back, never to an empty string.
    const ko = await detail(MARKETS.noEnglish, 'ko');
    expect(ko.lang).toBe('ko');
    expect(ko.topic.title.trim()).not.toBe('');
  });

  it("lists, comments (opinion text), categories and the owner's reads follow the language too", async () => {
    const h = { 'accept-language': 'zh-TW' };
    const topics = await stack.get(`${API}/topics?limit=100`, KEY, h);
    expect(topics.headers.get('content-language')).toBe('zh-TW');
    expect(expectOk(topics, TopicList).data.find((t) => t.id === MARKETS.aliceOpen)?.title).toBe('跨年夜台北會下雨嗎？');

    const found = expectOk(await stack.get(`${API}/search?q=Taipei&type=prediction`, KEY, h), TopicList);
    expect(found.data.find((t) => t.id === MARKETS.aliceOpen)?.title).toBe('跨年夜台北會下雨嗎？');

    const comments = await stack.get(`${API}/topics/${MARKETS.aliceOpen}/comments`, KEY, h);
    expect(comments.headers.get('content-language')).toBe('zh-TW');
    const mine = expectOk(comments, CommentList).data.find((c) => c.id === OPINIONS.aliceOpen);
    expect(mine?.content).toBe('連續三年十二月都多雨，我押「是」。');
    expect(mine?.author_position?.option_name).toBe('是');

    const cats = expectOk(await stack.get(`${API}/topic-categories`, KEY, h), CategoryList);
    expect(cats.data.find((c) => c.id === CATEGORIES.tech)?.name).toBe('科技');

    const positions = expectOk(await stack.get(`${API}/me/positions`, KEY, h), PositionList);
    expect(positions.data.find((p) => p.topic_id === MARKETS.aliceOpen)).toMatchObject({
      topic_title: '跨年夜台北會下雨嗎？',
      option_label: '是',
    });

    const opinions = expectOk(await stack.get(`${API}/me/opinions`, KEY, h), OwnerOpinionList);
    expect(opinions.data.find((o) => o.id === OPINIONS.aliceOpen)).toMatchObject({
      content: '連續三年十二月都多雨，我押「是」。',
      topic_title: '跨年夜台北會下雨嗎？',
    });

    const watch = expectOk(await stack.get(`${API}/me/watchlist`, KEY, h), WatchlistList);
    expect(watch.data.find((w) => w.id === MARKETS.aliceOpen)?.title).toBe('跨年夜台北會下雨嗎？');

    const users = expectOk(await stack.get(`${API}/users/openpm_official/topics?type=poll`, KEY, h), UserTopicList);
    expect(users.data.find((t) => t.id === POLLS.aliceVoted)?.options.map((o) => o.name)).toEqual(['爆米花', '玉米片', '巧克力']);
  });

  it('every localised read answers Content-Language and Vary: Accept-Language', async () => {
    const paths = [
      `${API}/topics`,
      `${API}/topics/${MARKETS.aliceOpen}`,
      `${API}/topics/${MARKETS.aliceOpen}/comments`,
      `${API}/topic-categories`,
      `${API}/search?q=will`,
      `${API}/users/erin/topics`,
      `${API}/me/positions`,
      `${API}/me/opinions`,
      `${API}/me/backed-opinions`,
      `${API}/me/watchlist`,
      `${API}/me/topics`,
    ];
    for (const path of paths) {
      const r = await stack.get(path, KEY, { 'accept-language': 'ko, en;q=0.5' });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-language'), path).toBe('ko');
      expect((r.headers.get('vary') ?? '').toLowerCase(), path).toContain('accept-language');
    }
  });
});

describe('decimals, timestamps and urls on every read (SPEC 1.1 rules 2 to 5)', () => {
  it('every 200 of every read endpoint parses with its schema and has contract forms', async () => {
    // expectOk runs checkForms: dec4 fields, avg_price with 6 places, RFC 3339 UTC, a url on every resource.
    const reads: [string, z.ZodType][] = [
      [`${API}/topics?limit=100&mechanism=all`, TopicList],
      [`${API}/topics?status=resolved`, TopicList],
      [`${API}/topics?status=refunded`, TopicList],
      [`${API}/topics?status=closed`, TopicList],
      [`${API}/topics?type=poll`, TopicList],
      [`${API}/search?q=the`, TopicList],
      [`${API}/topic-categories`, CategoryList],
      [`${API}/zones`, ZoneList],
      [`${API}/users/openpm_official/topics?limit=100`, UserTopicList],
      [`${API}/me`, MyProfile],
      [`${API}/me/positions`, PositionList],
      [`${API}/me/opinions`, OwnerOpinionList],
      [`${API}/me/backed-opinions`, BackedOpinionList],
      [`${API}/me/watchlist`, WatchlistList],
      [`${API}/me/coin-ledger?limit=100`, LedgerList],
      [`${API}/me/ruby-ledger?limit=100`, LedgerList],
      [`${API}/me/topics`, OwnerTopicList],
      [`${API}/me/topics?type=poll`, OwnerTopicList],
      ...Object.values(CONTESTS).map((id) => [`${API}/contests/${id}`, Contest] as [string, z.ZodType]),
    ];
    const topicIds = [
      ...Object.values(MARKETS).filter((id) => id !== MARKETS.hidden),
      ...Object.values(POLLS).filter((id) => id !== POLLS.hidden),
    ];
    for (const id of topicIds) {
      reads.push([`${API}/topics/${id}`, TopicDetail], [`${API}/topics/${id}/comments`, CommentList]);
    }
    for (const id of Object.values(MARKETS).filter((id) => id !== MARKETS.hidden))
      reads.push([`${API}/topics/${id}/price-history`, PriceHistory]);
    for (const [path, schema] of reads) {
      const r = await stack.get(path, KEY);
      try {
        expectOk(r, schema);
      } catch (err) {
        throw new Error(`${path}: ${(err as Error).message}`);
      }
    }
  });

  it('zones carry a url too (resources without an id)', async () => {
    for (const z of expectOk(await stack.get(`${API}/zones`, KEY), ZoneList).data) expect(z.url).toMatch(/^https:\/\//);
  });
});

describe('X-Request-Id', () => {
  it('a sane caller-supplied id is kept and echoed, on success and on errors', async () => {
    for (const path of [`${API}/topics?limit=1`, `${API}/topics/${MISSING}`, `${API}/topics?limit=0`]) {
      const r = await stack.get(path, KEY, { 'x-request-id': 'reads-test.42:abc-DEF_9' });
      expect(r.headers.get('x-request-id'), path).toBe('reads-test.42:abc-DEF_9');
    }
    const unauth = await stack.get(`${API}/topics`, undefined, { 'x-request-id': 'no-key-1' });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('x-request-id')).toBe('no-key-1');
  });

  it('without one, or with an insane one, a fresh id is made', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const a = await stack.get(`${API}/zones`, KEY);
    const b = await stack.get(`${API}/zones`, KEY);
    expect(a.headers.get('x-request-id')).toMatch(uuid);
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', '<script>']) {
      const r = await stack.get(`${API}/zones`, KEY, { 'x-request-id': bad });
      expect(r.headers.get('x-request-id')).toMatch(uuid);
    }
  });
});

// Mutates the world: runs last in this file.
describe('rule 9 at run time: a topic moderation hides now', () => {
  it('answers and costs like a missing id, and leaves every public list; under review it stays visible', async () => {
    const id = genericMarketId(0);
    const title = expectOk(await stack.get(`${API}/topics/${id}`, KEY), TopicDetail).title;
    const inLists = async () => {
      const topics = expectOk(await stack.get(`${API}/topics?limit=100`, KEY), TopicList).data.map((t) => t.id);
      const found = expectOk(await stack.get(`${API}/search?q=${encodeURIComponent(title)}&type=prediction`, KEY), TopicList).data.map(
        (t) => t.id,
      );
      return topics.includes(id) || found.includes(id);
    };
    expect(await inLists()).toBe(true);

    await stack.admin('POST', `/markets/${id}/moderate`, { auditState: 'BLOCKED', note: 'test' });
    const count = async (path: string) => {
      const pred = await startCounting(stack, '/internal/prediction/');
      const poll = await startCounting(stack, '/internal/poll/');
      const r = await stack.get(path, KEY);
      const calls = [await countOf(stack, pred), await countOf(stack, poll)];
      await clearFaults(stack);
      return { status: r.status, body: r.body as unknown, calls };
    };
    for (const suffix of ['', '/comments', '/price-history']) {
      expect(await count(`${API}/topics/${id}${suffix}`)).toEqual(await count(`${API}/topics/${MISSING}${suffix}`));
    }
    expect(await inLists()).toBe(false);

    await stack.admin('POST', `/markets/${id}/moderate`, { auditState: 'REVIEWING' });
    const reviewing = expectOk(await stack.get(`${API}/topics/${id}`, KEY), TopicDetail);
    expect(reviewing.moderation_status).toBe('under_review');
    expect(await inLists()).toBe(true);
  });
});
