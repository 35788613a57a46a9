import { describe, expect, it } from 'vitest';
import { recordedData } from '../../fixtures/recorded/index.ts';
import * as c from '../../src/contract/index.ts';
import * as api from '../../src/upstream/internal-api.ts';
import {
  mapPollCard,
  mapPollDetail,
  mapPredictionCard,
  mapPredictionDetail,
  mapTopicItem,
  mapUserTopicList,
} from '../../mappers/topics.ts';
import { ctx, expectContract, uuid, WEB } from './helpers.ts';

const markets = recordedData('prediction.markets.json', api.MarketPage).items;
const polls = recordedData('poll.polls.json', api.PollPage).items;

function market(n: number) {
  const m = markets[n];
  if (m === undefined) throw new Error(`no market ${n}`);
  return m;
}
function poll(n: number) {
  const p = polls[n];
  if (p === undefined) throw new Error(`no poll ${n}`);
  return p;
}

describe('prediction cards', () => {
  const cards = markets.map((m) => expectContract(c.PredictionCard, mapPredictionCard(m, ctx())));

  it('map statuses, mechanisms and moderation', () => {
    expect(cards.map((x) => [x.status, x.mechanism, x.moderation_status])).toEqual([
      ['open', 'v21_lmsr', 'approved'],
      ['closed', 'v21_lmsr', 'under_review'],
      ['resolving', 'v2_share', 'approved'],
      ['resolved', 'v21_lmsr', 'approved'],
      ['refunded', 'v21_lmsr', 'approved'],
    ]);
  });

  it('write exact decimals', () => {
    expect(cards.map((x) => x.total_volume)).toEqual([
      '0.3000', // 0.30000000000000004
      '0.0001', // 0.00005
      '1000000000000000000000.0000', // 1e21
      '12345.6789', // 12345.678949999
      '300.0000',
    ]);
    expect(cards[1]?.options.map((o) => o.probability)).toEqual(['0.0000', '1.0000']); // 1e-7, 0.9999999
    expect(cards[0]?.options.map((o) => o.probability)).toEqual(['0.6180', '0.3820']);
  });

  it('is_winner is false until settled, then follows the backend', () => {
    expect(cards[0]?.options.map((o) => o.is_winner)).toEqual([false, false]);
    expect(cards[3]?.options.map((o) => o.is_winner)).toEqual([true, false]);
  });

  it('build the share url and the creator reference', () => {
    expect(cards[0]?.url).toBe(`${WEB}/predictions/${uuid('f001')}`);
    expect(cards[0]?.creator).toEqual({
      id: uuid('a11c'),
      handle: 'alice',
      nickname: 'Alice',
      avatar_url: 'https://cdn.example.com/avatars/alice.png',
      account_type: 'user',
      url: `${WEB}/u/alice`,
    });
    expect(cards[1]?.creator.account_type).toBe('official');
    expect(cards[1]?.creator.avatar_url).toBe(`${WEB}/static/avatars/official.png`); // site-relative resolved
    expect(cards[2]?.creator.account_type).toBe('bot');
    expect(cards[2]?.creator.avatar_url).toBeNull(); // a data: URL is not passed on
    expect(cards[4]?.creator.account_type).toBe('user'); // unknown integer 7
  });

  it('carry no poll-only field', () => {
    for (const card of cards) {
      for (const key of ['voters_count', 'total_stake', 'votes_visible']) expect(card).not.toHaveProperty(key);
    }
  });

  it.each([
    ['en', 'Will it rain in Taipei tomorrow?', 'Yes'],
    ['zh-TW', 'Will it rain in Taipei tomorrow? (繁)', 'Yes (繁)'],
    ['id', 'Will it rain in Taipei tomorrow? (id)', 'Yes (id)'],
  ] as const)('localise title and options in %s', (lang, title, option) => {
    const card = mapPredictionCard(market(0), ctx(lang));
    expect(card.title).toBe(title);
    expect(card.options[0]?.name).toBe(option);
  });

  it('fall back when locales are missing: only zh_TW, an empty map, an empty English', () => {
    const card = mapPredictionCard(market(1), ctx('en'));
    expect(card.title).toBe('台北明天會下雨嗎？'); // only zh_TW
    expect(card.options[0]?.name).toBe(''); // {}
    expect(card.options[1]?.name).toBe('否'); // en is '' → zh_TW
  });
});

describe('poll cards', () => {
  const cards = polls.map((p) => expectContract(c.PollCard, mapPollCard(p, ctx())));

  it('map poll states 1..4', () => {
    expect(cards.map((x) => x.status)).toEqual(['open', 'closed', 'resolved', 'refunded']);
  });

  it('show tallies and vote shares when visible', () => {
    expect(cards[0]?.votes_visible).toBe(true);
    expect(cards[0]?.options.map((o) => [o.votes_count, o.probability])).toEqual([
      [1, '0.3333'],
      [2, '0.6667'],
      [0, '0.0000'],
    ]);
    expect(cards[0]?.total_stake).toBe('0.3000');
    expect(cards[0]?.url).toBe(`${WEB}/polls/${uuid('b001')}`);
  });

  it('null every tally while votes_visible is false, whatever the backend sent', () => {
    expect(poll(1).choices.map((ch) => ch.voteNum)).toEqual([7, 3]); // the backend leaked them
    expect(cards[1]?.votes_visible).toBe(false);
    expect(cards[1]?.options.map((o) => [o.votes_count, o.probability])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it('write zero shares before the first vote', () => {
    expect(cards[2]?.options.map((o) => [o.votes_count, o.probability, o.is_winner])).toEqual([
      [0, '0.0000', true],
      [0, '0.0000', false],
    ]);
  });

  it('carry no prediction-only field', () => {
    for (const card of cards) {
      for (const key of ['total_volume', 'traders_count', 'mechanism']) expect(card).not.toHaveProperty(key);
    }
  });
});

describe('tagged items (search)', () => {
  it.each([
    ['search.markets.json', 'prediction'],
    ['search.polls.json', 'poll'],
  ] as const)('%s', (file, type) => {
    const page = recordedData(file, api.SearchPage);
    const list = page.items.map((item) => mapTopicItem(item, ctx('ja')));
    expectContract(c.TopicList, { data: list, next_cursor: null, has_more: false });
    expect(list.every((card) => card.type === type)).toBe(true);
  });
});

describe('prediction detail', () => {
  it('LMSR with a boost, a source and messy pictures', () => {
    const d = expectContract(
      c.TopicDetail,
      mapPredictionDetail(recordedData('prediction.market.lmsr-boosted.json', api.MarketDetail), ctx('zh-CN')),
    );
    if (d.type !== 'prediction') throw new Error('expected a prediction');
    expect(d.mechanism).toBe('v21_lmsr');
    expect(d.options.map((o) => [o.probability, o.implied_price])).toEqual([
      ['0.6180', '0.6180'],
      ['0.3820', '0.0001'], // price 0.00005
    ]);
    expect(d.stake_rules).toEqual({
      min_coins: 10,
      max_coins: 1000,
      default_coins: 50,
      market_depth: '14.4270',
      rules_version: 'v2.1',
    });
    expect(d.ruby_boost).toEqual({
      multiplier: '1.5000',
      starts_at: '2026-01-01T00:00:00.000Z',
      ends_at: '2026-01-08T00:00:00.000Z',
    });
    expect(d.image_urls).toEqual(['https://cdn.example.com/topics/f001/1.jpg', `${WEB}/static/topics/f001/2.jpg`]);
    expect(d.ref).toEqual({ type: 'forward', url: 'https://news.example.com/weather/123' });
    expect(d.category).toEqual({ id: uuid('ca701'), name: '政治' });
    expect(d).not.toHaveProperty('resolved_at');
    expect(d.description).toContain('\n');
  });

  it('legacy share pool: no boost, no usable source, category name missing', () => {
    const d = expectContract(
      c.PredictionDetail,
      mapPredictionDetail(recordedData('prediction.market.share-pool.json', api.MarketDetail), ctx()),
    );
    expect(d.mechanism).toBe('v2_share');
    expect(d.status).toBe('resolving');
    expect(d).not.toHaveProperty('ruby_boost');
    expect(d.ref).toBeNull(); // ORIGINAL with an empty link
    expect(d.category.name).toBe('');
    expect(d.stake_rules).toMatchObject({ min_coins: 100, max_coins: 100, default_coins: 100 });
  });

  it('settled: resolved_at present, winner marked, past boost kept', () => {
    const d = expectContract(
      c.PredictionDetail,
      mapPredictionDetail(recordedData('prediction.market.settled.json', api.MarketDetail), ctx()),
    );
    expect(d.status).toBe('resolved');
    expect(d.resolved_at).toBe('2025-12-27T00:00:00.000Z');
    expect(d.options.map((o) => o.is_winner)).toEqual([true, false]);
    expect(d.ruby_boost?.multiplier).toBe('2.0000');
    expect(d.ref).toEqual({ type: 'original', url: 'https://example.org/source' });
  });

  it('refunded: resolved_at is the refund time', () => {
    const d = mapPredictionDetail(recordedData('prediction.market.refunded.json', api.MarketDetail), ctx());
    expectContract(c.PredictionDetail, d);
    expect(d.status).toBe('refunded');
    expect(d.resolved_at).toBe('2025-12-13T00:00:00.000Z');
  });

  it('blocked: moderation_status hidden (the operation answers 404)', () => {
    const d = mapPredictionDetail(recordedData('prediction.market.blocked.json', api.MarketDetail), ctx());
    expectContract(c.PredictionDetail, d);
    expect(d.id).toBe('00000000-0000-4000-8000-0000000dead1');
    expect(d.moderation_status).toBe('hidden');
  });
});

describe('poll detail', () => {
  it('voted, with a source and an image', () => {
    const d = expectContract(c.TopicDetail, mapPollDetail(recordedData('poll.detail.json', api.PollDetail), ctx('ko')));
    if (d.type !== 'poll') throw new Error('expected a poll');
    expect(d.description).toBe('Vote for your favourite.');
    expect(d.image_urls).toEqual(['https://cdn.example.com/polls/b001.png']);
    expect(d.ref).toEqual({ type: 'forward', url: 'https://blog.example.com/noodles' });
    expect(d.options[2]?.name).toBe('東'); // only zh_TW
    expect(d).not.toHaveProperty('stake_rules');
    expect(d).not.toHaveProperty('mechanism');
    expect(d).not.toHaveProperty('resolved_at');
  });

  it('hidden tallies stay hidden on detail', () => {
    const d = expectContract(c.PollDetail, mapPollDetail(recordedData('poll.detail.hidden-tallies.json', api.PollDetail), ctx()));
    expect(d.options.every((o) => o.votes_count === null && o.probability === null)).toBe(true);
    expect(d.ref).toBeNull();
    expect(d.moderation_status).toBe('under_review');
  });

  it('settled polls carry resolved_at', () => {
    const d = expectContract(c.PollDetail, mapPollDetail(recordedData('poll.detail.settled.json', api.PollDetail), ctx()));
    expect(d.resolved_at).toBe('2025-12-31T00:00:00.000Z');
  });
});

describe("a user's created topics", () => {
  it('public view drops the moderation note', () => {
    const list = expectContract(
      c.UserTopicList,
      mapUserTopicList(recordedData('users.created.by-handle.json', api.CreatedPage), ctx(), 'cursor-2'),
    );
    expect(list).toMatchObject({ hidden: false, next_cursor: 'cursor-2', has_more: true });
    expect(list.data).toHaveLength(2);
    expect(list.data[0]).not.toHaveProperty('moderation_note');
  });

  it('a hidden list is empty and final', () => {
    const list = expectContract(
      c.UserTopicList,
      mapUserTopicList(recordedData('users.created.by-handle.hidden.json', api.CreatedPage), ctx(), 'ignored'),
    );
    expect(list).toEqual({ data: [], next_cursor: null, has_more: false, hidden: true });
  });
});
