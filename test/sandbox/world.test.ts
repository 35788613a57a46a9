import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code, SandboxError } from '../../sandbox/errors.ts';
import { KEYS, KEY_IDS, MARKETS, OPINIONS, POLLS, USERS, World, hashKey, outcomeId, seedWorld } from '../../sandbox/index.ts';
import { quoteBuy } from '../../sandbox/lmsr.ts';
import { maxRelayPayback, seatPrice } from '../../sandbox/world/relay.ts';

const NOW = Date.UTC(2026, 5, 1, 12);
const DAY = 86_400_000;
let w: World;

beforeEach(() => {
  w = new World({ now: () => NOW, seed: seedWorld });
});
afterEach(() => {
  // Every scenario must leave balances equal to the sum of their ledgers.
  expect(w.audit()).toEqual({ ok: true, problems: [] });
});

function code(fn: () => unknown): number {
  try {
    fn();
  } catch (e) {
    if (e instanceof SandboxError) return e.code;
    throw e;
  }
  throw new Error('expected a SandboxError');
}

const coins = (u: string) => w.profile(u, null).wallet.coin;
const rubies = (u: string) => w.profile(u, null).wallet.ruby;
const holding = (u: string, m: string) => w.holdings(u, m, null, { offset: 0, limit: 5 }).items[0];
const order = (u: string, m: string, k: number, stake: number, minShares = 0) =>
  w.placeOrder(u, { marketId: m, outcomeId: outcomeId(m, k), stake, minShares });

describe('the seeded world', () => {
  it('has the documented balances and no sapphires', () => {
    expect(w.profile(USERS.alice, null).wallet).toMatchObject({ coin: 10_000, sapphire: 0 });
    expect(coins(USERS.bob)).toBe(5);
    expect(w.counters().performed).toEqual({ order: 0, opinion: 0, back: 0 });
  });

  it('has 30+ open LMSR markets over 3+ categories and 2+ zones, and every other state', () => {
    const open = w.listMarkets({ offset: 0, limit: 100, state: 'ACTIVE', pricingModel: 'LMSR' }).items;
    expect(open.length).toBeGreaterThanOrEqual(30);
    expect(new Set(open.map((m) => m.categoryId)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(open.map((m) => m.zoneSlug).filter(Boolean)).size).toBeGreaterThanOrEqual(2);
    expect(w.marketDetail(MARKETS.expired).state).toBe('EXPIRED');
    expect(w.marketDetail(MARKETS.judging).state).toBe('JUDGING');
    expect(w.marketDetail(MARKETS.aliceWon).state).toBe('SETTLED');
    expect(w.marketDetail(MARKETS.refunded).state).toBe('REFUNDED');
    expect(w.marketDetail(MARKETS.sharePool).pricingModel).toBe('SHARE_POOL');
    expect(w.marketDetail(MARKETS.legacyStake).stakeRule).toMatchObject({ minStake: 100, maxStake: 100, defaultStake: 100 });
    expect(w.marketDetail(MARKETS.multiOutcome).outcomes.length).toBeGreaterThanOrEqual(3);
    expect(w.marketDetail(MARKETS.uneven).outcomes[0]?.prob).toBeGreaterThan(0.65);
    expect(w.marketDetail(MARKETS.boosted).boost).toMatchObject({ multiplier: 2 });
    expect(w.quote(MARKETS.boosted, outcomeId(MARKETS.boosted, 1), 10).boostMultiplier).toBe(2);
  });

  it('gives alice a sold, a won, a lost, a refunded and an open holding', () => {
    const hs = w.holdings(USERS.alice, undefined, null, { offset: 0, limit: 20 }).items;
    const by = (m: string) => hs.find((h) => h.marketId === m);
    expect(by(MARKETS.aliceSold)).toMatchObject({ sold: true, result: 'SOLD' });
    expect(w.marketDetail(MARKETS.aliceSold).state).toBe('ACTIVE');
    expect(by(MARKETS.aliceWon)).toMatchObject({ result: 'WON', boostMultiplier: 1.5 });
    expect(by(MARKETS.aliceLost)).toMatchObject({ result: 'LOST', payoutRuby: 0 });
    expect(by(MARKETS.refunded)).toMatchObject({ result: 'REFUNDED' });
    expect(by(MARKETS.aliceOpen)).toMatchObject({ result: 'PENDING', sold: false, payoutRuby: null });
    const ruby = w.ledger(USERS.alice, 'RUBY', null, { offset: 0, limit: 50 }).items.map((e) => e.bizType);
    expect(ruby).toEqual(expect.arrayContaining(['SAPPHIRE_CONVERSION', 'SETTLEMENT_PAYOUT', 'POSITION_SALE', 'OPINION_PAYBACK']));
  });

  it('lists ledgers newest first with increasing numeric ids', () => {
    const items = w.ledger(USERS.alice, 'COIN', null, { offset: 0, limit: 100 }).items;
    for (let i = 1; i < items.length; i++) {
      expect(BigInt(items[i - 1]?.entryId ?? 0) > BigInt(items[i]?.entryId ?? 0)).toBe(true);
      expect(items[i - 1]?.createdAt).toBeGreaterThanOrEqual(items[i]?.createdAt ?? 0);
    }
  });

  it('verifies the documented keys by hash only', () => {
    expect(w.verifyKey(hashKey(KEYS.aliceRead))).toMatchObject({
      keyId: KEY_IDS.aliceRead,
      userId: USERS.alice,
      scopes: ['READ'],
      state: 'ACTIVE',
    });
    expect(w.verifyKey(hashKey(KEYS.aliceWrite)).scopes).toEqual(['READ', 'WRITE']);
    expect(w.verifyKey(hashKey(KEYS.carolRevoked)).state).toBe('REVOKED');
    const dave = w.verifyKey(hashKey(KEYS.daveExpired));
    expect(dave.state).toBe('EXPIRED');
    expect(dave.expiresAt).toBeLessThan(NOW);
    expect(code(() => w.verifyKey(hashKey('opk_test_nobody_000000000000')))).toBe(Code.API_KEY_NOT_FOUND);
  });
});

describe('orders', () => {
  it('spend exactly the stake and record the quoted units', () => {
    const m = MARKETS.backable;
    const q = w.quote(m, outcomeId(m, 2), 20);
    const before = coins(USERS.alice);
    const o = order(USERS.alice, m, 2, 20, q.shares);
    expect(o.shares).toBe(q.shares);
    expect(o.stake).toBe(20);
    expect(o.avgPrice).toBeCloseTo(20 / q.shares, 12);
    expect(o.avgPrice).toBeGreaterThan(q.priceBefore);
    expect(o.avgPrice).toBeLessThan(q.priceAfter);
    expect(o.boostMultiplier).toBe(1);
    expect(coins(USERS.alice)).toBe(before - 20);
    expect(o.coinBalance).toBe(before - 20);
    expect(w.marketDetail(m).outcomes[1]?.prob).toBeCloseTo(q.priceAfter, 12);
    const last = w.priceHistory(m, 'ALL', null).points.at(-1);
    expect(last?.t).toBe(NOW);
    expect(w.counters().performed.order).toBe(1);
  });

  it('allow one order per user per market, a sold holding included', () => {
    order(USERS.alice, MARKETS.backable, 1, 10);
    expect(code(() => order(USERS.alice, MARKETS.backable, 2, 10))).toBe(Code.MARKET_ALREADY_ORDERED);
    expect(code(() => order(USERS.alice, MARKETS.aliceSold, 1, 10))).toBe(Code.MARKET_ALREADY_ORDERED);
  });

  it('refuse in precedence order and change nothing when refused', () => {
    const before = coins(USERS.alice);
    expect(code(() => order(USERS.alice, MARKETS.expired, 1, 10))).toBe(Code.MARKET_NOT_ACTIVE);
    expect(code(() => order(USERS.alice, MARKETS.aliceSold, 1, 100_000))).toBe(Code.MARKET_ALREADY_ORDERED);
    expect(code(() => order(USERS.alice, MARKETS.legacyStake, 1, 50))).toBe(Code.STAKE_OUT_OF_RANGE);
    expect(code(() => order(USERS.bob, MARKETS.legacyStake, 1, 5000))).toBe(Code.STAKE_OUT_OF_RANGE);
    expect(code(() => order(USERS.bob, MARKETS.backable, 1, 10))).toBe(Code.COINS_INSUFFICIENT);
    expect(code(() => order(USERS.alice, MARKETS.sharePool, 1, 100))).toBe(Code.PRICING_MODEL_UNSUPPORTED);
    expect(code(() => w.quote(MARKETS.sharePool, outcomeId(MARKETS.sharePool, 1), 100))).toBe(Code.PRICING_MODEL_UNSUPPORTED);
    expect(
      code(() =>
        w.placeOrder(USERS.alice, { marketId: MARKETS.backable, outcomeId: outcomeId(MARKETS.boosted, 1), stake: 10, minShares: 0 }),
      ),
    ).toBe(Code.OUTCOME_INVALID);
    expect(code(() => order(USERS.alice, MARKETS.hidden, 1, 10))).toBe(Code.MARKET_NOT_ACTIVE);
    expect(code(() => order(USERS.mallory, MARKETS.backable, 1, 10))).toBe(Code.USER_PUNISHED);
    expect(code(() => order(USERS.alice, '00000000-0000-4000-8000-00000000ffff', 1, 10))).toBe(Code.MARKET_NOT_FOUND);
    const q = w.quote(MARKETS.backable, outcomeId(MARKETS.backable, 1), 10);
    expect(code(() => order(USERS.alice, MARKETS.backable, 1, 10, q.shares + 0.0001))).toBe(Code.SLIPPAGE_EXCEEDED);
    expect(coins(USERS.alice)).toBe(before);
    expect(holding(USERS.alice, MARKETS.backable)).toBeUndefined();
    expect(w.counters().performed.order).toBe(0);
  });

  it('stop at the deadline when the clock advances', () => {
    w.advanceClock(19 * DAY);
    expect(w.marketDetail(MARKETS.backable).state).toBe('EXPIRED');
    expect(code(() => order(USERS.alice, MARKETS.backable, 1, 10))).toBe(Code.MARKET_NOT_ACTIVE);
  });
});

describe('settlement, boosts, refunds and sales', () => {
  it('pays winners shares × the highest multiplier, losers nothing', () => {
    const m = MARKETS.backable;
    const win = order(USERS.alice, m, 1, 50);
    const lose = order(USERS.dave, m, 2, 50);
    w.startBoost(m, { multiplier: 3, startAt: NOW, endAt: NOW + DAY });
    const r0 = rubies(USERS.alice);
    const d0 = rubies(USERS.dave);
    w.settleMarket(m, outcomeId(m, 1));
    const expected = new Big(win.shares).times(3).round(4, Big.roundDown).toNumber();
    expect(rubies(USERS.alice)).toBeCloseTo(r0 + expected, 8);
    expect(rubies(USERS.dave)).toBe(d0);
    expect(holding(USERS.alice, m)).toMatchObject({ result: 'WON', boostMultiplier: 3, payoutRuby: expected });
    expect(holding(USERS.dave, m)).toMatchObject({ result: 'LOST', payoutRuby: 0 });
    expect(lose.boostMultiplier).toBe(1);
    expect(w.ledger(USERS.alice, 'RUBY', null, { offset: 0, limit: 1 }).items[0]).toMatchObject({
      bizType: 'SETTLEMENT_PAYOUT',
      delta: expected,
      marketId: m,
    });
    expect(w.marketDetail(m).outcomes.map((o) => o.winner)).toEqual([true, false]);
  });

  it('keeps the placement multiplier when the boost is over at settlement', () => {
    const m = MARKETS.boosted;
    const o = order(USERS.alice, m, 1, 100);
    expect(o.boostMultiplier).toBe(2);
    w.advanceClock(4 * DAY);
    expect(w.quote(m, outcomeId(m, 1), 10).boostMultiplier).toBe(1);
    const r0 = rubies(USERS.alice);
    w.settleMarket(m, outcomeId(m, 1));
    expect(rubies(USERS.alice)).toBeCloseTo(r0 + new Big(o.shares).times(2).round(4, Big.roundDown).toNumber(), 8);
  });

  it('refunds stakes in coins and leaves sold holdings alone', () => {
    const m = MARKETS.aliceSold;
    const heidi = holding(USERS.heidi, m);
    const c0 = coins(USERS.heidi);
    const a0 = coins(USERS.alice);
    w.refundMarket(m);
    expect(coins(USERS.heidi)).toBe(c0 + (heidi?.stake ?? 0));
    expect(coins(USERS.alice)).toBe(a0);
    expect(holding(USERS.alice, m)).toMatchObject({ result: 'SOLD', sold: true });
    expect(holding(USERS.heidi, m)).toMatchObject({ result: 'REFUNDED' });
    expect(code(() => w.settleMarket(m, outcomeId(m, 1)))).toBe(Code.MARKET_NOT_ACTIVE);
  });

  it('sells at shares × current price × multiplier, and never settles a sold holding', () => {
    const m = MARKETS.aliceOpen;
    const h = holding(USERS.alice, m);
    const price = w.marketDetail(m).outcomes[0]?.price ?? 0;
    const r0 = rubies(USERS.alice);
    const sold = w.sellHolding({ userId: USERS.alice, marketId: m });
    const value = new Big(h?.shares ?? 0).times(price).round(4, Big.roundDown).toNumber();
    expect(sold).toMatchObject({ sold: true, result: 'SOLD', soldRuby: value, payoutRuby: null });
    expect(rubies(USERS.alice)).toBeCloseTo(r0 + value, 8);
    expect(w.marketDetail(m).outcomes[0]?.price).toBeLessThan(price);
    expect(code(() => order(USERS.alice, m, 1, 10))).toBe(Code.MARKET_ALREADY_ORDERED);
    const r1 = rubies(USERS.alice);
    w.settleMarket(m, outcomeId(m, 1));
    expect(rubies(USERS.alice)).toBe(r1);
    expect(holding(USERS.alice, m)).toMatchObject({ result: 'SOLD' });
  });

  it('sale during a boost uses the live multiplier', () => {
    const m = MARKETS.backable;
    const o = order(USERS.alice, m, 1, 40);
    w.startBoost(m, { multiplier: 1.5, startAt: NOW, endAt: NOW + DAY });
    const price = w.marketDetail(m).outcomes[0]?.price ?? 0;
    const sold = w.sellHolding({ userId: USERS.alice, marketId: m });
    expect(sold.boostMultiplier).toBe(1.5);
    expect(sold.soldRuby).toBe(new Big(o.shares).times(price).times(1.5).round(4, Big.roundDown).toNumber());
  });
});

describe('opinions, backs and paybacks', () => {
  it('back buys the next seat and pays the two seats before and the author', () => {
    const o = w.opinionDetail(OPINIONS.frankBackable, USERS.alice);
    expect(o.relay).toMatchObject({ backerCount: 2, nextSeq: 3, nextPrice: 20, viewerBacked: false, broken: false });
    expect(o.relay.maxRelayPayback).toBe(maxRelayPayback(3).toNumber());
    const grace0 = rubies(USERS.grace);
    const heidi0 = rubies(USERS.heidi);
    const frank0 = rubies(USERS.frank);
    const c0 = coins(USERS.alice);
    const b = w.back(USERS.alice, OPINIONS.frankBackable, { expectedSeq: 3, expectedPrice: 20 });
    expect(b).toMatchObject({ seq: 3, price: 20, coinBalance: c0 - 20, maxRelayPayback: 0.3 * 25 + 0.2 * 30 });
    expect(rubies(USERS.heidi)).toBeCloseTo(heidi0 + 6, 8);
    expect(rubies(USERS.grace)).toBeCloseTo(grace0 + 4, 8);
    expect(rubies(USERS.frank)).toBeCloseTo(frank0 + 2, 8);
    expect(w.opinionDetail(OPINIONS.frankBackable, USERS.alice).relay).toMatchObject({ backerCount: 3, viewerBacked: true });
    expect(code(() => w.back(USERS.alice, OPINIONS.frankBackable, { expectedSeq: 4, expectedPrice: 25 }))).toBe(
      Code.OPINION_ALREADY_BACKED,
    );
    expect(w.backs(USERS.alice, null, { offset: 0, limit: 1 }).items[0]).toMatchObject({
      opinionId: OPINIONS.frankBackable,
      seq: 3,
      rubyTotal: 0,
    });
    w.back(USERS.dave, OPINIONS.frankBackable, { expectedSeq: 4, expectedPrice: 25 });
    expect(w.backs(USERS.alice, null, { offset: 0, limit: 1 }).items[0]?.rubyTotal).toBe(7.5);
    expect(w.counters().performed.back).toBe(2);
  });

  it('refuses moved seats, full, inactive, broken and closed relays', () => {
    expect(code(() => w.back(USERS.alice, OPINIONS.frankBackable, { expectedSeq: 2, expectedPrice: 15 }))).toBe(Code.OPINION_RELAY_MOVED);
    expect(code(() => w.back(USERS.alice, OPINIONS.frankBackable, { expectedSeq: 3, expectedPrice: 19 }))).toBe(Code.OPINION_RELAY_MOVED);
    expect(code(() => w.back(USERS.alice, OPINIONS.erinFull, { expectedSeq: 11, expectedPrice: 60 }))).toBe(Code.OPINION_RELAY_FULL);
    expect(code(() => w.back(USERS.alice, OPINIONS.inactive, { expectedSeq: 1, expectedPrice: 10 }))).toBe(Code.OPINION_INACTIVE);
    expect(code(() => w.back(USERS.alice, OPINIONS.broken, { expectedSeq: 1, expectedPrice: 10 }))).toBe(Code.OPINION_RELAY_BROKEN);
    expect(code(() => w.back(USERS.alice, OPINIONS.aliceOpen, { expectedSeq: 4, expectedPrice: 25 }))).toBe(Code.OPINION_ALREADY_BACKED);
    expect(code(() => w.back(USERS.bob, OPINIONS.graceOnAliceOpen, { expectedSeq: 1, expectedPrice: 10 }))).toBe(Code.COINS_INSUFFICIENT);
    w.setMarketState(MARKETS.backable, 'JUDGING');
    expect(code(() => w.back(USERS.alice, OPINIONS.frankBackable, { expectedSeq: 3, expectedPrice: 20 }))).toBe(Code.OPINION_MARKET_CLOSED);
    expect(w.counters().performed.back).toBe(0);
  });

  it("publishes for a fee with the side of the author's position", () => {
    const m = MARKETS.aliceOpen;
    const c0 = coins(USERS.alice);
    const fee = w.marketDetail(m).opinionFee;
    const side = outcomeId(m, 1);
    const p = w.publishOpinion(USERS.alice, m, {
      content: '  Still YES.  ',
      replyToOpinionId: OPINIONS.graceOnAliceOpen,
      sideOutcomeId: side,
    });
    expect(p).toMatchObject({
      content: { en: 'Still YES.' },
      fee,
      coinBalance: c0 - fee,
      backerCount: 0,
      rubyPayback: 0,
      sideOutcomeId: side,
    });
    expect(p.replyTo?.opinionId).toBe(OPINIONS.graceOnAliceOpen);
    expect(w.ledger(USERS.alice, 'COIN', null, { offset: 0, limit: 1 }).items[0]).toMatchObject({ bizType: 'OPINION_FEE', delta: -fee });
    expect(w.counters().performed.opinion).toBe(1);
  });

  it('refuses opinions without a position, on the wrong side, invalid, moderated or closed', () => {
    const side = (m: string, k: number) => outcomeId(m, k);
    const pub = (u: string, m: string, content: string, s: string) => () =>
      w.publishOpinion(u, m, { content, replyToOpinionId: null, sideOutcomeId: s });
    expect(code(pub(USERS.alice, MARKETS.backable, 'hi', side(MARKETS.backable, 1)))).toBe(Code.OPINION_SIDE_REQUIRED);
    expect(code(pub(USERS.alice, MARKETS.aliceSold, 'hi', side(MARKETS.aliceSold, 1)))).toBe(Code.OPINION_SIDE_REQUIRED);
    expect(code(pub(USERS.alice, MARKETS.aliceOpen, 'hi', side(MARKETS.aliceOpen, 2)))).toBe(Code.OPINION_SIDE_INVALID);
    expect(code(pub(USERS.alice, MARKETS.aliceOpen, '   ', side(MARKETS.aliceOpen, 1)))).toBe(Code.CONTENT_INVALID);
    expect(code(pub(USERS.alice, MARKETS.aliceOpen, 'x'.repeat(501), side(MARKETS.aliceOpen, 1)))).toBe(Code.CONTENT_INVALID);
    expect(code(pub(USERS.alice, MARKETS.aliceOpen, 'this is a scam', side(MARKETS.aliceOpen, 1)))).toBe(Code.CONTENT_MODERATED);
    expect(code(pub(USERS.alice, MARKETS.aliceWon, 'hi', side(MARKETS.aliceWon, 1)))).toBe(Code.OPINION_MARKET_CLOSED);
    expect(code(pub(USERS.alice, MARKETS.hidden, 'hi', side(MARKETS.hidden, 1)))).toBe(Code.OPINION_MARKET_HIDDEN);
    expect(code(pub(USERS.mallory, MARKETS.aliceOpen, 'hi', side(MARKETS.aliceOpen, 1)))).toBe(Code.USER_PUNISHED);
    expect(w.counters().performed.opinion).toBe(0);
  });

  it('relay prices and paybacks follow the documented formula', () => {
    expect([1, 2, 3, 10].map((n) => seatPrice(n).toNumber())).toEqual([10, 15, 20, 55]);
    expect(maxRelayPayback(1).toNumber()).toBe(0.3 * 15 + 0.2 * 20);
    expect(maxRelayPayback(9).toNumber()).toBe(0.3 * 55);
    expect(maxRelayPayback(10).toNumber()).toBe(0);
  });
});

describe('polls', () => {
  it('hide tallies and lock comments until the viewer votes', () => {
    const p = w.pollDetail(POLLS.notVotedGated, USERS.alice);
    expect(p.votesVisible).toBe(false);
    expect(p.choices.every((c) => c.voteNum === null)).toBe(true);
    expect(w.pollComments(POLLS.notVotedGated, { rootOnly: true, limit: 10 }, USERS.alice)).toEqual({
      items: [],
      hasMore: false,
      locked: true,
    });
    const c0 = coins(USERS.alice);
    const after = w.votePoll(USERS.alice, POLLS.notVotedGated, p.choices[0]?.choiceId ?? '', 7);
    expect(after.votesVisible).toBe(true);
    expect(coins(USERS.alice)).toBe(c0 - 7);
    expect(w.pollComments(POLLS.notVotedGated, { rootOnly: true, limit: 10 }, USERS.alice).items.length).toBeGreaterThan(0);
  });

  it('settle pays the pot to the winners pro rata', () => {
    const p = w.pollDetail(POLLS.aliceVoted, USERS.alice);
    const winner = p.choices[0]?.choiceId ?? '';
    const a0 = coins(USERS.alice);
    const c0 = coins(USERS.carol);
    w.settlePoll(POLLS.aliceVoted, winner);
    // pot 45 (alice 20 + carol 15 on the winner, dave 10 elsewhere)
    expect(coins(USERS.alice)).toBeCloseTo(a0 + new Big(45).times(20).div(35).round(4, Big.roundDown).toNumber(), 8);
    expect(coins(USERS.carol)).toBeCloseTo(c0 + new Big(45).times(15).div(35).round(4, Big.roundDown).toNumber(), 8);
    expect(w.pollDetail(POLLS.aliceVoted, null).votesVisible).toBe(true);
  });
});

describe('idempotency', () => {
  const run = (key: string, fp: string, fn: () => unknown) => w.idempotent('order', key, fp, async () => ({ data: fn(), status: 200 }));

  it('answers a repeat from the store, refuses another body and an in-flight key', async () => {
    const m = MARKETS.backable;
    const place = () => order(USERS.alice, m, 1, 10);
    const first = await run('k1', 'fp-a', place);
    expect(first.replayed).toBe(false);
    const c1 = coins(USERS.alice);
    const again = await run('k1', 'fp-a', place);
    expect(again).toEqual({ answer: first.answer, replayed: true });
    expect(coins(USERS.alice)).toBe(c1);
    await expect(run('k1', 'fp-b', place)).rejects.toMatchObject({ code: Code.IDEMPOTENCY_KEY_REUSED });

    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const slow = w.idempotent('order', 'k2', 'fp', async () => {
      await gate;
      return { data: order(USERS.carol, m, 2, 10), status: 200 };
    });
    await expect(run('k2', 'fp', place)).rejects.toMatchObject({ code: Code.IDEMPOTENCY_IN_FLIGHT });
    release();
    expect((await slow).replayed).toBe(false);
    expect(w.counters()).toEqual({ performed: { order: 2, opinion: 0, back: 0 }, replayed: { order: 1, opinion: 0, back: 0 } });
  });

  it('stores refusals too, but forgets a key after 24 hours', async () => {
    const refused = await run('k3', 'fp', () => order(USERS.bob, MARKETS.backable, 1, 10));
    expect(refused.answer).toMatchObject({ ok: false, code: Code.COINS_INSUFFICIENT });
    w.grant(USERS.bob, 'COIN', 100);
    expect((await run('k3', 'fp', () => order(USERS.bob, MARKETS.backable, 1, 10))).replayed).toBe(true);
    w.advanceClock(DAY + 1);
    const fresh = await run('k3', 'fp', () => order(USERS.bob, MARKETS.backable, 1, 10));
    expect(fresh).toMatchObject({ replayed: false, answer: { ok: true } });
  });
});

describe('keys and reset', () => {
  it('creates, verifies and revokes keys', () => {
    const { key, keyId } = w.createKey(USERS.erin, ['READ'], NOW + DAY);
    expect(key).toMatch(/^opk_test_[A-Za-z0-9]{16,}$/);
    expect(w.verifyKey(hashKey(key))).toMatchObject({ keyId, userId: USERS.erin, state: 'ACTIVE', expiresAt: NOW + DAY });
    w.revokeKey(keyId);
    expect(w.verifyKey(hashKey(key)).state).toBe('REVOKED');
  });

  it('reset reseeds and zeroes the clock offset', () => {
    order(USERS.alice, MARKETS.backable, 1, 10);
    w.advanceClock(DAY);
    w.reset();
    expect(w.clockInfo()).toEqual({ now: NOW, offsetMs: 0 });
    expect(coins(USERS.alice)).toBe(10_000);
    expect(holding(USERS.alice, MARKETS.backable)).toBeUndefined();
  });

  it('seeds deterministically', () => {
    const other = new World({ now: () => NOW, seed: seedWorld });
    expect(other.listMarkets({ offset: 0, limit: 100 })).toEqual(w.listMarkets({ offset: 0, limit: 100 }));
    expect(other.ledger(USERS.alice, 'RUBY', null, { offset: 0, limit: 100 })).toEqual(
      w.ledger(USERS.alice, 'RUBY', null, { offset: 0, limit: 100 }),
    );
    expect(quoteBuy([0, 0], 100, 0, 1).units).toBeGreaterThan(0);
  });
});
