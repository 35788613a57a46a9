/**
 * The backend's internal API, as the gateway expects it (docs/internal-api.md is the prose).
 *
 * These schemas are the one definition of every upstream shape: the upstream client validates
 * each answer against them (an upstream is untrusted), the mappers take their inferred types,
 * and the sandbox backend in sandbox/ types its answers with them.
 *
 * The shapes deliberately keep the app's own habits (camelCase, float amounts, epoch-ms
 * times, locale maps, upper-case or integer enums): translating them is the gateway's job.
 */
import { z } from 'zod';
import { APP_LOCALE_TAGS, type AppLocaleTag } from '../i18n/languages.ts';

// ---------------------------------------------------------------------------------------------
// Transport conventions

/** Headers the gateway sends on every upstream call. */
export const UPSTREAM_HEADERS = {
  serviceToken: 'x-service-token',
  actingUser: 'x-acting-user',
  requestId: 'x-request-id',
  idempotencyKey: 'idempotency-key',
  /** Sent back by the backend, `true`, when a write's answer is the stored one of an earlier call with the same key. */
  idempotentReplayed: 'idempotent-replayed',
} as const;

/**
 * Every answer is a JSON envelope. `errCode: 0` is success and carries `data`; anything else is
 * an error, whatever the HTTP status (the poll service answers its errors with HTTP 200).
 */
export const ErrorEnvelope = z.object({
  errCode: z
    .number()
    .int()
    .refine((n) => n !== 0, 'error envelope with errCode 0'),
  errMsg: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Numeric error codes of the internal API. The gateway maps them in src/upstream/errors.ts. */
export const UpstreamErrCode = {
  BAD_REQUEST: 10001,
  SERVICE_UNAUTHORIZED: 10002,
  NOT_FOUND: 10404,
  INTERNAL: 99999,

  API_KEY_NOT_FOUND: 20001,

  MARKET_NOT_FOUND: 30001,
  MARKET_NOT_ACTIVE: 30002,
  MARKET_ALREADY_ORDERED: 30003,
  COINS_INSUFFICIENT: 30004,
  STAKE_OUT_OF_RANGE: 30005,
  PRICING_MODEL_UNSUPPORTED: 30006,
  SLIPPAGE_EXCEEDED: 30007,
  OUTCOME_INVALID: 30008,
  IDEMPOTENCY_KEY_REUSED: 30009,
  IDEMPOTENCY_IN_FLIGHT: 30010,

  POLL_NOT_FOUND: 40001,

  OPINION_NOT_FOUND: 50001,
  OPINION_INACTIVE: 50002,
  OPINION_ALREADY_BACKED: 50003,
  OPINION_RELAY_FULL: 50004,
  OPINION_RELAY_MOVED: 50005,
  OPINION_RELAY_BROKEN: 50006,
  CONTENT_MODERATED: 50007,
  CONTENT_INVALID: 50008,
  OPINION_SIDE_INVALID: 50009,
  OPINION_MARKET_CLOSED: 50010,
  OPINION_BUSY: 50011,
  OPINION_MARKET_HIDDEN: 50012,
  OPINION_SIDE_REQUIRED: 50013,

  USER_PUNISHED: 60001,
  USER_NOT_FOUND: 60002,
  CONTEST_NOT_FOUND: 70001,
} as const;
export type UpstreamErrCode = (typeof UpstreamErrCode)[keyof typeof UpstreamErrCode];

// ---------------------------------------------------------------------------------------------
// Building blocks

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** UUID-shaped id (any version; the sandbox uses fixed, readable ids). */
export const Uuid = z.string().regex(UUID_RE, 'uuid');
/** Numeric-string id, as the older services use (poll choices, holdings, ledger entries). */
export const NumericId = z.string().regex(/^[0-9]{1,19}$/, 'numeric id');
export const EpochMs = z.number().int().nonnegative();
/** Coins, rubies, gems, prices: binary floats on the wire. */
export const Amount = z.number().finite();
/** A price or fee the user pays: never negative (a negative one would show a balance going up). */
export const Charge = Amount.nonnegative();
export const Probability = z.number().finite().min(0).max(1);

const optionalText = z.string().optional();
/**
 * Localised text: a map keyed by app locale tag (src/i18n/languages.ts; `in` is the legacy tag
 * for Indonesian), any of which may be missing. The known tags hold strings when present;
 * unknown tags are tolerated and dropped, as nothing reads them. An object of optional keys, not
 * a record of strings: zod compiles an object's checks, which validates a map about six times
 * faster, and lists carry two or more maps per item (docs/performance.md, kept optimisations).
 */
export const LocaleText = z.object(
  Object.fromEntries(APP_LOCALE_TAGS.map((tag) => [tag, optionalText])) as Record<AppLocaleTag, typeof optionalText>,
);
export type LocaleText = z.infer<typeof LocaleText>;

export const UserRef = z.object({
  userId: Uuid,
  handle: z.string().min(1),
  nickName: z.string(),
  avatar: z.string().nullable(),
  accountType: z.number().int(),
});
export type UserRef = z.infer<typeof UserRef>;

/** Moderation verdict on user-created content. BLOCKED content is hidden from everyone else. */
export const AuditState = z.enum(['PASS', 'REVIEWING', 'BLOCKED']);
export type AuditState = z.infer<typeof AuditState>;

export const OffsetPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int().nonnegative(), offset: z.number().int().nonnegative() });
export const KeysetPage = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), hasMore: z.boolean() });

// ---------------------------------------------------------------------------------------------
// Identity: API keys and users

/** POST /internal/auth/api-keys/verify  body {keyHash}: hex SHA-256 of the raw key. */
export const VerifyKeyRequest = z.object({ keyHash: z.string().regex(/^[0-9a-f]{64}$/) });
export const ApiKeyScope = z.enum(['READ', 'WRITE']);
export const ApiKeyVerdict = z.object({
  keyId: z.string().min(1),
  userId: Uuid,
  scopes: z.array(ApiKeyScope),
  state: z.enum(['ACTIVE', 'REVOKED', 'EXPIRED']),
  /** Null for keys that never expire. A key past this instant is expired even if ACTIVE. */
  expiresAt: EpochMs.nullable(),
});
export type ApiKeyVerdict = z.infer<typeof ApiKeyVerdict>;

/** GET /internal/users/{userId}/profile */
export const UserProfile = UserRef.extend({
  registeredAt: EpochMs,
  wallet: z.object({
    coin: Amount,
    gem: Amount,
    ruby: Amount,
    /** Retired currency, merged 1:1 into rubies; always 0 now. */
    sapphire: Amount,
  }),
});
export type UserProfile = z.infer<typeof UserProfile>;

// ---------------------------------------------------------------------------------------------
// Prediction service

export const MarketState = z.enum(['ACTIVE', 'EXPIRED', 'JUDGING', 'SETTLED', 'REFUNDED']);
export type MarketState = z.infer<typeof MarketState>;
export const PricingModel = z.enum(['SHARE_POOL', 'LMSR']);
export type PricingModel = z.infer<typeof PricingModel>;
export const MarketSort = z.enum(['HOT', 'NEW', 'ENDING']);

export const Outcome = z.object({
  outcomeId: Uuid,
  label: LocaleText,
  prob: Probability,
  /** Null until settled. */
  winner: z.boolean().nullable(),
});
export type Outcome = z.infer<typeof Outcome>;

/** Item of market lists (GET /internal/prediction/markets, search, favorites, created lists). */
export const MarketSummary = z.object({
  marketId: Uuid,
  title: LocaleText,
  state: MarketState,
  createdAt: EpochMs,
  deadline: EpochMs,
  commentCount: z.number().int().nonnegative(),
  favoriteCount: z.number().int().nonnegative(),
  volume: Amount,
  traderCount: z.number().int().nonnegative(),
  creator: UserRef,
  pricingModel: PricingModel,
  auditState: AuditState,
  categoryId: Uuid,
  zoneSlug: z.string().nullable(),
  outcomes: z.array(Outcome).min(2),
});
export type MarketSummary = z.infer<typeof MarketSummary>;

export const StakeRule = z.object({
  minStake: z.number().int().positive(),
  maxStake: z.number().int().positive(),
  defaultStake: z.number().int().positive(),
  /** LMSR liquidity parameter b, frozen at creation. */
  liquidity: Amount,
  rulesVersion: z.string(),
});
export type StakeRule = z.infer<typeof StakeRule>;

export const Boost = z.object({ multiplier: Amount, startAt: EpochMs, endAt: EpochMs });
export type Boost = z.infer<typeof Boost>;

/** GET /internal/prediction/markets/{marketId} */
export const MarketDetail = MarketSummary.extend({
  intro: z.string(),
  pictures: z.array(z.string()),
  settledAt: EpochMs.nullable(),
  category: z.object({ categoryId: Uuid, name: LocaleText }),
  source: z.object({ kind: z.enum(['ORIGINAL', 'FORWARD']), link: z.string() }).nullable(),
  stakeRule: StakeRule,
  boost: Boost.nullable(),
  /** Fee in coins to publish an opinion on this market. */
  opinionFee: Charge,
  outcomes: z.array(Outcome.extend({ price: Probability })).min(2),
});
export type MarketDetail = z.infer<typeof MarketDetail>;

/** POST /internal/prediction/markets/{marketId}/quote  body {outcomeId, stake} (acting user header). */
export const QuoteRequest = z.object({ outcomeId: Uuid, stake: z.number().int().positive() });
export const Quote = z.object({
  priceBefore: Probability,
  priceAfter: Probability,
  /** Units bought, rounded down in the house's favour. */
  shares: Amount,
  avgPrice: Amount,
  /** Ruby multiplier live now (1 without a boost). */
  boostMultiplier: Amount,
});
export type Quote = z.infer<typeof Quote>;

/**
 * POST /internal/prediction/orders  (Idempotency-Key header; acting user header)
 * body {marketId, outcomeId, stake, minShares}. The market refuses with SLIPPAGE_EXCEEDED rather
 * than fill fewer than minShares units. A repeated Idempotency-Key with the same body answers
 * the stored order; with another body, IDEMPOTENCY_KEY_REUSED.
 */
export const PlaceOrderRequest = z.object({
  marketId: Uuid,
  outcomeId: Uuid,
  stake: z.number().int().positive(),
  minShares: Amount,
});
export const PlacedOrder = z.object({
  orderId: NumericId,
  marketId: Uuid,
  outcomeId: Uuid,
  outcomeLabel: LocaleText,
  stake: Amount,
  shares: Amount,
  avgPrice: Amount,
  boostMultiplier: Amount,
  coinBalance: Amount,
  createdAt: EpochMs,
});
export type PlacedOrder = z.infer<typeof PlacedOrder>;

export const HoldingResult = z.enum(['PENDING', 'WON', 'LOST', 'REFUNDED', 'SOLD']);
/** GET /internal/prediction/users/{userId}/holdings?marketId=&offset=&limit= (newest first) */
export const Holding = z.object({
  holdingId: NumericId,
  marketId: Uuid,
  marketTitle: LocaleText,
  outcomeId: Uuid,
  outcomeLabel: LocaleText,
  stake: Amount,
  shares: Amount,
  avgPrice: Amount,
  /** The highest multiplier so far among placement, settlement and sale. */
  boostMultiplier: Amount,
  sold: z.boolean(),
  soldRuby: Amount.nullable(),
  result: HoldingResult,
  payoutRuby: Amount.nullable(),
  createdAt: EpochMs,
});
export type Holding = z.infer<typeof Holding>;

/** GET /internal/prediction/markets/{marketId}/price-history?range=DAY|WEEK|ALL */
export const PriceHistory = z.object({
  points: z.array(z.object({ t: EpochMs, p: z.record(z.string(), Probability) })),
});
export type PriceHistory = z.infer<typeof PriceHistory>;

/** GET /internal/prediction/categories */
export const Category = z.object({ categoryId: Uuid, name: LocaleText, intro: LocaleText });
export type Category = z.infer<typeof Category>;
export const CategoryList = z.object({ items: z.array(Category) });

// Opinions (the comments of a prediction market)

export const StanceKind = z.enum(['HOLDER', 'SOLD', 'CREATOR']);
export const Opinion = z.object({
  opinionId: Uuid,
  marketId: Uuid,
  author: UserRef,
  content: LocaleText,
  createdAt: EpochMs,
  likeCount: z.number().int().nonnegative(),
  replyCount: z.number().int().nonnegative(),
  isCreator: z.boolean(),
  /** Null for replies; top-level opinions have none. */
  parentId: Uuid.nullable(),
  authorStance: z.object({ kind: StanceKind, outcomeId: Uuid, outcomeLabel: LocaleText }).nullable(),
  /** Outcome the author staked on when publishing. */
  sideOutcomeId: Uuid.nullable(),
  active: z.boolean(),
  auditState: AuditState,
});
export type Opinion = z.infer<typeof Opinion>;

/** GET /internal/prediction/markets/{marketId}/opinions?rootOnly=1&before=<opinionId>&limit= */
export const OpinionPage = KeysetPage(Opinion);

/** Backing relay of an opinion, as seen by the acting user. */
export const Relay = z.object({
  backerCount: z.number().int().nonnegative(),
  seatsMax: z.number().int().positive(),
  /** Seat the acting user would take now (backerCount + 1). */
  nextSeq: z.number().int().positive(),
  nextPrice: Charge,
  /** Most the next seat can receive, in rubies, if two more backers follow. */
  maxRelayPayback: Amount,
  /** Legacy name of the same figure. */
  maxRelayPaybackSapphire: Amount,
  viewerBacked: z.boolean(),
  /** The relay was broken (the author deleted a link); no new seats. */
  broken: z.boolean(),
});
/** GET /internal/prediction/opinions/{opinionId} (acting user header) */
export const OpinionDetail = Opinion.extend({
  marketTitle: LocaleText,
  marketState: MarketState,
  marketDeadline: EpochMs,
  relay: Relay,
});
export type OpinionDetail = z.infer<typeof OpinionDetail>;

/**
 * POST /internal/prediction/markets/{marketId}/opinions (Idempotency-Key; acting user)
 * body {content, replyToOpinionId, sideOutcomeId}: charges the market's opinionFee.
 */
export const PublishOpinionRequest = z.object({
  content: z.string(),
  replyToOpinionId: Uuid.nullable(),
  sideOutcomeId: Uuid,
});

/** An opinion as its author sees it (owner lists and the publish answer). */
export const OwnOpinion = z.object({
  opinionId: Uuid,
  marketId: Uuid,
  marketTitle: LocaleText,
  content: LocaleText,
  sideOutcomeId: Uuid,
  sideOutcomeLabel: LocaleText,
  replyTo: z.object({ opinionId: Uuid, excerpt: z.string() }).nullable(),
  backerCount: z.number().int().nonnegative(),
  rubyPayback: Amount,
  sapphirePayback: Amount,
  createdAt: EpochMs,
});
export type OwnOpinion = z.infer<typeof OwnOpinion>;
export const PublishedOpinion = OwnOpinion.extend({ coinBalance: Amount, fee: Amount });
export type PublishedOpinion = z.infer<typeof PublishedOpinion>;

/**
 * POST /internal/prediction/opinions/{opinionId}/backs (Idempotency-Key; acting user)
 * body {expectedSeq, expectedPrice}: refused with OPINION_RELAY_MOVED when the seat or price
 * is no longer the one previewed.
 */
export const BackRequest = z.object({ expectedSeq: z.number().int().positive(), expectedPrice: Amount });
export const PlacedBack = z.object({
  backId: NumericId,
  opinionId: Uuid,
  marketId: Uuid,
  seq: z.number().int().positive(),
  price: Amount,
  coinBalance: Amount,
  maxRelayPayback: Amount,
  maxRelayPaybackSapphire: Amount,
  createdAt: EpochMs,
});
export type PlacedBack = z.infer<typeof PlacedBack>;

/** GET /internal/prediction/users/{userId}/backs?offset=&limit= (newest first) */
export const BackRecord = z.object({
  backId: NumericId,
  opinionId: Uuid,
  opinionExcerpt: LocaleText,
  author: UserRef,
  marketId: Uuid,
  marketTitle: LocaleText,
  seq: z.number().int().positive(),
  price: Amount,
  rubyTotal: Amount,
  sapphireTotal: Amount,
  createdAt: EpochMs,
});
export type BackRecord = z.infer<typeof BackRecord>;

// ---------------------------------------------------------------------------------------------
// Poll service (ids are UUIDs for polls, numeric strings for choices and comments)

/** 1 ongoing, 2 ended (awaiting settlement), 3 settled, 4 refunded. */
export const PollState = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
export type PollState = z.infer<typeof PollState>;
export const PollSort = z.enum(['HOT', 'NEW']);

export const PollChoice = z.object({
  choiceId: NumericId,
  text: LocaleText,
  /** Null while the viewer may not see the tallies. */
  voteNum: z.number().int().nonnegative().nullable(),
  isWinner: z.boolean(),
});
export type PollChoice = z.infer<typeof PollChoice>;

export const PollSummary = z.object({
  pollId: Uuid,
  subject: LocaleText,
  state: PollState,
  createTime: EpochMs,
  endTime: EpochMs,
  commentNum: z.number().int().nonnegative(),
  favNum: z.number().int().nonnegative(),
  voterNum: z.number().int().nonnegative(),
  stakeTotal: Amount,
  /** Whether the acting user may see tallies (voted, or the poll settled). */
  votesVisible: z.boolean(),
  creator: UserRef,
  auditState: AuditState,
  categoryId: Uuid,
  choices: z.array(PollChoice).min(2),
});
export type PollSummary = z.infer<typeof PollSummary>;

/** GET /internal/poll/polls/{pollId} (acting user header) */
export const PollDetail = PollSummary.extend({
  description: z.string(),
  images: z.array(z.string()),
  settleTime: EpochMs.nullable(),
  category: z.object({ categoryId: Uuid, name: LocaleText }),
  source: z.object({ kind: z.enum(['ORIGINAL', 'FORWARD']), link: z.string() }).nullable(),
});
export type PollDetail = z.infer<typeof PollDetail>;

export const PollComment = z.object({
  commentId: NumericId,
  author: UserRef,
  text: LocaleText,
  createTime: EpochMs,
  likeNum: z.number().int().nonnegative(),
  replyNum: z.number().int().nonnegative(),
  byCreator: z.boolean(),
  /** Choice the author voted for, when public. */
  authorVote: z.object({ choiceId: NumericId, text: LocaleText }).nullable(),
  parentId: NumericId.nullable(),
});
export type PollComment = z.infer<typeof PollComment>;
/** GET /internal/poll/polls/{pollId}/comments?rootOnly=1&before=<commentId>&limit= */
export const PollCommentPage = KeysetPage(PollComment).extend({
  /** The viewer must vote before reading; items is then empty. */
  locked: z.boolean(),
});

// ---------------------------------------------------------------------------------------------
// Cross-service reads

/** A topic of either service, tagged. */
export const TopicItem = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('MARKET'), market: MarketSummary }),
  z.object({ kind: z.literal('POLL'), poll: PollSummary }),
]);
export type TopicItem = z.infer<typeof TopicItem>;

/** GET /internal/search?kw=&kind=MARKET|POLL&pricingModel=&offset=&limit= */
export const SearchPage = OffsetPage(TopicItem);

/** GET /internal/users/{userId}/favorites?offset=&limit= (newest first) */
export const Favorite = TopicItem.and(z.object({ addedAt: EpochMs }));
export const FavoritePage = OffsetPage(Favorite);

/**
 * GET /internal/users/by-handle/{handle}/created?kind=MARKET|POLL&offset=&limit=
 * As seen by the acting user: when the owner hides the list, `hidden` is true and items empty.
 * GET /internal/users/{userId}/created?kind=&offset=&limit= is the owner's own view: it also
 * lists blocked topics, each item then carrying `moderationNote`.
 */
export const CreatedItem = TopicItem.and(z.object({ moderationNote: z.string().nullable() }));
export const CreatedPage = OffsetPage(CreatedItem).extend({ hidden: z.boolean() });

export const LedgerCurrency = z.enum(['COIN', 'RUBY']);
export const LedgerBizType = z.enum([
  'SIGNUP_BONUS',
  'DAILY_BONUS',
  'ORDER_STAKE',
  'ORDER_REFUND',
  'OPINION_FEE',
  'OPINION_BACK',
  'POLL_VOTE',
  'POLL_PAYOUT',
  'SETTLEMENT_PAYOUT',
  'POSITION_SALE',
  'OPINION_PAYBACK',
  'SAPPHIRE_CONVERSION',
]);
/** GET /internal/wallet/{userId}/ledger?currency=COIN|RUBY&offset=&limit= (newest first) */
export const LedgerEntry = z.object({
  entryId: NumericId,
  bizType: LedgerBizType,
  delta: Amount,
  balance: Amount,
  marketId: Uuid.nullable(),
  createdAt: EpochMs,
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;
export const LedgerPage = OffsetPage(LedgerEntry);

/** GET /internal/zones */
export const Zone = z.object({
  slug: z.string().min(1),
  title: z.string(),
  coverUrl: z.string(),
  memberNum: z.number().int().nonnegative(),
  topicNum: z.number().int().nonnegative(),
  activeNum: z.number().int().nonnegative(),
});
export type Zone = z.infer<typeof Zone>;
export const ZoneList = z.object({ items: z.array(Zone) });

/** GET /internal/contests/{contestId} */
export const ContestPhase = z.enum(['UPCOMING', 'OPEN', 'REVEAL_PENDING', 'SETTLED', 'VOIDED']);
export const Contest = z.object({
  contestId: Uuid,
  title: z.string(),
  intro: z.string(),
  phase: ContestPhase,
  startAt: EpochMs,
  deadline: EpochMs,
  settledAt: EpochMs.nullable(),
  voidReason: z.string().nullable(),
  choices: z.array(
    z.object({ choiceId: z.string().min(1), title: z.string(), entryNum: z.number().int().nonnegative(), correct: z.boolean().nullable() }),
  ),
  entryNum: z.number().int().nonnegative(),
});
export type Contest = z.infer<typeof Contest>;

// ---------------------------------------------------------------------------------------------
// Pages, one name per list endpoint

export const MarketPage = OffsetPage(MarketSummary);
export const PollPage = OffsetPage(PollSummary);
export const HoldingPage = OffsetPage(Holding);
export const OwnOpinionPage = OffsetPage(OwnOpinion);
export const BackRecordPage = OffsetPage(BackRecord);
