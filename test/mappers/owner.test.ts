import { describe, expect, it } from 'vitest';
import { recordedData } from '../../fixtures/recorded/index.ts';
import * as c from '../../src/contract/index.ts';
import * as api from '../../src/upstream/internal-api.ts';
import {
  mapBackedOpinion,
  mapLedgerEntry,
  mapMyProfile,
  mapOwnerOpinion,
  mapOwnerTopicList,
  mapPosition,
  mapWatchlistItem,
} from '../../mappers/owner.ts';
import { toList } from '../../mappers/lists.ts';
import { ctx, expectContract, uuid, WEB } from './helpers.ts';

describe('my profile', () => {
  it('alice: balances as exact strings, sapphires zero', () => {
    const p = expectContract(c.MyProfile, mapMyProfile(recordedData('users.profile.alice.json', api.UserProfile), ctx()));
    expect(p).toEqual({
      id: uuid('a11c'),
      handle: 'alice',
      nickname: 'Alice',
      avatar_url: 'https://cdn.example.com/avatars/alice.png',
      account_type: 'user',
      url: `${WEB}/u/alice`,
      coins: '10000.0000',
      gems: '0.3000',
      rubies: '0.0001',
      sapphires: '0.0000',
      created_at: '2025-01-01T00:00:00.000Z',
    });
  });

  it('extremes: 1e21 coins, negative zero gems, 1e-7 rubies, a stray sapphire balance', () => {
    const p = expectContract(c.MyProfile, mapMyProfile(recordedData('users.profile.official.json', api.UserProfile), ctx()));
    expect([p.coins, p.gems, p.rubies, p.sapphires]).toEqual(['1000000000000000000000.0000', '0.0000', '0.0000', '0.0000']);
    expect(p.account_type).toBe('official');
    expect(p.created_at).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('positions', () => {
  const holdings = recordedData('prediction.holdings.json', api.HoldingPage).items;
  const positions = holdings.map((h) => expectContract(c.Position, mapPosition(h, ctx())));
  const [pending, sold, won, lost, refunded, soldButWon] = positions;

  const table: Array<[string, c.Position | undefined, Partial<c.Position>]> = [
    [
      'pending: won and payout null, payout_if_correct = units × multiplier',
      pending,
      {
        status: 'pending',
        sold: false,
        sold_rubies: null,
        won: null,
        payout_rubies: null,
        units: '0.0001', // 0.00005
        ruby_multiplier: '1.5000',
        payout_if_correct_rubies: '0.0000', // 0.000075 exactly, rounded down: a guaranteed minimum
      },
    ],
    [
      'sold: won, payout and payout_if_correct null',
      sold,
      { status: 'sold', sold: true, sold_rubies: '0.3000', won: null, payout_rubies: null, payout_if_correct_rubies: null },
    ],
    [
      'won: payout from the backend',
      won,
      { status: 'won', won: true, payout_rubies: '316.9925', ruby_multiplier: '2.0000', payout_if_correct_rubies: '316.9925' },
    ],
    ['lost: pays nothing', lost, { status: 'lost', won: false, payout_rubies: '0.0000', payout_if_correct_rubies: '158.4962' }],
    ['refunded: nothing can pay', refunded, { status: 'refunded', won: null, payout_rubies: null, payout_if_correct_rubies: null }],
    [
      'sold wins over a settlement result the backend also reports',
      soldButWon,
      { status: 'sold', sold: true, sold_rubies: '12.0000', won: null, payout_rubies: null, payout_if_correct_rubies: null },
    ],
  ];
  it.each(table)('%s', (_name, position, expected) => {
    expect(position).toMatchObject(expected);
  });

  it('common fields', () => {
    expect(pending).toMatchObject({
      id: '770001',
      topic_id: uuid('f001'),
      topic_title: 'Will it rain in Taipei tomorrow?',
      option_id: uuid('f0011'),
      option_label: 'Yes',
      stake_coins: '100.0000',
      avg_price: '0.630930', // 0.630929753571 at 6 places
      created_at: '2026-01-01T01:00:00.000Z',
      url: `${WEB}/predictions/${uuid('f001')}`,
    });
  });

  it('validate as a list', () => {
    expectContract(c.PositionList, toList(positions, 'c2'));
  });
});

describe('opinions', () => {
  const own = recordedData('prediction.own-opinions.json', api.OwnOpinionPage).items;

  it('ruby payback exact; sapphire alias is the same string, not the backend figure', () => {
    const o = expectContract(c.OwnerOpinion, mapOwnerOpinion(own[0] ?? never(), ctx()));
    expect(own[0]?.sapphirePayback).toBe(0);
    expect(o).toMatchObject({
      ruby_payback: '0.3000',
      sapphire_payback: '0.3000',
      backer_count: 2,
      reply_to: null,
      side_option_id: uuid('f0011'),
      side_option_label: 'Yes',
      url: `${WEB}/predictions/${uuid('f001')}/opinions/${uuid('e101')}`,
    });
  });

  it('a reply, with content in Thai only and no topic title', () => {
    const o = expectContract(c.OwnerOpinion, mapOwnerOpinion(own[1] ?? never(), ctx('ja')));
    expect(o.reply_to).toEqual({ id: uuid('e001'), excerpt: '會下雨' });
    expect(o.content).toBe('ฝนตก');
    expect(o.topic_title).toBe('');
  });
});

describe('backed opinions', () => {
  const backs = recordedData('prediction.backs.json', api.BackRecordPage).items;
  const [first, second] = backs.map((b) => expectContract(c.BackedOpinion, mapBackedOpinion(b, ctx())));

  it('sapphire_total is ruby_total, whatever the backend sent', () => {
    expect(backs[0]?.sapphireTotal).toBe(5);
    expect(first).toMatchObject({
      id: '660001',
      opinion_id: uuid('e001'),
      opinion_excerpt: '會下雨',
      seq: 2,
      price_coins: '0.3000',
      ruby_total: '0.0000', // 1e-7
      sapphire_total: '0.0000',
      url: `${WEB}/predictions/${uuid('f001')}/opinions/${uuid('e001')}`,
    });
    expect(first?.author.handle).toBe('bob');
  });

  it('negative zero prints unsigned; long excerpts are cut', () => {
    expect(second?.ruby_total).toBe('0.0000');
    expect(Array.from(second?.opinion_excerpt ?? '')).toHaveLength(140);
    expect(second?.opinion_excerpt.endsWith('…')).toBe(true);
  });
});

describe('watchlist', () => {
  it('cards of both kinds plus added_at', () => {
    const page = recordedData('users.favorites.alice.json', api.FavoritePage);
    const items = page.items.map((f) => mapWatchlistItem(f, ctx()));
    expectContract(c.WatchlistList, toList(items, null));
    expect(items.map((i) => [i.type, i.added_at])).toEqual([
      ['prediction', '2026-01-01T05:00:00.000Z'],
      ['poll', '2026-01-01T06:00:00.000Z'],
    ]);
    const poll = items[1];
    if (poll?.type !== 'poll') throw new Error('expected a poll');
    expect(poll.options.every((o) => o.votes_count === null)).toBe(true); // votes_visible false
  });
});

describe("owner's created topics", () => {
  it('include blocked topics with their note', () => {
    const list = expectContract(
      c.OwnerTopicList,
      mapOwnerTopicList(recordedData('users.created.own.market.json', api.CreatedPage), ctx(), null),
    );
    expect(list.data.map((t) => [t.moderation_status, t.moderation_note])).toEqual([
      ['approved', null],
      ['hidden', 'Misleading title'],
    ]);
  });
  it('polls too', () => {
    const list = expectContract(
      c.OwnerTopicList,
      mapOwnerTopicList(recordedData('users.created.own.poll.json', api.CreatedPage), ctx(), 'c'),
    );
    expect(list.data[0]).toMatchObject({ type: 'poll', moderation_note: null });
  });
});

describe('ledgers', () => {
  it('coin: signed exact amounts and lowercase types', () => {
    const page = recordedData('wallet.ledger.coin.json', api.LedgerPage);
    const entries = page.items.map((e) => mapLedgerEntry(e, 'COIN', ctx()));
    expectContract(c.LedgerList, toList(entries, null));
    expect(entries.map((e) => [e.type, e.amount, e.balance_after])).toEqual([
      ['opinion_back', '-0.3000', '9949.7000'],
      ['order_stake', '-50.0000', '9950.0000'],
      ['daily_bonus', '0.0001', '10000.0001'],
      ['order_refund', '-0.0001', '10000.0000'],
      ['signup_bonus', '10000.0000', '10000.0000'],
    ]);
    expect(entries[0]).toMatchObject({ id: '1000005', currency: 'coin', topic_id: uuid('f001'), url: `${WEB}/me/wallet/coins` });
    expect(entries[2]?.topic_id).toBeNull();
  });

  it('ruby: settlement payouts, sales, paybacks and the sapphire conversion', () => {
    const page = recordedData('wallet.ledger.ruby.json', api.LedgerPage);
    const entries = page.items.map((e) => expectContract(c.LedgerEntry, mapLedgerEntry(e, 'RUBY', ctx())));
    expect(entries.map((e) => e.type)).toEqual(['opinion_payback', 'position_sale', 'settlement_payout', 'sapphire_conversion']);
    expect(entries.map((e) => e.amount)).toEqual(['0.3000', '0.3000', '316.9925', '11.7000']);
    expect(entries[3]).toMatchObject({ currency: 'ruby', topic_id: null, url: `${WEB}/me/wallet/rubies` });
  });
});

function never(): never {
  throw new Error('missing fixture item');
}
