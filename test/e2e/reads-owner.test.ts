/**
 * End to end over real HTTP against the sandbox: the key owner's reads (DECISIONS.md sections 2
 * and 3; SPEC 1.3 rule 6, 1.4, 2.14): /me, /me/positions, /me/opinions, /me/backed-opinions,
 * /me/watchlist, /me/coin-ledger, /me/ruby-ledger and /me/topics, each paginated.
 */
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BackedOpinionList,
  LedgerList,
  MyProfile,
  OwnerOpinionList,
  OwnerTopicList,
  PositionList,
  WatchlistList,
  type LedgerEntry,
} from '../../src/contract/index.ts';
import { API, expectError, expectOk, itemsOf, walkPages } from '../helpers/contract-assert.ts';
import { KEYS, MARKETS, OPINIONS, POLLS, USERS, startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
const KEY: string = KEYS.aliceRead;

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await stack?.close();
});

const profile = async (key = KEY) => expectOk(await stack.get(`${API}/me`, key), MyProfile);

describe('GET /me', () => {
  it("the key owner's profile and balances; sapphires always 0; the same for both of alice's keys", async () => {
    const me = await profile();
    expect(me).toMatchObject({
      id: USERS.alice,
      handle: 'alice',
      account_type: 'user',
      url: 'https://sandbox.openpm.example/u/alice',
      coins: '10000.0000',
      rubies: '365.2065',
      sapphires: '0.0000',
    });
    expect(await profile(KEYS.aliceWrite)).toEqual(me);
  });

  it('another key answers for its own owner', async () => {
    const bob = await profile(KEYS.bobWrite);
    expect(bob.id).toBe(USERS.bob);
    expect(bob.handle).toBe('bob');
    expect(bob.coins).toBe('5.0000');
  });
});

describe('GET /me/positions', () => {
  it('paginates through every position; sold, won, lost, refunded and open ones follow SPEC 1.3', async () => {
    const pages = await walkPages(stack, `${API}/me/positions`, KEY, PositionList, { limit: 2 });
    const all = itemsOf(pages);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    expect(all.map((p) => p.id)).toEqual(
      expectOk(await stack.get(`${API}/me/positions?limit=100`, KEY), PositionList).data.map((p) => p.id),
    );
    const of = (topic: string) => {
      const p = all.find((x) => x.topic_id === topic);
      if (p === undefined) throw new Error(`no position on ${topic}`);
      return p;
    };

    const sold = of(MARKETS.aliceSold);
    expect(sold).toMatchObject({
      sold: true,
      status: 'sold',
      sold_rubies: '102.6161',
      won: null,
      payout_rubies: null,
      payout_if_correct_rubies: null,
    });

    const won = of(MARKETS.aliceWon);
    expect(won).toMatchObject({ sold: false, sold_rubies: null, status: 'won', won: true, ruby_multiplier: '1.5000' });
    expect(won.payout_rubies).toMatch(/^\d+\.\d{4}$/);
    expect(Number(won.payout_rubies)).toBeGreaterThan(0);
    // SPEC 1.3 rule 5: payout_if_correct_rubies is a guaranteed minimum, never above what was paid.
    expect(new Big(won.payout_if_correct_rubies ?? '0').lte(won.payout_rubies ?? '0')).toBe(true);
    expect(new Big(won.payout_if_correct_rubies ?? '0').gt(new Big(won.payout_rubies ?? '0').minus('0.0002'))).toBe(true);

    const lost = of(MARKETS.aliceLost);
    expect(lost).toMatchObject({ sold: false, sold_rubies: null, status: 'lost', won: false, payout_rubies: '0.0000' });

    const open = of(MARKETS.aliceOpen);
    expect(open).toMatchObject({
      sold: false,
      sold_rubies: null,
      status: 'pending',
      won: null,
      payout_rubies: null,
      ruby_multiplier: '1.0000',
    });
    // units × multiplier, the guaranteed minimum.
    expect(open.payout_if_correct_rubies).toBe(new Big(open.units).times(open.ruby_multiplier).toFixed(4));
    expect(open.url).toBe(`https://sandbox.openpm.example/predictions/${MARKETS.aliceOpen}`);

    const refunded = of(MARKETS.refunded);
    expect(refunded).toMatchObject({ status: 'refunded', won: null, payout_rubies: null, payout_if_correct_rubies: null });

    for (const p of all) {
      expect(p.avg_price).toMatch(/^\d+\.\d{6}$/);
      // avg_price is stake / units.
      expect(Math.abs(Number(p.avg_price) - Number(p.stake_coins) / Number(p.units))).toBeLessThan(0.000001);
    }
  });

  it('limit and cursor are validated', async () => {
    expectError(await stack.get(`${API}/me/positions?limit=0`, KEY), 400, 'INVALID_ARGUMENT', 'limit');
    expectError(await stack.get(`${API}/me/positions?limit=101`, KEY), 400, 'INVALID_ARGUMENT', 'limit');
    expectError(await stack.get(`${API}/me/positions?cursor=xyz`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
  });
});

describe('GET /me/opinions and /me/backed-opinions', () => {
  it('opinions: ruby_payback equals sapphire_payback; paginated', async () => {
    const pages = await walkPages(stack, `${API}/me/opinions`, KEY, OwnerOpinionList, { limit: 1 });
    const all = itemsOf(pages);
    expect(all.map((o) => o.id).sort()).toEqual([OPINIONS.aliceOpen, OPINIONS.aliceWon].sort());
    for (const o of all) {
      expect(o.sapphire_payback).toBe(o.ruby_payback);
      expect(Number(o.ruby_payback)).toBeGreaterThan(0);
      expect(o.url).toBe(`https://sandbox.openpm.example/predictions/${o.topic_id}/opinions/${o.id}`);
    }
    const mine = all.find((o) => o.id === OPINIONS.aliceOpen);
    expect(mine).toMatchObject({
      topic_id: MARKETS.aliceOpen,
      backer_count: 3,
      ruby_payback: '4.5000',
      side_option_label: 'Yes',
      reply_to: null,
    });
  });

  it('backed opinions: ruby_total equals sapphire_total; paginated', async () => {
    const pages = await walkPages(stack, `${API}/me/backed-opinions`, KEY, BackedOpinionList, { limit: 1 });
    const all = itemsOf(pages);
    expect(all.map((b) => b.opinion_id).sort()).toEqual([OPINIONS.erinUneven, OPINIONS.frankMulti].sort());
    for (const b of all) expect(b.sapphire_total).toBe(b.ruby_total);
    expect(all.find((b) => b.opinion_id === OPINIONS.frankMulti)).toMatchObject({ seq: 1, price_coins: '10.0000', ruby_total: '4.5000' });
    expect(all.find((b) => b.opinion_id === OPINIONS.erinUneven)).toMatchObject({ seq: 2, price_coins: '15.0000' });
  });
});

describe('GET /me/watchlist', () => {
  it('topic cards plus added_at, most recently added first; paginated', async () => {
    const pages = await walkPages(stack, `${API}/me/watchlist`, KEY, WatchlistList, { limit: 2 });
    const all = itemsOf(pages);
    expect(all.map((w) => w.id)).toEqual([MARKETS.boosted, POLLS.notVotedOpen, MARKETS.backable, MARKETS.uneven, MARKETS.aliceOpen]);
    const added = all.map((w) => Date.parse(w.added_at));
    expect(added).toEqual([...added].sort((a, b) => b - a));
    expect(all.find((w) => w.id === POLLS.notVotedOpen)?.type).toBe('poll');
  });
});

describe('GET /me/coin-ledger and /me/ruby-ledger', () => {
  /** Newest first: each entry's balance minus its amount is the next (older) entry's balance. */
  function expectChained(entries: LedgerEntry[]) {
    for (let i = 0; i + 1 < entries.length; i++) {
      const [a, b] = [entries[i], entries[i + 1]];
      expect(new Big(a?.balance_after ?? 0).minus(a?.amount ?? 0).toFixed(4), `entry ${a?.id}`).toBe(b?.balance_after);
    }
    const oldest = entries.at(-1);
    expect(oldest?.balance_after).toBe(new Big(oldest?.amount ?? 0).toFixed(4));
  }

  it("coin ledger: paginated; chained balances; the newest balance is the profile's coins", async () => {
    const me = await profile();
    const pages = await walkPages(stack, `${API}/me/coin-ledger`, KEY, LedgerList, { limit: 5 });
    const all = itemsOf(pages);
    expect(pages.length).toBeGreaterThan(1);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    for (const e of all) expect(e.currency).toBe('coin');
    expect(all[0]?.balance_after).toBe(me.coins);
    expectChained(all);
    expect(all.some((e) => e.type === 'order_stake' && e.amount.startsWith('-'))).toBe(true);
    expect(all[0]?.url).toBe('https://sandbox.openpm.example/me/wallet/coins');
  });

  it("ruby ledger: a sapphire_conversion entry; chained; the newest balance is the profile's rubies", async () => {
    const me = await profile();
    const pages = await walkPages(stack, `${API}/me/ruby-ledger`, KEY, LedgerList, { limit: 4 });
    const all = itemsOf(pages);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all[0]?.balance_after).toBe(me.rubies);
    expectChained(all);
    const conversion = all.filter((e) => e.type === 'sapphire_conversion');
    expect(conversion).toHaveLength(1);
    expect(conversion[0]).toMatchObject({ currency: 'ruby', amount: '120.5000', topic_id: null });
    const types = new Set(all.map((e) => e.type));
    expect([...types].sort()).toEqual(['opinion_payback', 'position_sale', 'sapphire_conversion', 'settlement_payout']);
    expect(all.find((e) => e.type === 'position_sale')).toMatchObject({ amount: '102.6161', topic_id: MARKETS.aliceSold });
  });
});

describe('GET /me/topics', () => {
  it("alice's own topics include the moderation-hidden one, with its moderation_note", async () => {
    const preds = expectOk(await stack.get(`${API}/me/topics`, KEY), OwnerTopicList);
    const hidden = preds.data.find((t) => t.id === MARKETS.hidden);
    expect(hidden).toBeDefined();
    expect(hidden?.moderation_status).toBe('hidden');
    expect(hidden?.moderation_note).toEqual(expect.stringMatching(/\S/));
    for (const t of preds.data) {
      expect(t.type).toBe('prediction');
      expect(t).toHaveProperty('moderation_note');
    }
    const polls = expectOk(await stack.get(`${API}/me/topics?type=poll`, KEY), OwnerTopicList);
    expect(polls.data.map((t) => t.id)).toContain(POLLS.hidden);
    for (const t of polls.data) expect(t.type).toBe('poll');
    const walked = await walkPages(stack, `${API}/me/topics`, KEY, OwnerTopicList, { limit: 1 });
    expect(itemsOf(walked).map((t) => t.id)).toEqual(preds.data.map((t) => t.id));
  });

  it("another owner sees only their own topics; the public list still hides alice's", async () => {
    const erin = await stack.admin<{ key: string }>('POST', '/keys', { userId: USERS.erin, scopes: ['read'], expiresAt: null });
    const theirs = expectOk(await stack.get(`${API}/me/topics`, erin.key), OwnerTopicList);
    expect(theirs.data.map((t) => t.id)).toContain(MARKETS.noEnglish);
    expect(theirs.data.map((t) => t.id)).not.toContain(MARKETS.hidden);
    for (const t of theirs.data) expect(t.creator.handle).toBe('erin');
    expectError(await stack.get(`${API}/me/topics?type=all`, KEY), 400, 'INVALID_ARGUMENT', 'type');
  });

  it('every /me list validates limit', async () => {
    for (const path of ['opinions', 'backed-opinions', 'watchlist', 'coin-ledger', 'ruby-ledger', 'topics']) {
      expectError(await stack.get(`${API}/me/${path}?limit=abc`, KEY), 400, 'INVALID_ARGUMENT', 'limit');
      expectError(await stack.get(`${API}/me/${path}?cursor=bad`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
    }
  });
});
