/**
 * The key owner's reads (src/operations/me/): always about the caller, asked as the caller (never
 * a shared public read), paged by offset cursors, against a stub backend of recorded payloads.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { getMyProfile } from '../../../src/operations/me/get-my-profile.ts';
import {
  listMyBackedOpinions,
  listMyCoinLedger,
  listMyOpinions,
  listMyPositions,
  listMyRubyLedger,
  listMyTopics,
  listMyWatchlist,
} from '../../../src/operations/me/owner-lists.ts';
import type { Operation } from '../../../src/operations/operation.ts';
import * as I from '../../../src/upstream/internal-api.ts';
import { ALICE, data, harness, recorded, WEB, type BackendCall } from './harness.ts';

const BLOCKED_MARKET = '00000000-0000-4000-8000-0000000dead1';

/** The slice of a recorded offset page the call asks for, as the backend pages it. */
function paged(page: unknown, call: BackendCall) {
  const { items, total, ...rest } = page as { items: unknown[]; total: number };
  const offset = Number(call.query['offset'] ?? 0);
  const limit = Number(call.query['limit'] ?? items.length);
  return data({ ...rest, items: items.slice(offset, offset + limit), total, offset });
}

/** A backend that answers each owner endpoint with its recording. */
function ownerBackend(call: BackendCall) {
  const base = `/internal/users/${ALICE}`;
  if (call.path === `${base}/profile`) return data(recorded('users.profile.alice.json', I.UserProfile));
  if (call.path === `${base}/favorites`) return paged(recorded('users.favorites.alice.json', I.FavoritePage), call);
  if (call.path === `${base}/created`) {
    return data(recorded(call.query['kind'] === 'POLL' ? 'users.created.own.poll.json' : 'users.created.own.market.json', I.CreatedPage));
  }
  if (call.path === `/internal/wallet/${ALICE}/ledger`) {
    return paged(recorded(call.query['currency'] === 'RUBY' ? 'wallet.ledger.ruby.json' : 'wallet.ledger.coin.json', I.LedgerPage), call);
  }
  if (call.path === `/internal/prediction/users/${ALICE}/holdings`) return paged(recorded('prediction.holdings.json', I.HoldingPage), call);
  if (call.path === `/internal/prediction/users/${ALICE}/opinions`)
    return paged(recorded('prediction.own-opinions.json', I.OwnOpinionPage), call);
  if (call.path === `/internal/prediction/users/${ALICE}/backs`) return paged(recorded('prediction.backs.json', I.BackRecordPage), call);
  throw new Error(`unexpected call ${call.path}`);
}

describe('get_my_profile', () => {
  it("reads the caller's own profile as the caller, with the sapphire alias at zero", async () => {
    const h = harness(ownerBackend);
    const body = await h.run(getMyProfile);
    expect(h.calls).toEqual([{ path: `/internal/users/${ALICE}/profile`, query: {}, shared: false, actingUser: ALICE }]);
    expect(body).toMatchObject({ id: ALICE, handle: 'alice', url: `${WEB}/u/alice`, sapphires: '0.0000' });
  });

  it('takes no parameters', async () => {
    const h = harness(ownerBackend);
    await expect(h.run(getMyProfile, { user_id: 'someone-else' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'user_id' },
    });
    expect(h.calls).toEqual([]);
  });
});

describe('owner lists', () => {
  const cases: [string, Operation, string, Record<string, unknown>][] = [
    ['positions', listMyPositions as Operation, `/internal/prediction/users/${ALICE}/holdings`, {}],
    ['opinions', listMyOpinions as Operation, `/internal/prediction/users/${ALICE}/opinions`, {}],
    ['backed opinions', listMyBackedOpinions as Operation, `/internal/prediction/users/${ALICE}/backs`, {}],
    ['watchlist', listMyWatchlist as Operation, `/internal/users/${ALICE}/favorites`, {}],
    ['coin ledger', listMyCoinLedger as Operation, `/internal/wallet/${ALICE}/ledger`, { currency: 'COIN' }],
    ['ruby ledger', listMyRubyLedger as Operation, `/internal/wallet/${ALICE}/ledger`, { currency: 'RUBY' }],
  ];

  it.each(cases)("%s: the caller's page, asked as the caller, from the cursor's offset", async (_name, op, path, query) => {
    const h = harness(ownerBackend);
    const first = await h.run(op, { limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.has_more).toBe(true);
    const second = await h.run(op, { limit: 1, cursor: first.next_cursor });
    expect(second.data).toHaveLength(1);
    expect(second.data[0]).not.toEqual(first.data[0]);
    expect(h.calls).toEqual([
      { path, query: { ...query, offset: 0, limit: 1 }, shared: false, actingUser: ALICE },
      { path, query: { ...query, offset: 1, limit: 1 }, shared: false, actingUser: ALICE },
    ]);
  });

  it('signs ledger amounts: money spent is negative', async () => {
    const h = harness(ownerBackend);
    const body = await h.run(listMyCoinLedger);
    const back = body.data.find((e: { type: string }) => e.type === 'opinion_back');
    expect(back).toMatchObject({ amount: '-0.3000', currency: 'coin' });
  });

  it('list_my_watchlist hides a followed topic the backend has since blocked, and pages on without a gap', async () => {
    const favorites = recorded('users.favorites.alice.json', I.FavoritePage) as z.infer<typeof I.FavoritePage>;
    const first = favorites.items[0]!;
    const topic = first.kind === 'MARKET' ? first.market : first.poll;
    const blockedId = first.kind === 'MARKET' ? first.market.marketId : first.poll.pollId;
    topic.auditState = 'BLOCKED';
    const h = harness((call) => paged(favorites, call));
    const page = await h.run(listMyWatchlist, { limit: 1 });
    expect(page.data).toEqual([]);
    expect(page.has_more).toBe(true);
    // The next page starts after the item the backend gave, though none was shown.
    const next = await h.run(listMyWatchlist, { limit: 1, cursor: page.next_cursor });
    expect(h.calls.map((c) => c.query['offset'])).toEqual([0, 1]);
    expect(next.data.map((t: { id: string }) => t.id)).not.toContain(blockedId);
    expect(next.data).toHaveLength(1);
  });

  it('list_my_topics shows the owner their hidden topics too, one kind at a time', async () => {
    const h = harness(ownerBackend);
    const markets = await h.run(listMyTopics);
    await h.run(listMyTopics, { type: 'poll' });
    expect(h.calls.map((c) => c.query['kind'])).toEqual(['MARKET', 'POLL']);
    expect(markets.data.map((t: { id: string }) => t.id)).toContain(BLOCKED_MARKET);
    const hidden = markets.data.find((t: { id: string }) => t.id === BLOCKED_MARKET);
    expect(hidden.moderation_status).toBe('hidden');
  });
});
