/**
 * Mappers take any input the internal schemas accept and must neither throw nor produce
 * something the contract refuses. These push the recorded payloads to the schemas' edges.
 */
import { describe, expect, it } from 'vitest';
import { recordedData } from '../../fixtures/recorded/index.ts';
import * as c from '../../src/contract/index.ts';
import * as api from '../../src/upstream/internal-api.ts';
import { mapLedgerEntry, mapMyProfile, mapPosition } from '../../mappers/owner.ts';
import { mapPollDetail, mapPredictionDetail } from '../../mappers/topics.ts';
import { ctx, expectContract } from './helpers.ts';

const AMOUNTS = [Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, -0, 1e21, -1e-7, 0.5];
const EPOCHS = [0, Number.MAX_SAFE_INTEGER, 8.64e15, 8.64e15 + 1];

describe('backend values refused before any mapper sees them', () => {
  it('a negative opinion fee or relay price: a charge that would raise the balance', () => {
    const market = recordedData('prediction.market.lmsr-boosted.json', api.MarketDetail);
    expect(api.MarketDetail.safeParse({ ...market, opinionFee: -10 }).success).toBe(false);
    expect(api.MarketDetail.safeParse({ ...market, opinionFee: 0 }).success).toBe(true);
    const relay = {
      backerCount: 0,
      seatsMax: 5,
      nextSeq: 1,
      nextPrice: 1,
      maxRelayPayback: 0,
      maxRelayPaybackSapphire: 0,
      viewerBacked: false,
    };
    expect(api.Relay.partial().safeParse({ ...relay, nextPrice: -5 }).success).toBe(false);
    expect(api.Relay.partial().safeParse(relay).success).toBe(true);
  });
});

describe('extreme but valid backend values', () => {
  it.each(AMOUNTS)('amount %s', (amount) => {
    const market = api.MarketDetail.parse({
      ...recordedData('prediction.market.lmsr-boosted.json', api.MarketDetail),
      volume: amount,
      // A charge is never negative (refused below); its extremes are the positive ones.
      opinionFee: Math.abs(amount),
      boost: { multiplier: amount, startAt: 0, endAt: 0 },
      stakeRule: { minStake: 1, maxStake: Number.MAX_SAFE_INTEGER, defaultStake: 1, liquidity: amount, rulesVersion: '' },
    });
    expectContract(c.PredictionDetail, mapPredictionDetail(market, ctx()));

    const holding = recordedData('prediction.holdings.json', api.HoldingPage).items[0];
    const h = api.Holding.parse({
      ...holding,
      stake: amount,
      shares: amount,
      avgPrice: amount,
      boostMultiplier: amount,
      payoutRuby: amount,
    });
    expectContract(c.Position, mapPosition(h, ctx()));

    const profile = recordedData('users.profile.alice.json', api.UserProfile);
    expectContract(c.MyProfile, mapMyProfile({ ...profile, wallet: { coin: amount, gem: amount, ruby: amount, sapphire: amount } }, ctx()));

    const entry = recordedData('wallet.ledger.coin.json', api.LedgerPage).items[0];
    if (entry === undefined) throw new Error('fixture');
    expectContract(c.LedgerEntry, mapLedgerEntry({ ...entry, delta: amount, balance: amount }, 'COIN', ctx()));
  });

  it.each(EPOCHS)('epoch %s', (ms) => {
    const poll = recordedData('poll.detail.settled.json', api.PollDetail);
    const out = expectContract(c.PollDetail, mapPollDetail({ ...poll, createTime: ms, endTime: ms, settleTime: ms }, ctx()));
    expect(out.resolved_at).toBe(out.created_at);
  });

  it('empty strings and empty locale maps everywhere', () => {
    const market = recordedData('prediction.market.share-pool.json', api.MarketDetail);
    const stripped = {
      ...market,
      title: {},
      intro: '',
      pictures: ['', ' '],
      creator: { ...market.creator, nickName: '', avatar: '' },
      outcomes: market.outcomes.map((o) => ({ ...o, label: {} })),
      source: { kind: 'FORWARD' as const, link: ' ' },
    };
    const out = expectContract(c.PredictionDetail, mapPredictionDetail(stripped, ctx('th')));
    expect(out.title).toBe('');
    expect(out.image_urls).toEqual([]);
    expect(out.creator.avatar_url).toBeNull();
    expect(out.ref).toBeNull();
  });
});
