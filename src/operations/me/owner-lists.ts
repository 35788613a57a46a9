/**
 * The key owner's paginated lists (docs/contract/reads.md#owner-reads): positions, opinions, backed
 * opinions, watchlist, both ledgers and created topics. Each is one backend offset page mapped
 * item by item.
 */
import { z } from 'zod';
import {
  mapBackedOpinion,
  mapLedgerEntry,
  mapOwnerOpinion,
  mapOwnerTopicList,
  mapPosition,
  mapWatchlistItem,
} from '../../../mappers/owner.ts';
import { BackedOpinionList, LedgerList, OwnerOpinionList, PositionList, WatchlistList } from '../../contract/owner.ts';
import { OwnerTopicList } from '../../contract/topics.ts';
import { topicItemVisible, withoutHidden } from '../../../mappers/visibility.ts';
import { fromOffsetPage, nextOffsetCursor } from '../../pagination/page.ts';
import * as platform from '../../upstream/api/platform.api.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation, type OperationContext } from '../operation.ts';
import { Paging, TopicTypeParam } from '../params.ts';

const PagingInput = z.strictObject(Paging);
type PagingInput = z.infer<typeof PagingInput>;

/** One backend offset page for the caller, as a contract list. */
async function ownerPage<I, T>(
  ctx: OperationContext,
  input: PagingInput,
  load: (offset: number) => Promise<{ items: I[]; total: number; seen?: number }>,
  map: (item: I) => T,
) {
  const offset = ctx.cursors.offsetOf(input.cursor);
  return { body: fromOffsetPage(ctx.cursors, await load(offset), offset, map) };
}

const common = { scope: 'read', kind: 'read', mcp: true, tag: 'Account' } as const;

export const listMyPositions = defineOperation({
  ...common,
  name: 'list_my_positions',
  title: 'List my positions',
  description:
    "The key owner's positions, newest first: option, stake, units, average price, ruby multiplier, guaranteed `payout_if_correct_rubies`, " +
    'and `won`/`payout_rubies` once settled. A position sold in the app has `sold: true` and `sold_rubies` and is never settled.',
  localised: true,
  rest: { method: 'GET', path: '/me/positions' },
  input: PagingInput,
  output: PositionList,
  execute: (ctx, input) =>
    ownerPage(
      ctx,
      input,
      (offset) => prediction.listHoldings(ctx.upstream, ctx.caller.userId, { offset, limit: input.limit }),
      (h) => mapPosition(h, mapContextOf(ctx)),
    ),
});

export const listMyOpinions = defineOperation({
  ...common,
  name: 'list_my_opinions',
  title: 'List my opinions',
  description:
    'Opinions the key owner published, newest first, with their side, backer count and `ruby_payback` (`sapphire_payback`: deprecated alias).',
  localised: true,
  rest: { method: 'GET', path: '/me/opinions' },
  input: PagingInput,
  output: OwnerOpinionList,
  execute: (ctx, input) =>
    ownerPage(
      ctx,
      input,
      (offset) => prediction.listOwnOpinions(ctx.upstream, ctx.caller.userId, { offset, limit: input.limit }),
      (o) => mapOwnerOpinion(o, mapContextOf(ctx)),
    ),
});

export const listMyBackedOpinions = defineOperation({
  ...common,
  name: 'list_my_backed_opinions',
  title: 'List opinions I backed',
  description:
    'Opinions the key owner backed, newest first: seat `seq`, price paid and `ruby_total` received (`sapphire_total`: deprecated alias).',
  localised: true,
  rest: { method: 'GET', path: '/me/backed-opinions' },
  input: PagingInput,
  output: BackedOpinionList,
  execute: (ctx, input) =>
    ownerPage(
      ctx,
      input,
      (offset) => prediction.listBacks(ctx.upstream, ctx.caller.userId, { offset, limit: input.limit }),
      (b) => mapBackedOpinion(b, mapContextOf(ctx)),
    ),
});

export const listMyWatchlist = defineOperation({
  ...common,
  name: 'list_my_watchlist',
  title: 'List my watchlist',
  description: 'Topics the key owner follows (predictions and polls), most recently added first, as topic cards with `added_at`.',
  localised: true,
  rest: { method: 'GET', path: '/me/watchlist' },
  input: PagingInput,
  output: WatchlistList,
  execute: (ctx, input) =>
    ownerPage(
      ctx,
      input,
      // A followed topic the backend has since blocked is hidden from the follower as from anyone
      // but its owner (docs/contract/reads.md#not-found); `seen` keeps the offsets continuous.
      async (offset) =>
        withoutHidden(await platform.listFavorites(ctx.upstream, ctx.caller.userId, { offset, limit: input.limit }), topicItemVisible),
      (f) => mapWatchlistItem(f, mapContextOf(ctx)),
    ),
});

/** The coin and ruby ledgers are one operation shape over two currencies. */
function ledgerOperation(currency: 'COIN' | 'RUBY', name: string, title: string, description: string, path: string) {
  return defineOperation({
    ...common,
    name,
    title,
    description,
    localised: false,
    rest: { method: 'GET', path },
    input: PagingInput,
    output: LedgerList,
    execute: (ctx, input) =>
      ownerPage(
        ctx,
        input,
        (offset) => platform.listLedger(ctx.upstream, ctx.caller.userId, { currency, offset, limit: input.limit }),
        (e) => mapLedgerEntry(e, currency, mapContextOf(ctx)),
      ),
  });
}

export const listMyCoinLedger = ledgerOperation(
  'COIN',
  'list_my_coin_ledger',
  'List my coin ledger',
  "Every movement of the key owner's coins, newest first: type, signed amount, balance after and the topic concerned.",
  '/me/coin-ledger',
);

export const listMyRubyLedger = ledgerOperation(
  'RUBY',
  'list_my_ruby_ledger',
  'List my ruby ledger',
  "Every movement of the key owner's rubies, newest first: settlement payouts, positions sold in the app, opinion " +
    'paybacks and the one-off conversion of the old sapphire balance.',
  '/me/ruby-ledger',
);

export const listMyTopics = defineOperation({
  ...common,
  mcp: false,
  name: 'list_my_topics',
  title: 'List topics I created',
  description:
    'Topics the key owner created, one kind at a time (`type`, default prediction), including those hidden by ' +
    'moderation, with `moderation_note` saying why moderation acted.',
  localised: true,
  rest: { method: 'GET', path: '/me/topics' },
  input: z.strictObject({ type: TopicTypeParam, ...Paging }),
  output: OwnerTopicList,
  async execute(ctx, input) {
    const offset = ctx.cursors.offsetOf(input.cursor);
    const kind = input.type === 'prediction' ? 'MARKET' : 'POLL';
    const page = await platform.listOwnCreated(ctx.upstream, ctx.caller.userId, { kind, offset, limit: input.limit });
    return { body: mapOwnerTopicList(page, mapContextOf(ctx), nextOffsetCursor(ctx.cursors, page, offset)) };
  },
});
