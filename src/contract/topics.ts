/**
 * Topics: options, cards and detail (docs/contract/resources.md#topics).
 *
 * Predictions and polls are two shapes discriminated by `type`, so that a prediction-only field
 * can never appear on a poll and vice versa. Nullability, where the contract leaves it open:
 * - nothing on a card is null except a poll option's `probability` and `votes_count` while the
 *   viewer may not see tallies; `is_winner` is false until the topic is settled;
 * - on detail, `ref` is null when the topic names no source; `resolved_at` and `ruby_boost`
 *   are absent (not null) until they exist.
 */
import { z } from 'zod';
import { Count, Dec4, ListOf, objectUnion, ResourceUrl, Timestamp, Url, Uuid } from './common.ts';
import { Mechanism, ModerationStatus, RefType, TopicStatus } from './enums.ts';
import { UserRef } from './users.ts';

// ---------------------------------------------------------------------------------------------
// Options

const optionName = z.string().meta({ description: 'Option text, localised.' });
const isWinner = z.boolean().meta({ description: 'True for the winning option once the topic is settled; false before.' });

export const PredictionOption = z
  .strictObject({
    id: Uuid.meta({ description: 'Option id; pass it as `option_id` to order-preview.' }),
    name: optionName,
    probability: Dec4.meta({ description: 'Current probability, 0..1.' }),
    is_winner: isWinner,
  })
  .meta({ description: 'An option of a prediction.' });
export type PredictionOption = z.infer<typeof PredictionOption>;

export const PredictionDetailOption = z
  .strictObject({
    ...PredictionOption.shape,
    implied_price: Dec4.meta({
      description: 'Current price of one unit in coins (a unit pays one ruby × multiplier if correct). Read it; never assume 1/n.',
    }),
  })
  .meta({ description: 'An option of a prediction, in the detail view.' });
export type PredictionDetailOption = z.infer<typeof PredictionDetailOption>;

export const PollOption = z
  .strictObject({
    id: z.string().min(1).meta({ description: 'Option id.' }),
    name: optionName,
    probability: Dec4.nullable().meta({
      description: 'Share of the votes, 0..1; null while `votes_visible` is false.',
    }),
    is_winner: isWinner,
    votes_count: Count.nullable().meta({ description: 'Votes for this option; null while `votes_visible` is false.' }),
  })
  .meta({ description: 'An option of a poll.' });
export type PollOption = z.infer<typeof PollOption>;

/** Any topic option; the card's `type` says which shape applies. */
export const TopicOption = z.union([PredictionDetailOption, PredictionOption, PollOption]);
export type TopicOption = z.infer<typeof TopicOption>;

// ---------------------------------------------------------------------------------------------
// Cards

const cardCommon = {
  id: Uuid,
  title: z.string().meta({ description: 'Title, localised.' }),
  created_at: Timestamp,
  end_time: Timestamp.meta({ description: 'Deadline for activity.' }),
  comments_count: Count,
  favorites_count: Count,
  url: ResourceUrl.meta({ description: 'Share page of the topic.' }),
  creator: UserRef,
  moderation_status: ModerationStatus,
};

const predictionOnly = {
  type: z.literal('prediction'),
  status: TopicStatus,
  total_volume: Dec4.meta({ description: 'Coins staked on the topic so far.' }),
  traders_count: Count.meta({ description: 'Users holding or having held a position.' }),
  mechanism: Mechanism,
  zone: z.string().nullable().meta({
    description: 'Slug of the zone (community) the prediction belongs to, or null: the value `zone` filters on in `list_topics`.',
  }),
};

const pollOnly = {
  type: z.literal('poll'),
  status: TopicStatus.exclude(['resolving']).meta({ description: 'Poll status (polls never pass through `resolving`).' }),
  voters_count: Count,
  total_stake: Dec4.meta({ description: 'Coins staked by voters.' }),
  votes_visible: z.boolean().meta({
    description: 'False until the viewer has voted or the poll has settled; option `votes_count` and `probability` are null while false.',
  }),
};

export const PredictionCard = z
  .strictObject({ ...cardCommon, ...predictionOnly, options: z.array(PredictionOption) })
  .meta({ description: 'A prediction, as listed.' });
export type PredictionCard = z.infer<typeof PredictionCard>;

export const PollCard = z
  .strictObject({ ...cardCommon, ...pollOnly, options: z.array(PollOption) })
  .meta({ description: 'A poll, as listed.' });
export type PollCard = z.infer<typeof PollCard>;

export const TopicCard = objectUnion('type', [PredictionCard, PollCard], 'A topic as listed: a prediction or a poll (see `type`).');
export type TopicCard = z.infer<typeof TopicCard>;

const moderationNote = z.string().nullable().meta({ description: 'Why moderation acted on this topic; null when it did not.' });

export const OwnerPredictionCard = z
  .strictObject({ ...PredictionCard.shape, moderation_note: moderationNote })
  .meta({ description: 'A prediction the key owner created, with its moderation note.' });
export const OwnerPollCard = z
  .strictObject({ ...PollCard.shape, moderation_note: moderationNote })
  .meta({ description: 'A poll the key owner created, with its moderation note.' });
export const OwnerTopicCard = objectUnion(
  'type',
  [OwnerPredictionCard, OwnerPollCard],
  'A topic created by the key owner, with the moderation note only its owner sees.',
);
export type OwnerTopicCard = z.infer<typeof OwnerTopicCard>;

// ---------------------------------------------------------------------------------------------
// Detail

export const TopicCategoryRef = z
  .strictObject({ id: Uuid, name: z.string().meta({ description: 'Category name, localised.' }) })
  .meta({ description: 'The category channel of the topic.' });

export const TopicRef = z.strictObject({ type: RefType, url: Url }).meta({ description: 'Forwarding attribution of the topic.' });

export const StakeRules = z
  .strictObject({
    min_coins: z.int().positive().meta({ description: 'Smallest stake, whole coins.' }),
    max_coins: z.int().positive().meta({ description: 'Largest stake, whole coins.' }),
    default_coins: z.int().positive().meta({
      description: 'Stake used when `amount_coins` is omitted. A fallback, not a suggestion: agents must ask the user.',
    }),
    market_depth: Dec4.meta({ description: 'Market depth (LMSR liquidity parameter b), frozen at creation.' }),
    rules_version: z.string().meta({ description: 'Rules version the topic was created under.' }),
  })
  .meta({ description: 'Stake rules, frozen when the topic was created.' });
export type StakeRules = z.infer<typeof StakeRules>;

export const RubyBoost = z
  .strictObject({
    multiplier: Dec4.meta({ description: 'Ruby multiplier while the boost is live.' }),
    starts_at: Timestamp,
    ends_at: Timestamp,
  })
  .meta({ description: 'Ruby boost of the topic; a correct option pays units × multiplier when live at placement, settlement or sale.' });
export type RubyBoost = z.infer<typeof RubyBoost>;

const detailCommon = {
  description: z.string().meta({ description: 'Full description.' }),
  image_urls: z.array(Url),
  resolved_at: Timestamp.optional().meta({ description: 'When the topic was settled or refunded; present only then.' }),
  category: TopicCategoryRef,
  ref: TopicRef.nullable().meta({ description: 'Forwarding attribution; null when the topic names no source.' }),
};

export const PredictionDetail = z
  .strictObject({
    ...PredictionCard.shape,
    ...detailCommon,
    options: z.array(PredictionDetailOption),
    stake_rules: StakeRules,
    ruby_boost: RubyBoost.optional().meta({ description: 'Present when the topic has or had a ruby boost.' }),
  })
  .meta({ description: 'A prediction in full.' });
export type PredictionDetail = z.infer<typeof PredictionDetail>;

export const PollDetail = z.strictObject({ ...PollCard.shape, ...detailCommon }).meta({ description: 'A poll in full.' });
export type PollDetail = z.infer<typeof PollDetail>;

export const TopicDetail = objectUnion('type', [PredictionDetail, PollDetail], 'A topic in full: a prediction or a poll (see `type`).');
export type TopicDetail = z.infer<typeof TopicDetail>;

// ---------------------------------------------------------------------------------------------
// Lists

/** GET /topics and GET /search. */
export const TopicList = ListOf(TopicCard).meta({ description: 'A page of topics.' });
export type TopicList = z.infer<typeof TopicList>;

/** GET /users/{handle}/topics. */
export const UserTopicList = z
  .strictObject({
    ...ListOf(TopicCard).shape,
    hidden: z.boolean().meta({
      description: 'True when the user hides their created topics; `data` is then empty. Empty with false is really empty.',
    }),
  })
  .meta({ description: 'A page of the topics a user created.' });
export type UserTopicList = z.infer<typeof UserTopicList>;

/** GET /me/topics. */
export const OwnerTopicList = ListOf(OwnerTopicCard).meta({ description: 'A page of the topics the key owner created.' });
export type OwnerTopicList = z.infer<typeof OwnerTopicList>;
