/**
 * The key owner's records (docs/contract/resources.md#owner-resources).
 *
 * Position rules: a sold position (docs/contract/trading.md#app-sale) has `won`, `payout_rubies` and
 * `payout_if_correct_rubies` null; a pending one has `won` and `payout_rubies` null; a refunded
 * one has all three null too, since it can no longer pay rubies. Otherwise
 * `payout_if_correct_rubies` is units × the position's multiplier, multiplied exactly.
 * Sapphire aliases carry the very string of their ruby field, never the backend's own figure.
 */
import { retiredValues, withAliases } from '../src/contract/aliases.ts';
import type { z } from 'zod';
import type {
  BackedOpinion,
  LedgerEntry,
  MyProfile,
  OwnerOpinion,
  OwnerTopicCard,
  OwnerTopicList,
  Position,
  PositionStatus,
  WatchlistItem,
} from '../src/contract/index.ts';
import { pickText } from '../src/i18n/text.ts';
import type {
  BackRecord,
  CreatedItem,
  CreatedPage,
  Favorite,
  Holding,
  LedgerCurrency,
  LedgerEntry as UpstreamLedgerEntry,
  OwnOpinion,
  UserProfile,
} from '../src/upstream/internal-api.ts';
import { urls, type MapContext } from './context.ts';
import { dec4, dec4OrNull, dec6, guaranteedPayout } from './decimal.ts';
import { ledgerEntryType } from './enums.ts';
import { toList } from './lists.ts';
import { excerpt } from './text.ts';
import { toTimestamp } from './time.ts';
import { mapTopicItem } from './topics.ts';
import { mapUserRef } from './users.ts';

export function mapMyProfile(profile: UserProfile, ctx: MapContext): MyProfile {
  return {
    ...mapUserRef(profile, ctx),
    coins: dec4(profile.wallet.coin),
    gems: dec4(profile.wallet.gem),
    rubies: dec4(profile.wallet.ruby),
    ...retiredValues(),
    created_at: toTimestamp(profile.registeredAt),
  };
}

// ---------------------------------------------------------------------------------------------
// Positions

const SETTLED_STATUS: Readonly<Record<Holding['result'], PositionStatus>> = {
  PENDING: 'pending',
  WON: 'won',
  LOST: 'lost',
  REFUNDED: 'refunded',
  SOLD: 'sold',
};

export function mapPosition(holding: Holding, ctx: MapContext): Position {
  // Either signal means sold; a sale is final whatever result the backend also reports.
  const sold = holding.sold || holding.result === 'SOLD';
  const status: PositionStatus = sold ? 'sold' : SETTLED_STATUS[holding.result];
  const ifCorrect = guaranteedPayout(holding.shares, holding.boostMultiplier);

  let won: boolean | null = null;
  let payout: string | null = null;
  if (status === 'won') {
    won = true;
    payout = holding.payoutRuby === null ? ifCorrect : dec4(holding.payoutRuby);
  } else if (status === 'lost') {
    won = false;
    payout = dec4(holding.payoutRuby ?? 0); // a wrong option pays nothing
  }

  return {
    id: holding.holdingId,
    topic_id: holding.marketId,
    topic_title: pickText(holding.marketTitle, ctx.lang),
    option_id: holding.outcomeId,
    option_label: pickText(holding.outcomeLabel, ctx.lang),
    stake_coins: dec4(holding.stake),
    units: dec4(holding.shares),
    avg_price: dec6(holding.avgPrice),
    ruby_multiplier: dec4(holding.boostMultiplier),
    payout_if_correct_rubies: status === 'sold' || status === 'refunded' ? null : ifCorrect,
    status,
    sold,
    sold_rubies: sold ? dec4OrNull(holding.soldRuby) : null,
    won,
    payout_rubies: payout,
    created_at: toTimestamp(holding.createdAt),
    url: urls.position(ctx, holding.marketId),
  };
}

// ---------------------------------------------------------------------------------------------
// Opinions and backs

export function mapOwnerOpinion(opinion: OwnOpinion, ctx: MapContext): OwnerOpinion {
  return withAliases({
    id: opinion.opinionId,
    topic_id: opinion.marketId,
    topic_title: pickText(opinion.marketTitle, ctx.lang),
    content: pickText(opinion.content, ctx.lang),
    side_option_id: opinion.sideOutcomeId,
    side_option_label: pickText(opinion.sideOutcomeLabel, ctx.lang),
    reply_to: opinion.replyTo === null ? null : { id: opinion.replyTo.opinionId, excerpt: opinion.replyTo.excerpt },
    backer_count: opinion.backerCount,
    ruby_payback: dec4(opinion.rubyPayback),
    created_at: toTimestamp(opinion.createdAt),
    url: urls.opinion(ctx, opinion.marketId, opinion.opinionId),
  });
}

/** A back of the owner's; its url is the backed opinion's page. */
export function mapBackedOpinion(back: BackRecord, ctx: MapContext): BackedOpinion {
  return withAliases({
    id: back.backId,
    opinion_id: back.opinionId,
    opinion_excerpt: excerpt(pickText(back.opinionExcerpt, ctx.lang)),
    author: mapUserRef(back.author, ctx),
    topic_id: back.marketId,
    topic_title: pickText(back.marketTitle, ctx.lang),
    seq: back.seq,
    price_coins: dec4(back.price),
    ruby_total: dec4(back.rubyTotal),
    created_at: toTimestamp(back.createdAt),
    url: urls.opinion(ctx, back.marketId, back.opinionId),
  });
}

// ---------------------------------------------------------------------------------------------
// Watchlist and the owner's own topics

export function mapWatchlistItem(favorite: z.infer<typeof Favorite>, ctx: MapContext): WatchlistItem {
  return { ...mapTopicItem(favorite, ctx), added_at: toTimestamp(favorite.addedAt) };
}

export function mapOwnerTopicCard(item: z.infer<typeof CreatedItem>, ctx: MapContext): OwnerTopicCard {
  return { ...mapTopicItem(item, ctx), moderation_note: item.moderationNote };
}

/** GET /me/topics: the owner's own view, blocked topics included with their note. */
export function mapOwnerTopicList(page: z.infer<typeof CreatedPage>, ctx: MapContext, nextCursor: string | null): OwnerTopicList {
  return toList(
    page.items.map((item) => mapOwnerTopicCard(item, ctx)),
    nextCursor,
  );
}

// ---------------------------------------------------------------------------------------------
// Ledgers

export function mapLedgerEntry(entry: UpstreamLedgerEntry, currency: z.infer<typeof LedgerCurrency>, ctx: MapContext): LedgerEntry {
  const cur = currency === 'COIN' ? 'coin' : 'ruby';
  return {
    id: entry.entryId,
    currency: cur,
    type: ledgerEntryType(entry.bizType),
    amount: dec4(entry.delta),
    balance_after: dec4(entry.balance),
    topic_id: entry.marketId,
    created_at: toTimestamp(entry.createdAt),
    url: urls.wallet(ctx, cur),
  };
}
