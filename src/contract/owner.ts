/**
 * The key owner's records (docs/contract/resources.md#owner-resources): positions, opinions, backed
 * opinions, watchlist and ledgers. Sapphire-named fields carry the same string as their ruby
 * replacements; the refinements below hold the schemas to the rules the contract states in prose.
 */
import { z } from 'zod';
import { aliased, aliasesMatch } from './aliases.ts';
import { Count, Dec4, Dec6, ListOf, objectUnion, ResourceUrl, Timestamp, Uuid } from './common.ts';
import { LedgerCurrency, LedgerEntryType, PositionStatus } from './enums.ts';
import { PollCard, PredictionCard } from './topics.ts';
import { UserRef } from './users.ts';

// ---------------------------------------------------------------------------------------------
// Positions

export const Position = z
  .strictObject({
    id: z.string().min(1),
    topic_id: Uuid,
    topic_title: z.string().meta({ description: 'Localised.' }),
    option_id: Uuid,
    option_label: z.string().meta({ description: 'Localised.' }),
    stake_coins: Dec4.meta({ description: 'Coins spent on the position.' }),
    units: Dec4.meta({ description: 'Units bought; each pays ruby_multiplier rubies if the option is correct.' }),
    avg_price: Dec6.meta({ description: 'Coins paid per unit (stake / units), 6 decimal places.' }),
    ruby_multiplier: Dec4.meta({
      description: 'The highest boost multiplier so far among placement, settlement and sale; "1.0000" without a boost.',
    }),
    payout_if_correct_rubies: Dec4.nullable().meta({
      description: 'Guaranteed minimum payout if the option is correct: units × ruby_multiplier. Null once sold or refunded.',
    }),
    status: PositionStatus,
    sold: z.boolean().meta({ description: 'Sold in the app; a sold position is never settled or refunded.' }),
    sold_rubies: Dec4.nullable().meta({ description: 'Rubies received for the sale; null unless sold.' }),
    won: z.boolean().nullable().meta({ description: 'Whether the option won; null until settled, and for sold or refunded positions.' }),
    payout_rubies: Dec4.nullable().meta({
      description: 'Rubies paid at settlement; null until settled, and for sold or refunded positions.',
    }),
    created_at: Timestamp,
    url: ResourceUrl,
  })
  .superRefine((p, ctx) => {
    // docs/contract/trading.md#app-sale: a sold position never settles.
    if (p.sold) {
      for (const key of ['won', 'payout_rubies', 'payout_if_correct_rubies'] as const) {
        if (p[key] !== null) ctx.addIssue({ code: 'custom', path: [key], message: `${key} must be null on a sold position` });
      }
    }
  })
  .meta({ description: 'A position of the key owner on a prediction.' });
export type Position = z.infer<typeof Position>;
export const PositionList = ListOf(Position).meta({ description: "A page of the key owner's positions." });
export type PositionList = z.infer<typeof PositionList>;

// ---------------------------------------------------------------------------------------------
// Opinions

export const OpinionReplyTo = z.strictObject({ id: Uuid, excerpt: z.string() }).meta({ description: 'The opinion this one replies to.' });

export const OwnerOpinion = z
  .strictObject(
    aliased({
      id: Uuid,
      topic_id: Uuid,
      topic_title: z.string().meta({ description: 'Localised.' }),
      content: z.string(),
      side_option_id: Uuid,
      side_option_label: z.string().meta({ description: 'The option the owner staked on when publishing, localised.' }),
      reply_to: OpinionReplyTo.nullable(),
      backer_count: Count,
      ruby_payback: Dec4.meta({ description: 'Rubies earned from backers so far.' }),
      created_at: Timestamp,
      url: ResourceUrl,
    }),
  )
  .superRefine(aliasesMatch)
  .meta({ description: 'An opinion published by the key owner.' });
export type OwnerOpinion = z.infer<typeof OwnerOpinion>;
export const OwnerOpinionList = ListOf(OwnerOpinion).meta({ description: 'A page of opinions the key owner published.' });
export type OwnerOpinionList = z.infer<typeof OwnerOpinionList>;

export const BackedOpinion = z
  .strictObject(
    aliased({
      id: z.string().min(1).meta({ description: 'Id of the back.' }),
      opinion_id: Uuid,
      opinion_excerpt: z.string(),
      author: UserRef,
      topic_id: Uuid,
      topic_title: z.string().meta({ description: 'Localised.' }),
      seq: z.int().positive().meta({ description: "The owner's seat in the backing relay." }),
      price_coins: Dec4.meta({ description: 'Coins paid for the seat.' }),
      ruby_total: Dec4.meta({ description: 'Rubies received from the relay so far.' }),
      created_at: Timestamp,
      url: ResourceUrl,
    }),
  )
  .superRefine(aliasesMatch)
  .meta({ description: 'An opinion the key owner backed.' });
export type BackedOpinion = z.infer<typeof BackedOpinion>;
export const BackedOpinionList = ListOf(BackedOpinion).meta({ description: 'A page of opinions the key owner backed.' });
export type BackedOpinionList = z.infer<typeof BackedOpinionList>;

// ---------------------------------------------------------------------------------------------
// Watchlist

const addedAt = Timestamp.meta({ description: 'When the topic was added to the watchlist.' });
export const WatchedPrediction = z
  .strictObject({ ...PredictionCard.shape, added_at: addedAt })
  .meta({ description: 'A watched prediction: its card plus `added_at`.' });
export const WatchedPoll = z
  .strictObject({ ...PollCard.shape, added_at: addedAt })
  .meta({ description: 'A watched poll: its card plus `added_at`.' });
export const WatchlistItem = objectUnion('type', [WatchedPrediction, WatchedPoll], 'A watched topic: its card plus `added_at`.');
export type WatchlistItem = z.infer<typeof WatchlistItem>;
export const WatchlistList = ListOf(WatchlistItem).meta({ description: "A page of the key owner's watchlist." });
export type WatchlistList = z.infer<typeof WatchlistList>;

// ---------------------------------------------------------------------------------------------
// Ledgers

export const LedgerEntry = z
  .strictObject({
    id: z.string().min(1),
    currency: LedgerCurrency,
    type: LedgerEntryType,
    amount: Dec4.meta({ description: 'Signed change of the balance: negative when spent.' }),
    balance_after: Dec4,
    topic_id: Uuid.nullable().meta({ description: 'The topic concerned; null when none.' }),
    created_at: Timestamp,
    url: ResourceUrl.meta({ description: "The owner's wallet history page for this currency." }),
  })
  .meta({ description: "One movement of the key owner's coins or rubies." });
export type LedgerEntry = z.infer<typeof LedgerEntry>;
export const LedgerList = ListOf(LedgerEntry).meta({ description: 'A page of ledger entries, newest first.' });
export type LedgerList = z.infer<typeof LedgerList>;
