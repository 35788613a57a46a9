/**
 * Topics of both services → contract cards and detail (docs/contract/resources.md#topics).
 *
 * The prediction and poll services differ in every field name; the contract shapes are the same
 * apart from the type-only fields. Rules applied here:
 * - `is_winner` is false until the backend names a winner (its null means "not settled");
 * - a poll's `votes_count` and `probability` are null whenever `votes_visible` is false,
 *   whatever tallies the backend sent, so that a hidden tally cannot leak;
 * - `resolved_at` and `ruby_boost` are left out, not null, until they exist.
 */
import type { z } from 'zod';
import type {
  PollCard,
  PollDetail,
  PollOption,
  PredictionCard,
  PredictionDetail,
  PredictionDetailOption,
  PredictionOption,
  StakeRules,
  TopicCard,
  UserTopicList,
} from '../src/contract/index.ts';
import { pickText } from '../src/i18n/text.ts';
import type {
  CreatedPage,
  MarketDetail,
  MarketSummary,
  Outcome,
  PollChoice,
  PollDetail as UpstreamPollDetail,
  PollSummary,
  TopicItem,
} from '../src/upstream/internal-api.ts';
import { urls, type MapContext } from './context.ts';
import { dec4, decRatio } from './decimal.ts';
import { marketStatus, mechanism, moderationStatus, pollStatus, refType } from './enums.ts';
import { externalUrl, externalUrls } from './links.ts';
import { toList } from './lists.ts';
import { topicItemVisible } from './visibility.ts';
import { toTimestamp } from './time.ts';
import { mapUserRef } from './users.ts';

// ---------------------------------------------------------------------------------------------
// Options

export function mapPredictionOption(outcome: Outcome, ctx: MapContext): PredictionOption {
  return {
    id: outcome.outcomeId,
    name: pickText(outcome.label, ctx.lang),
    probability: dec4(outcome.prob),
    is_winner: outcome.winner === true,
  };
}

export function mapPredictionDetailOption(outcome: MarketDetail['outcomes'][number], ctx: MapContext): PredictionDetailOption {
  return { ...mapPredictionOption(outcome, ctx), implied_price: dec4(outcome.price) };
}

/**
 * Poll options. Tallies show only when visible; each option's probability is then its share of
 * the votes (all "0.0000" before the first vote), computed exactly.
 */
export function mapPollOptions(choices: readonly PollChoice[], votesVisible: boolean, ctx: MapContext): PollOption[] {
  const tallies = choices.map((c) => c.voteNum);
  const complete = votesVisible && tallies.every((n) => n !== null);
  const total = complete ? tallies.reduce<number>((sum, n) => sum + (n ?? 0), 0) : 0;
  return choices.map((c) => ({
    id: c.choiceId,
    name: pickText(c.text, ctx.lang),
    probability: complete ? (decRatio(c.voteNum ?? 0, total, 4) ?? '0.0000') : null,
    is_winner: c.isWinner,
    votes_count: votesVisible ? c.voteNum : null,
  }));
}

// ---------------------------------------------------------------------------------------------
// Cards

export function mapPredictionCard(market: MarketSummary, ctx: MapContext): PredictionCard {
  return {
    id: market.marketId,
    type: 'prediction',
    title: pickText(market.title, ctx.lang),
    status: marketStatus(market.state),
    created_at: toTimestamp(market.createdAt),
    end_time: toTimestamp(market.deadline),
    comments_count: market.commentCount,
    favorites_count: market.favoriteCount,
    url: urls.prediction(ctx, market.marketId),
    options: market.outcomes.map((o) => mapPredictionOption(o, ctx)),
    creator: mapUserRef(market.creator, ctx),
    total_volume: dec4(market.volume),
    traders_count: market.traderCount,
    mechanism: mechanism(market.pricingModel),
    zone: market.zoneSlug,
    moderation_status: moderationStatus(market.auditState),
  };
}

export function mapPollCard(poll: PollSummary, ctx: MapContext): PollCard {
  return {
    id: poll.pollId,
    type: 'poll',
    title: pickText(poll.subject, ctx.lang),
    status: pollStatus(poll.state),
    created_at: toTimestamp(poll.createTime),
    end_time: toTimestamp(poll.endTime),
    comments_count: poll.commentNum,
    favorites_count: poll.favNum,
    url: urls.poll(ctx, poll.pollId),
    options: mapPollOptions(poll.choices, poll.votesVisible, ctx),
    creator: mapUserRef(poll.creator, ctx),
    voters_count: poll.voterNum,
    total_stake: dec4(poll.stakeTotal),
    votes_visible: poll.votesVisible,
    moderation_status: moderationStatus(poll.auditState),
  };
}

/** A tagged item of search, favorites or created lists. */
export function mapTopicItem(item: TopicItem, ctx: MapContext): TopicCard {
  return item.kind === 'MARKET' ? mapPredictionCard(item.market, ctx) : mapPollCard(item.poll, ctx);
}

// ---------------------------------------------------------------------------------------------
// Detail

type Source = MarketDetail['source'];

function mapRef(source: Source, ctx: MapContext): PredictionDetail['ref'] {
  if (source === null) return null;
  const url = externalUrl(source.link, ctx);
  // A source without a visitable link attributes nothing a reader could follow.
  return url === null ? null : { type: refType(source.kind), url };
}

/** What both services' detail views add to a card, already taken out of their own field names. */
type DetailSource = {
  description: string;
  images: readonly string[];
  settledAt: number | null;
  category: MarketDetail['category'];
  source: Source;
};

function detailFields(d: DetailSource, ctx: MapContext) {
  return {
    description: d.description,
    image_urls: externalUrls(d.images, ctx),
    ...(d.settledAt === null ? {} : { resolved_at: toTimestamp(d.settledAt) }),
    category: { id: d.category.categoryId, name: pickText(d.category.name, ctx.lang) },
    ref: mapRef(d.source, ctx),
  };
}

export function mapStakeRules(rule: MarketDetail['stakeRule']): StakeRules {
  return {
    min_coins: rule.minStake,
    max_coins: rule.maxStake,
    default_coins: rule.defaultStake,
    market_depth: dec4(rule.liquidity),
    rules_version: rule.rulesVersion,
  };
}

export function mapPredictionDetail(market: MarketDetail, ctx: MapContext): PredictionDetail {
  return {
    ...mapPredictionCard(market, ctx),
    options: market.outcomes.map((o) => mapPredictionDetailOption(o, ctx)),
    ...detailFields(
      {
        description: market.intro,
        images: market.pictures,
        settledAt: market.settledAt,
        category: market.category,
        source: market.source,
      },
      ctx,
    ),
    stake_rules: mapStakeRules(market.stakeRule),
    ...(market.boost === null
      ? {}
      : {
          ruby_boost: {
            multiplier: dec4(market.boost.multiplier),
            starts_at: toTimestamp(market.boost.startAt),
            ends_at: toTimestamp(market.boost.endAt),
          },
        }),
  };
}

export function mapPollDetail(poll: UpstreamPollDetail, ctx: MapContext): PollDetail {
  return {
    ...mapPollCard(poll, ctx),
    ...detailFields(
      {
        description: poll.description,
        images: poll.images,
        settledAt: poll.settleTime,
        category: poll.category,
        source: poll.source,
      },
      ctx,
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Lists

/**
 * GET /users/{handle}/topics. A hidden list is empty and final whatever the backend sent, so
 * that hidden topics cannot leak; blocked topics are dropped and so is the owner-only
 * moderation note.
 */
export function mapUserTopicList(page: z.infer<typeof CreatedPage>, ctx: MapContext, nextCursor: string | null): UserTopicList {
  if (page.hidden) return { ...toList([], null), hidden: true };
  return {
    ...toList(
      page.items.filter(topicItemVisible).map((item) => mapTopicItem(item, ctx)),
      nextCursor,
    ),
    hidden: false,
  };
}
