import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as api from '../../src/upstream/internal-api.ts';
import {
  CATEGORIES,
  CONTESTS,
  HIDDEN_TOPIC_ID,
  KEYS,
  KEY_IDS,
  MARKETS,
  OPINIONS,
  POLLS,
  type Sandbox,
  USERS,
  ZONES,
  hashKey,
  outcomeId,
} from '../../sandbox/index.ts';
import { type Answer, NOW, boot, client, data } from './helpers.ts';

let sb: Sandbox;
let call: ReturnType<typeof client>;
const alice = USERS.alice;

beforeAll(async () => {
  sb = await boot();
  call = client(sb.url);
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  data(z.object({ now: z.number() }), await call('POST', '/sandbox/admin/reset'));
});

function err(a: Answer, status: number, errCode: number): void {
  expect({ status: a.status, errCode: a.json?.errCode }).toEqual({ status, errCode });
  api.ErrorEnvelope.parse(a.json);
  expect(typeof a.json.errMsg).toBe('string');
}

async function audit(): Promise<void> {
  expect(data(z.object({ ok: z.boolean(), problems: z.array(z.string()) }), await call('GET', '/sandbox/admin/audit'))).toEqual({
    ok: true,
    problems: [],
  });
}

describe('transport', () => {
  it('refuses a missing or wrong service token with 10002 / 401, on every service', async () => {
    err(await call('GET', '/internal/zones', { token: null }), 401, 10002);
    err(await call('GET', '/internal/zones', { token: 'nope' }), 401, 10002);
    err(await call('GET', `/internal/poll/polls/${POLLS.aliceVoted}`, { token: 'nope' }), 401, 10002);
    err(await call('POST', '/sandbox/admin/reset', { token: 'nope' }), 401, 10002);
  });

  it('echoes X-Request-Id', async () => {
    const a = await call('GET', '/internal/zones', { headers: { 'x-request-id': 'req-123' } });
    expect(a.headers.get('x-request-id')).toBe('req-123');
  });

  it('answers unknown routes with 10404', async () => {
    err(await call('GET', '/internal/nothing-here'), 404, 10404);
  });

  it('refuses malformed bodies and queries with 10001', async () => {
    err(await call('POST', '/internal/auth/api-keys/verify', { body: { keyHash: 'abc' } }), 400, 10001);
    err(await call('POST', '/internal/auth/api-keys/verify', { raw: '{not json' }), 400, 10001);
    err(await call('GET', '/internal/prediction/markets?limit=0'), 400, 10001);
    err(await call('GET', '/internal/prediction/markets?limit=abc'), 400, 10001);
    err(await call('GET', '/internal/prediction/markets?sort=SIDEWAYS'), 400, 10001);
    err(await call('GET', `/internal/wallet/${alice}/ledger`), 400, 10001);
    err(await call('GET', '/internal/search'), 400, 10001);
  });

  it('answers poll-service errors with HTTP 200', async () => {
    err(await call('GET', '/internal/poll/polls/00000000-0000-4000-8000-00000000ffff'), 200, 40001);
    err(await call('GET', '/internal/poll/polls?limit=500'), 200, 10001);
    err(await call('GET', `/internal/poll/polls/${POLLS.aliceVoted}/comments?before=123`, { user: alice }), 200, 10001);
  });
});

describe('identity and wallet', () => {
  it('verifies keys by hash', async () => {
    const v = data(
      api.ApiKeyVerdict,
      await call('POST', '/internal/auth/api-keys/verify', { body: { keyHash: hashKey(KEYS.aliceWrite) } }),
    );
    expect(v).toEqual({ keyId: KEY_IDS.aliceWrite, userId: alice, scopes: ['READ', 'WRITE'], state: 'ACTIVE', expiresAt: null });
    expect(
      data(api.ApiKeyVerdict, await call('POST', '/internal/auth/api-keys/verify', { body: { keyHash: hashKey(KEYS.carolRevoked) } }))
        .state,
    ).toBe('REVOKED');
    expect(
      data(api.ApiKeyVerdict, await call('POST', '/internal/auth/api-keys/verify', { body: { keyHash: hashKey(KEYS.daveExpired) } })).state,
    ).toBe('EXPIRED');
    err(await call('POST', '/internal/auth/api-keys/verify', { body: { keyHash: hashKey('opk_test_unknown_0000000000') } }), 404, 20001);
  });

  it('serves profiles, favourites, created lists and ledgers', async () => {
    const p = data(api.UserProfile, await call('GET', `/internal/users/${alice}/profile`, { user: alice }));
    expect(p.wallet).toMatchObject({ coin: 10_000, sapphire: 0 });
    expect(data(api.UserProfile, await call('GET', `/internal/users/${USERS.bob}/profile`)).wallet.coin).toBe(5);
    err(await call('GET', `/internal/users/${alice}/profile`, { user: USERS.bob }), 404, 10404);
    err(await call('GET', '/internal/users/00000000-0000-4000-8000-00000000ffff/profile'), 404, 60002);

    const fav = data(api.FavoritePage, await call('GET', `/internal/users/${alice}/favorites`, { user: alice }));
    expect(fav.total).toBeGreaterThanOrEqual(5);
    expect(fav.items.map((f) => f.addedAt)).toEqual([...fav.items.map((f) => f.addedAt)].sort((a, b) => b - a));

    const own = data(api.CreatedPage, await call('GET', `/internal/users/${alice}/created?kind=MARKET`, { user: alice }));
    const hidden = own.items.find((i) => i.kind === 'MARKET' && i.market.marketId === HIDDEN_TOPIC_ID);
    expect(hidden?.moderationNote).toMatch(/Blocked/);
    expect(hidden?.kind === 'MARKET' && hidden.market.auditState).toBe('BLOCKED');
    const ownPolls = data(api.CreatedPage, await call('GET', `/internal/users/${alice}/created?kind=POLL`, { user: alice }));
    expect(ownPolls.items.some((i) => i.kind === 'POLL' && i.poll.pollId === POLLS.hidden)).toBe(true);

    const others = data(api.CreatedPage, await call('GET', '/internal/users/by-handle/alice/created?kind=MARKET', { user: USERS.bob }));
    expect(others.hidden).toBe(false);
    expect(others.items.some((i) => i.kind === 'MARKET' && i.market.marketId === HIDDEN_TOPIC_ID)).toBe(false);
    const quinn = data(api.CreatedPage, await call('GET', '/internal/users/by-handle/@quiet_quinn/created', { user: alice }));
    expect(quinn).toEqual({ items: [], total: 0, offset: 0, hidden: true });
    const erin = data(api.CreatedPage, await call('GET', '/internal/users/by-handle/erin/created?kind=MARKET'));
    expect(erin.total).toBeGreaterThan(0);
    err(await call('GET', '/internal/users/by-handle/nobody_here/created'), 404, 60002);

    for (const currency of ['COIN', 'RUBY']) {
      const l = data(api.LedgerPage, await call('GET', `/internal/wallet/${alice}/ledger?currency=${currency}&limit=100`, { user: alice }));
      expect(l.total).toBe(l.items.length);
      const sum = l.items.reduce((a, e) => a + e.delta, 0);
      expect(sum).toBeCloseTo(l.items[0]?.balance ?? 0, 6);
    }
    const ruby = data(api.LedgerPage, await call('GET', `/internal/wallet/${alice}/ledger?currency=RUBY&limit=100`));
    expect(ruby.items.map((e) => e.bizType)).toContain('SAPPHIRE_CONVERSION');
  });
});

describe('prediction reads', () => {
  it('lists markets with filters and sorts, never blocked ones', async () => {
    const all = data(api.MarketPage, await call('GET', '/internal/prediction/markets?limit=100'));
    expect(all.items.some((m) => m.marketId === HIDDEN_TOPIC_ID)).toBe(false);
    expect(all.items.some((m) => m.pricingModel === 'SHARE_POOL')).toBe(true);
    const open = data(api.MarketPage, await call('GET', '/internal/prediction/markets?state=ACTIVE&pricingModel=LMSR&limit=100'));
    expect(open.total).toBeGreaterThanOrEqual(30);
    expect(open.items.every((m) => m.state === 'ACTIVE' && m.pricingModel === 'LMSR')).toBe(true);
    for (const state of ['EXPIRED', 'JUDGING', 'SETTLED', 'REFUNDED']) {
      expect(data(api.MarketPage, await call('GET', `/internal/prediction/markets?state=${state}`)).total).toBeGreaterThan(0);
    }
    const ending = data(api.MarketPage, await call('GET', '/internal/prediction/markets?sort=ENDING&state=ACTIVE&limit=100')).items;
    expect(ending.map((m) => m.deadline)).toEqual([...ending.map((m) => m.deadline)].sort((a, b) => a - b));
    const newest = data(api.MarketPage, await call('GET', '/internal/prediction/markets?sort=NEW&limit=100')).items;
    expect(newest.map((m) => m.createdAt)).toEqual([...newest.map((m) => m.createdAt)].sort((a, b) => b - a));
    const zone = data(api.MarketPage, await call('GET', `/internal/prediction/markets?zone=${ZONES.cryptoCorner}&limit=100`)).items;
    expect(zone.length).toBeGreaterThan(0);
    expect(zone.every((m) => m.zoneSlug === ZONES.cryptoCorner)).toBe(true);
    const cat = data(api.MarketPage, await call('GET', `/internal/prediction/markets?categoryId=${CATEGORIES.sports}&limit=100`)).items;
    expect(cat.every((m) => m.categoryId === CATEGORIES.sports)).toBe(true);
  });

  it('pages offset lists without gaps or repeats', async () => {
    const full = data(api.MarketPage, await call('GET', '/internal/prediction/markets?limit=100'));
    const seen: string[] = [];
    for (let offset = 0; offset < full.total; offset += 7) {
      const p = data(api.MarketPage, await call('GET', `/internal/prediction/markets?offset=${offset}&limit=7`));
      expect(p.offset).toBe(offset);
      expect(p.total).toBe(full.total);
      seen.push(...p.items.map((m) => m.marketId));
    }
    expect(seen).toEqual(full.items.map((m) => m.marketId));
    expect(data(api.MarketPage, await call('GET', `/internal/prediction/markets?offset=${full.total}`)).items).toEqual([]);
  });

  it('serves every notable market detail, blocked ones marked BLOCKED', async () => {
    for (const id of Object.values(MARKETS)) {
      const d = data(api.MarketDetail, await call('GET', `/internal/prediction/markets/${id}`));
      expect(d.marketId).toBe(id);
    }
    expect(data(api.MarketDetail, await call('GET', `/internal/prediction/markets/${HIDDEN_TOPIC_ID}`)).auditState).toBe('BLOCKED');
    const uneven = data(api.MarketDetail, await call('GET', `/internal/prediction/markets/${MARKETS.uneven}`));
    expect(uneven.outcomes.reduce((a, o) => a + o.price, 0)).toBeCloseTo(1, 12);
    const won = data(api.MarketDetail, await call('GET', `/internal/prediction/markets/${MARKETS.aliceWon}`));
    expect(won.settledAt).not.toBeNull();
    expect(won.outcomes.map((o) => o.winner)).toEqual([true, false]);
    err(await call('GET', '/internal/prediction/markets/00000000-0000-4000-8000-00000000ffff'), 404, 30001);
    data(api.CategoryList, await call('GET', '/internal/prediction/categories'));
  });

  it("serves price history by range, and hides blocked markets' sub-resources", async () => {
    const all = data(api.PriceHistory, await call('GET', `/internal/prediction/markets/${MARKETS.aliceOpen}/price-history`));
    const week = data(api.PriceHistory, await call('GET', `/internal/prediction/markets/${MARKETS.aliceOpen}/price-history?range=WEEK`));
    const day = data(api.PriceHistory, await call('GET', `/internal/prediction/markets/${MARKETS.aliceOpen}/price-history?range=DAY`));
    expect(all.points.length).toBeGreaterThan(week.points.length);
    expect(week.points.every((p) => p.t >= NOW - 7 * 86_400_000)).toBe(true);
    expect(day.points).toHaveLength(1);
    expect(day.points[0]?.t).toBe(NOW - 86_400_000);
    expect(day.points[0]?.p).toEqual(week.points.at(-1)?.p);
    for (const p of all.points)
      expect(Object.keys(p.p).sort()).toEqual([outcomeId(MARKETS.aliceOpen, 1), outcomeId(MARKETS.aliceOpen, 2)].sort());
    err(await call('GET', `/internal/prediction/markets/${HIDDEN_TOPIC_ID}/price-history`, { user: USERS.bob }), 404, 30001);
    err(await call('GET', `/internal/prediction/markets/${HIDDEN_TOPIC_ID}/opinions`, { user: USERS.bob }), 404, 30001);
    data(api.PriceHistory, await call('GET', `/internal/prediction/markets/${HIDDEN_TOPIC_ID}/price-history`, { user: alice }));
  });

  it('pages opinions by keyset, roots only on request', async () => {
    const base = `/internal/prediction/markets/${MARKETS.aliceOpen}/opinions`;
    const everything = data(api.OpinionPage, await call('GET', `${base}?limit=100`));
    expect(everything.items.some((o) => o.opinionId === OPINIONS.bobReply)).toBe(true);
    const roots = data(api.OpinionPage, await call('GET', `${base}?rootOnly=1&limit=100`));
    expect(roots.items.every((o) => o.parentId === null)).toBe(true);
    const p1 = data(api.OpinionPage, await call('GET', `${base}?limit=1`));
    expect(p1.hasMore).toBe(true);
    const walked: string[] = [...p1.items.map((o) => o.opinionId)];
    let cursor = walked.at(-1);
    for (;;) {
      const p = data(api.OpinionPage, await call('GET', `${base}?limit=1&before=${cursor}`));
      walked.push(...p.items.map((o) => o.opinionId));
      cursor = walked.at(-1);
      if (!p.hasMore) break;
    }
    expect(walked).toEqual(everything.items.map((o) => o.opinionId));
    const aliceOp = everything.items.find((o) => o.opinionId === OPINIONS.aliceOpen);
    expect(aliceOp?.authorStance).toMatchObject({ kind: 'HOLDER', outcomeId: outcomeId(MARKETS.aliceOpen, 1) });
    expect(aliceOp?.replyCount).toBe(1);
  });

  it('serves opinion detail with the relay as the viewer sees it', async () => {
    const o = data(api.OpinionDetail, await call('GET', `/internal/prediction/opinions/${OPINIONS.frankBackable}`, { user: alice }));
    expect(o.relay).toMatchObject({ backerCount: 2, nextSeq: 3, nextPrice: 20, viewerBacked: false, broken: false, seatsMax: 10 });
    expect(o.relay.maxRelayPaybackSapphire).toBe(o.relay.maxRelayPayback);
    const full = data(api.OpinionDetail, await call('GET', `/internal/prediction/opinions/${OPINIONS.erinFull}`, { user: alice }));
    expect(full.relay.backerCount).toBe(full.relay.seatsMax);
    expect(
      data(api.OpinionDetail, await call('GET', `/internal/prediction/opinions/${OPINIONS.erinUneven}`, { user: alice })).relay
        .viewerBacked,
    ).toBe(true);
    expect(data(api.OpinionDetail, await call('GET', `/internal/prediction/opinions/${OPINIONS.inactive}`)).active).toBe(false);
    expect(data(api.OpinionDetail, await call('GET', `/internal/prediction/opinions/${OPINIONS.broken}`)).relay.broken).toBe(true);
    err(await call('GET', '/internal/prediction/opinions/00000000-0000-4000-8000-00000000ffff'), 404, 50001);
  });

  it("serves alice's holdings, opinions and backs", async () => {
    const hs = data(api.HoldingPage, await call('GET', `/internal/prediction/users/${alice}/holdings`, { user: alice }));
    expect(new Set(hs.items.map((h) => h.result))).toEqual(new Set(['PENDING', 'SOLD', 'WON', 'LOST', 'REFUNDED']));
    const one = data(
      api.HoldingPage,
      await call('GET', `/internal/prediction/users/${alice}/holdings?marketId=${MARKETS.aliceSold}`, { user: alice }),
    );
    expect(one.items).toHaveLength(1);
    expect(one.items[0]).toMatchObject({ sold: true, result: 'SOLD', payoutRuby: null });
    const ops = data(api.OwnOpinionPage, await call('GET', `/internal/prediction/users/${alice}/opinions`, { user: alice }));
    expect(ops.items.every((o) => o.rubyPayback > 0 && o.sapphirePayback === o.rubyPayback)).toBe(true);
    const backs = data(api.BackRecordPage, await call('GET', `/internal/prediction/users/${alice}/backs`, { user: alice }));
    expect(backs.items.map((b) => b.opinionId).sort()).toEqual([OPINIONS.erinUneven, OPINIONS.frankMulti].sort());
  });

  it('quotes LMSR markets only', async () => {
    const q = data(
      api.Quote,
      await call('POST', `/internal/prediction/markets/${MARKETS.boosted}/quote`, {
        user: alice,
        body: { outcomeId: outcomeId(MARKETS.boosted, 1), stake: 100 },
      }),
    );
    expect(q.boostMultiplier).toBe(2);
    expect(q.avgPrice).toBeGreaterThan(q.priceBefore);
    err(
      await call('POST', `/internal/prediction/markets/${MARKETS.sharePool}/quote`, {
        user: alice,
        body: { outcomeId: outcomeId(MARKETS.sharePool, 1), stake: 100 },
      }),
      409,
      30006,
    );
    err(
      await call('POST', `/internal/prediction/markets/${MARKETS.boosted}/quote`, {
        user: alice,
        body: { outcomeId: outcomeId(MARKETS.uneven, 1), stake: 100 },
      }),
      422,
      30008,
    );
    err(
      await call('POST', `/internal/prediction/markets/${MARKETS.boosted}/quote`, {
        user: alice,
        body: { outcomeId: outcomeId(MARKETS.boosted, 1), stake: 1.5 },
      }),
      400,
      10001,
    );
  });
});

describe('prediction writes', () => {
  const orderBody = (stake = 10, minShares = 0) => ({
    marketId: MARKETS.backable,
    outcomeId: outcomeId(MARKETS.backable, 1),
    stake,
    minShares,
  });

  it('places an order once per Idempotency-Key', async () => {
    const first = await call('POST', '/internal/prediction/orders', { user: alice, idem: 'order-1', body: orderBody() });
    const o = data(api.PlacedOrder, first);
    expect(o.coinBalance).toBe(9_990);
    const again = await call('POST', '/internal/prediction/orders', { user: alice, idem: 'order-1', body: orderBody() });
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    err(await call('POST', '/internal/prediction/orders', { user: alice, idem: 'order-1', body: orderBody(20) }), 409, 30009);
    err(await call('POST', '/internal/prediction/orders', { user: alice, idem: 'order-2', body: orderBody() }), 409, 30003);
    const counters = data(z.any(), await call('GET', '/sandbox/admin/counters'));
    expect(counters).toEqual({ performed: { order: 1, opinion: 0, back: 0 }, replayed: { order: 1, opinion: 0, back: 0 } });
    const holdings = data(
      api.HoldingPage,
      await call('GET', `/internal/prediction/users/${alice}/holdings?marketId=${MARKETS.backable}`, { user: alice }),
    );
    expect(holdings.items[0]?.holdingId).toBe(o.orderId);
    await audit();
  });

  it('refuses orders with the documented codes and statuses', async () => {
    const post = (body: unknown, user = alice, idem = `k-${Math.random()}`) =>
      call('POST', '/internal/prediction/orders', { user, idem, body });
    err(await post(orderBody(), alice, ''), 400, 10001);
    err(await call('POST', '/internal/prediction/orders', { user: alice, body: orderBody() }), 400, 10001);
    err(await call('POST', '/internal/prediction/orders', { idem: 'no-user', body: orderBody() }), 400, 10001);
    err(await post({ ...orderBody(), stake: '10' }), 400, 10001);
    err(await post({ ...orderBody(), marketId: MARKETS.expired, outcomeId: outcomeId(MARKETS.expired, 1) }), 409, 30002);
    err(await post({ ...orderBody(), marketId: MARKETS.legacyStake, outcomeId: outcomeId(MARKETS.legacyStake, 1), stake: 50 }), 422, 30005);
    err(await post(orderBody(), USERS.bob), 422, 30004);
    err(await post({ ...orderBody(), marketId: MARKETS.sharePool, outcomeId: outcomeId(MARKETS.sharePool, 1), stake: 100 }), 409, 30006);
    err(await post(orderBody(10, 1e6)), 409, 30007);
    err(await post({ ...orderBody(), outcomeId: outcomeId(MARKETS.uneven, 1) }), 422, 30008);
    err(await post({ ...orderBody(), marketId: '00000000-0000-4000-8000-00000000ffff' }), 404, 30001);
    err(await post(orderBody(), USERS.mallory), 403, 60001);
    err(await post(orderBody(), '00000000-0000-4000-8000-00000000ffff'), 404, 60002);
    await audit();
  });

  it('publishes an opinion and backs one, each idempotently', async () => {
    const pub = await call('POST', `/internal/prediction/markets/${MARKETS.aliceOpen}/opinions`, {
      user: alice,
      idem: 'op-1',
      body: { content: 'Still YES.', replyToOpinionId: null, sideOutcomeId: outcomeId(MARKETS.aliceOpen, 1) },
    });
    const o = data(api.PublishedOpinion, pub);
    expect(o).toMatchObject({ fee: 5, coinBalance: 9_995, backerCount: 0 });
    expect(
      (
        await call('POST', `/internal/prediction/markets/${MARKETS.aliceOpen}/opinions`, {
          user: alice,
          idem: 'op-1',
          body: { content: 'Still YES.', replyToOpinionId: null, sideOutcomeId: outcomeId(MARKETS.aliceOpen, 1) },
        })
      ).json,
    ).toEqual(pub.json);
    err(
      await call('POST', `/internal/prediction/markets/${MARKETS.backable}/opinions`, {
        user: alice,
        idem: 'op-2',
        body: { content: 'x', replyToOpinionId: null, sideOutcomeId: outcomeId(MARKETS.backable, 1) },
      }),
      422,
      50013,
    );
    err(
      await call('POST', `/internal/prediction/markets/${MARKETS.aliceOpen}/opinions`, {
        user: alice,
        idem: 'op-3',
        body: { content: 'x', replyToOpinionId: null, sideOutcomeId: outcomeId(MARKETS.aliceOpen, 2) },
      }),
      422,
      50009,
    );
    err(
      await call('POST', `/internal/prediction/markets/${MARKETS.aliceOpen}/opinions`, {
        user: alice,
        idem: 'op-4',
        body: { content: '', replyToOpinionId: null, sideOutcomeId: outcomeId(MARKETS.aliceOpen, 1) },
      }),
      422,
      50008,
    );

    const backPath = `/internal/prediction/opinions/${OPINIONS.frankBackable}/backs`;
    err(await call('POST', backPath, { user: alice, idem: 'b-0', body: { expectedSeq: 2, expectedPrice: 15 } }), 409, 50005);
    const b = data(api.PlacedBack, await call('POST', backPath, { user: alice, idem: 'b-1', body: { expectedSeq: 3, expectedPrice: 20 } }));
    expect(b).toMatchObject({ seq: 3, price: 20, coinBalance: 9_975 });
    expect(b.maxRelayPaybackSapphire).toBe(b.maxRelayPayback);
    expect(
      data(api.PlacedBack, await call('POST', backPath, { user: alice, idem: 'b-1', body: { expectedSeq: 3, expectedPrice: 20 } })),
    ).toEqual(b);
    err(await call('POST', backPath, { user: alice, idem: 'b-2', body: { expectedSeq: 4, expectedPrice: 25 } }), 409, 50003);
    err(
      await call('POST', `/internal/prediction/opinions/${OPINIONS.erinFull}/backs`, {
        user: alice,
        idem: 'b-3',
        body: { expectedSeq: 11, expectedPrice: 60 },
      }),
      409,
      50004,
    );
    err(
      await call('POST', `/internal/prediction/opinions/${OPINIONS.broken}/backs`, {
        user: alice,
        idem: 'b-4',
        body: { expectedSeq: 1, expectedPrice: 10 },
      }),
      409,
      50006,
    );
    err(
      await call('POST', `/internal/prediction/opinions/${OPINIONS.inactive}/backs`, {
        user: alice,
        idem: 'b-5',
        body: { expectedSeq: 1, expectedPrice: 10 },
      }),
      410,
      50002,
    );
    expect(data(z.any(), await call('GET', '/sandbox/admin/counters')).performed).toEqual({ order: 0, opinion: 1, back: 1 });
    await audit();
  });
});

describe('poll service and cross-service reads', () => {
  it('lists polls with tallies per viewer and gates comments', async () => {
    const list = data(api.PollPage, await call('GET', '/internal/poll/polls?state=1&limit=100', { user: alice }));
    expect(list.items.some((p) => p.pollId === POLLS.hidden)).toBe(false);
    const voted = list.items.find((p) => p.pollId === POLLS.aliceVoted);
    const notVoted = list.items.find((p) => p.pollId === POLLS.notVotedGated);
    expect(voted?.votesVisible).toBe(true);
    expect(voted?.choices.every((c) => c.voteNum !== null)).toBe(true);
    expect(notVoted?.votesVisible).toBe(false);
    expect(notVoted?.choices.every((c) => c.voteNum === null)).toBe(true);
    data(api.PollPage, await call('GET', '/internal/poll/polls?sort=NEW'));
    expect(data(api.PollPage, await call('GET', '/internal/poll/polls?state=3')).items.map((p) => p.pollId)).toContain(POLLS.settled);

    const detail = data(api.PollDetail, await call('GET', `/internal/poll/polls/${POLLS.settled}`));
    expect(detail.votesVisible).toBe(true);
    expect(detail.settleTime).not.toBeNull();
    expect(data(api.PollDetail, await call('GET', `/internal/poll/polls/${POLLS.hidden}`)).auditState).toBe('BLOCKED');

    const locked = data(
      api.PollCommentPage,
      await call('GET', `/internal/poll/polls/${POLLS.notVotedGated}/comments?rootOnly=1`, { user: alice }),
    );
    expect(locked).toEqual({ items: [], hasMore: false, locked: true });
    const open = data(api.PollCommentPage, await call('GET', `/internal/poll/polls/${POLLS.notVotedOpen}/comments`, { user: alice }));
    expect(open.locked).toBe(false);
    expect(open.items.length).toBeGreaterThan(0);
    const mine = data(api.PollCommentPage, await call('GET', `/internal/poll/polls/${POLLS.aliceVoted}/comments?limit=1`, { user: alice }));
    expect(mine).toMatchObject({ locked: false, hasMore: true });
    const next = data(
      api.PollCommentPage,
      await call('GET', `/internal/poll/polls/${POLLS.aliceVoted}/comments?limit=10&before=${mine.items[0]?.commentId}`, { user: alice }),
    );
    expect(next.items.length).toBeGreaterThan(0);
  });

  it('searches, lists zones and serves contests', async () => {
    const s = data(api.SearchPage, await call('GET', '/internal/search?kw=rain'));
    expect(s.items.some((i) => i.kind === 'MARKET' && i.market.marketId === MARKETS.aliceOpen)).toBe(true);
    const zh = data(api.SearchPage, await call('GET', `/internal/search?kw=${encodeURIComponent('颱風')}`));
    expect(zh.items.some((i) => i.kind === 'MARKET' && i.market.marketId === MARKETS.noEnglish)).toBe(true);
    const polls = data(api.SearchPage, await call('GET', '/internal/search?kw=the&kind=POLL&limit=100'));
    expect(polls.items.every((i) => i.kind === 'POLL')).toBe(true);
    const share = data(api.SearchPage, await call('GET', '/internal/search?kw=peg&kind=MARKET&pricingModel=SHARE_POOL'));
    expect(share.total).toBe(1);
    expect(data(api.SearchPage, await call('GET', '/internal/search?kw=neighbour')).total).toBe(0);

    const zones = data(api.ZoneList, await call('GET', '/internal/zones'));
    expect(zones.items.length).toBeGreaterThanOrEqual(3);
    const phases = [];
    for (const id of Object.values(CONTESTS)) phases.push(data(api.Contest, await call('GET', `/internal/contests/${id}`)).phase);
    expect(phases).toEqual(['UPCOMING', 'OPEN', 'REVEAL_PENDING', 'SETTLED', 'VOIDED']);
    err(await call('GET', '/internal/contests/00000000-0000-4000-8000-00000000c0ff'), 404, 70001);
  });
});

describe('admin', () => {
  const post = (path: string, body?: unknown) => call('POST', `/sandbox/admin${path}`, { body: body ?? {} });

  it('settles, refunds, sets states, starts boosts and sells', async () => {
    data(api.MarketDetail, await post(`/markets/${MARKETS.boosted}/boost`, { multiplier: 3, durationMs: 3_600_000 }));
    expect(data(api.MarketDetail, await call('GET', `/internal/prediction/markets/${MARKETS.boosted}`)).boost?.multiplier).toBe(3);
    const settled = data(
      api.MarketDetail,
      await post(`/markets/${MARKETS.boosted}/settle`, { winnerOutcomeId: outcomeId(MARKETS.boosted, 1) }),
    );
    expect(settled.state).toBe('SETTLED');
    err(await post(`/markets/${MARKETS.boosted}/settle`, { winnerOutcomeId: outcomeId(MARKETS.boosted, 1) }), 409, 30002);
    expect(data(api.MarketDetail, await post(`/markets/${MARKETS.backable}/refund`)).state).toBe('REFUNDED');
    expect(data(api.MarketDetail, await post(`/markets/${MARKETS.fullRelay}/state`, { state: 'JUDGING' })).state).toBe('JUDGING');
    err(await post(`/markets/${MARKETS.fullRelay}/state`, { state: 'SETTLED' }), 400, 10001);
    const sold = data(api.Holding, await post('/holdings/sell', { userId: alice, marketId: MARKETS.aliceOpen }));
    expect(sold).toMatchObject({ sold: true, result: 'SOLD' });
    err(await post('/holdings/sell', { holdingId: sold.holdingId }), 400, 10001);
    await audit();
  });

  it('votes and settles polls', async () => {
    const p = data(api.PollDetail, await call('GET', `/internal/poll/polls/${POLLS.notVotedGated}`));
    const choice = p.choices[0]?.choiceId ?? '';
    const voted = data(api.PollDetail, await post(`/polls/${POLLS.notVotedGated}/vote`, { userId: alice, choiceId: choice, stake: 10 }));
    expect(voted.votesVisible).toBe(true);
    const settled = data(api.PollDetail, await post(`/polls/${POLLS.notVotedGated}/settle`, { winnerChoiceId: choice }));
    expect(settled.state).toBe(3);
    expect(settled.choices.find((c) => c.choiceId === choice)?.isWinner).toBe(true);
    await audit();
  });

  it('creates and revokes keys, advances the clock, grants coins', async () => {
    const k = data(
      z.object({ key: z.string(), keyId: z.string() }),
      await post('/keys', { userId: USERS.erin, scopes: ['read', 'write'], expiresAt: NOW + 60_000 }),
    );
    expect(k.key).toMatch(/^opk_test_[A-Za-z0-9_]{16,}$/);
    const verify = () => call('POST', '/internal/auth/api-keys/verify', { body: { keyHash: hashKey(k.key) } });
    expect(data(api.ApiKeyVerdict, await verify())).toMatchObject({
      userId: USERS.erin,
      scopes: ['READ', 'WRITE'],
      state: 'ACTIVE',
      expiresAt: NOW + 60_000,
    });
    data(z.any(), await post(`/keys/${k.keyId}/revoke`));
    expect(data(api.ApiKeyVerdict, await verify()).state).toBe('REVOKED');

    const c = data(z.object({ now: z.number(), offsetMs: z.number() }), await post('/clock/advance', { ms: 4 * 86_400_000 }));
    expect(c).toEqual({ now: NOW + 4 * 86_400_000, offsetMs: 4 * 86_400_000 });
    const boosted = data(
      api.Quote,
      await call('POST', `/internal/prediction/markets/${MARKETS.boosted}/quote`, {
        body: { outcomeId: outcomeId(MARKETS.boosted, 1), stake: 10 },
      }),
    );
    expect(boosted.boostMultiplier).toBe(1);
    expect(data(z.any(), await call('GET', '/sandbox/admin/clock')).offsetMs).toBe(4 * 86_400_000);

    expect(data(z.object({ balance: z.number() }), await post('/wallet/grant', { userId: USERS.bob, amount: 95 })).balance).toBe(100);
    await audit();
    data(z.any(), await post('/reset'));
    expect(data(z.any(), await call('GET', '/sandbox/admin/clock')).offsetMs).toBe(0);
    expect(data(api.UserProfile, await call('GET', `/internal/users/${USERS.bob}/profile`)).wallet.coin).toBe(5);
  });
});

describe('event-loop delay', () => {
  it('reports how long the event loop was held up since the last reset, and resets', async () => {
    await call('POST', '/sandbox/admin/event-loop/reset');
    await new Promise((r) => setTimeout(r, 30));
    // The sandbox runs in this process: blocking here blocks its event loop.
    const until = performance.now() + 80;
    while (performance.now() < until);
    await new Promise((r) => setTimeout(r, 30));
    const held = data(z.any(), await call('GET', '/sandbox/admin/event-loop'));
    expect(held.maxMs).toBeGreaterThanOrEqual(60);
    expect(held.samples).toBeGreaterThan(0);
    const cleared = data(z.any(), await call('POST', '/sandbox/admin/event-loop/reset'));
    expect(cleared.maxMs).toBeGreaterThanOrEqual(held.maxMs);
    const after = data(z.any(), await call('GET', '/sandbox/admin/event-loop'));
    expect(after.maxMs).toBeLessThan(held.maxMs);
    expect(after.since).toBeGreaterThanOrEqual(held.since);
  });

  it('counts only the delay beyond its 5 ms sampling interval: an idle loop reads below it', async () => {
    // The monitor records whole intervals, never less than 5 ms, so without the subtraction
    // every reading is 5 ms or more; idle, the delay beyond it is a fraction of a millisecond.
    // The least of a few idle readings, so a busy parallel suite cannot hold one up.
    const readings: number[] = [];
    for (let i = 0; i < 5; i++) {
      await call('POST', '/sandbox/admin/event-loop/reset');
      await new Promise((r) => setTimeout(r, 40));
      readings.push((data(z.any(), await call('GET', '/sandbox/admin/event-loop')) as { maxMs: number }).maxMs);
    }
    expect(Math.min(...readings)).toBeLessThan(4);
  });
});

describe('fault injection', () => {
  const addFault = async (spec: unknown) =>
    data(z.object({ faultId: z.number() }), await call('POST', '/sandbox/admin/faults', { body: spec }));

  it('answers a given status and body a given number of times', async () => {
    await addFault({ method: 'GET', pathPrefix: '/internal/zones', status: 503, body: { errCode: 99999, errMsg: 'down' }, times: 2 });
    err(await call('GET', '/internal/zones'), 503, 99999);
    err(await call('GET', '/internal/zones'), 503, 99999);
    data(api.ZoneList, await call('GET', '/internal/zones'));
  });

  it('sends a string body verbatim (malformed answers) and can be cleared', async () => {
    await addFault({ pathPrefix: '/internal/prediction/categories', status: 200, body: '{"errCode":0,"data":' });
    const a = await call('GET', '/internal/prediction/categories');
    expect(a.status).toBe(200);
    expect(a.json).toBe('{"errCode":0,"data":');
    expect(data(z.object({ cleared: z.number() }), await call('DELETE', '/sandbox/admin/faults')).cleared).toBe(1);
    data(api.CategoryList, await call('GET', '/internal/prediction/categories'));
  });

  it('delays answers, and a delayed write holds its key in flight (30010)', async () => {
    await addFault({ method: 'POST', pathPrefix: '/internal/prediction/orders', delayMs: 300, times: 1 });
    const body = { marketId: MARKETS.backable, outcomeId: outcomeId(MARKETS.backable, 1), stake: 10, minShares: 0 };
    let answered = false;
    const slow = call('POST', '/internal/prediction/orders', { user: alice, idem: 'slow-1', body }).finally(() => {
      answered = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    err(await call('POST', '/internal/prediction/orders', { user: alice, idem: 'slow-1', body }), 409, 30010);
    // The first order is still held when the second is refused.
    expect(answered).toBe(false);
    const done = await slow;
    data(api.PlacedOrder, done);
    expect((await call('POST', '/internal/prediction/orders', { user: alice, idem: 'slow-1', body })).json).toEqual(done.json);
    expect(data(z.any(), await call('GET', '/sandbox/admin/counters')).performed.order).toBe(1);
  });

  it('phase "after" performs the write and loses the answer; a retry replays it', async () => {
    await addFault({
      method: 'POST',
      pathPrefix: '/internal/prediction/opinions/',
      status: 502,
      body: 'bad gateway',
      phase: 'after',
      times: 1,
    });
    const path = `/internal/prediction/opinions/${OPINIONS.frankBackable}/backs`;
    const body = { expectedSeq: 3, expectedPrice: 20 };
    const lost = await call('POST', path, { user: alice, idem: 'lost-1', body });
    expect(lost.status).toBe(502);
    const retry = data(api.PlacedBack, await call('POST', path, { user: alice, idem: 'lost-1', body }));
    expect(retry.seq).toBe(3);
    expect(data(z.any(), await call('GET', '/sandbox/admin/counters'))).toMatchObject({ performed: { back: 1 }, replayed: { back: 1 } });
    await audit();
  });

  it('never applies to admin calls, and reset clears faults', async () => {
    await addFault({ pathPrefix: '/', status: 500 });
    data(z.any(), await call('GET', '/sandbox/admin/audit'));
    err(await call('GET', '/internal/zones'), 500, 99999);
    data(z.any(), await call('POST', '/sandbox/admin/reset'));
    data(api.ZoneList, await call('GET', '/internal/zones'));
  });
});

describe('trace context received', () => {
  const TP = (n: number) => `00-4bf92f3577b34da6a3ce929d0e0e4736-${n.toString(16).padStart(16, '0')}-01`;
  const kept = async () =>
    data(z.object({ received: z.array(z.record(z.string(), z.string())) }), await call('GET', '/sandbox/admin/trace-context')).received;

  it('keeps the traceparent and tracestate of requests that carry one, path without query, admin calls aside', async () => {
    await call('GET', '/internal/zones?x=1', { headers: { traceparent: TP(1), tracestate: 'v=1' } });
    await call('GET', '/internal/zones');
    await call('GET', '/sandbox/admin/clock', { headers: { traceparent: TP(2) } });
    expect(await kept()).toEqual([{ method: 'GET', path: '/internal/zones', traceparent: TP(1), tracestate: 'v=1' }]);
  });

  it('keeps only the last 50, and a reset clears them', async () => {
    for (let i = 1; i <= 52; i += 1) await call('GET', '/internal/zones', { headers: { traceparent: TP(i) } });
    const list = await kept();
    expect(list).toHaveLength(50);
    expect(list[0]?.['traceparent']).toBe(TP(3));
    expect(list[49]?.['traceparent']).toBe(TP(52));
    await call('POST', '/sandbox/admin/reset');
    expect(await kept()).toEqual([]);
  });
});
