// Generated from docs/openapi.json by `npm run client` (@hey-api/openapi-ts): do not edit.

export type ClientOptions = {
    baseUrl: `${string}://${string}/open/v1` | (string & {});
};

/**
 * `user` is an ordinary account, `official` an account run by the platform, `bot` an automated account.
 */
export type AccountType = 'user' | 'official' | 'bot';

/**
 * The author's side on the topic when they published.
 */
export type AuthorPosition = {
    label: AuthorPositionLabel;
    /**
     * The option concerned, localised.
     */
    option_name: string;
};

/**
 * `holder`: holds a position on the option; `sold`: held one and sold it in the app; `creator`: the topic creator's side; `voter`: voted for the option (polls).
 */
export type AuthorPositionLabel = 'holder' | 'sold' | 'creator' | 'voter';

/**
 * A placed back.
 */
export type Back = {
    id: string;
    /**
     * UUID.
     */
    opinion_id: string;
    /**
     * UUID.
     */
    topic_id: string;
    seq: number;
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    price_coins: string;
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    balance_after: string;
    /**
     * Conditional: the most this seat can receive, in rubies, if two more backers follow. Nothing is paid if nobody follows.
     */
    max_relay_payback_rubies: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
    /**
     * False on the first success; true when a retry with the same token answers the stored result.
     */
    replayed: boolean;
    /**
     * Deprecated alias of `max_relay_payback_rubies`, always the same value. Removed in 3.0.0.
     *
     * @deprecated
     */
    max_relay_payback_sapphires: string;
};

/**
 * An opinion the key owner backed.
 */
export type BackedOpinion = {
    /**
     * Id of the back.
     */
    id: string;
    /**
     * UUID.
     */
    opinion_id: string;
    opinion_excerpt: string;
    author: UserRef;
    /**
     * UUID.
     */
    topic_id: string;
    /**
     * Localised.
     */
    topic_title: string;
    /**
     * The owner's seat in the backing relay.
     */
    seq: number;
    /**
     * Coins paid for the seat.
     */
    price_coins: string;
    /**
     * Rubies received from the relay so far.
     */
    ruby_total: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
    /**
     * Deprecated alias of `ruby_total`, always the same value. Removed in 3.0.0.
     *
     * @deprecated
     */
    sapphire_total: string;
};

/**
 * A page of opinions the key owner backed.
 */
export type BackedOpinionList = {
    data: Array<BackedOpinion>;
    /**
     * Opaque cursor of the next page, to pass back as `cursor`; null on the last page.
     */
    next_cursor: string | null;
    /**
     * Whether another page follows.
     */
    has_more: boolean;
};

/**
 * Answer of back-preview. Nothing is charged.
 */
export type BackPreview = {
    can_back: boolean;
    summary: BackSummary;
    reason?: BackPreviewReason;
    /**
     * Pass to the executing operation; present only when the action is possible.
     */
    confirm_token?: string;
    /**
     * When the token expires (5 minutes ahead); present only with a token.
     */
    expires_at?: string;
};

/**
 * Why a back cannot be placed now.
 */
export type BackPreviewReason = 'OPINION_INACTIVE' | 'ALREADY_BACKED' | 'TOPIC_CLOSED' | 'INSUFFICIENT_BALANCE' | 'OPINION_BACK_FULL';

/**
 * Body of POST /opinions/{id}/back-preview.
 */
export type BackPreviewRequest = {
    /**
     * The topic the opinion belongs to.
     */
    topic_id: string;
};

/**
 * What backing would do.
 */
export type BackSummary = {
    topic_title: string;
    opinion_excerpt: string;
    author: UserRef;
    backer_count: number;
    /**
     * The seat the owner would take in the backing relay.
     */
    my_seq_if_now: number;
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    price_coins: string;
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    balance_before: string;
    /**
     * Equals `balance_before` when the back cannot be placed.
     */
    balance_after: string;
    /**
     * Conditional: the most this seat can receive, in rubies, if two more backers follow. Nothing is paid if nobody follows.
     */
    max_relay_payback_rubies: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    close_time: string;
    /**
     * Deprecated alias of `max_relay_payback_rubies`, always the same value. Removed in 3.0.0.
     *
     * @deprecated
     */
    max_relay_payback_sapphires: string;
};

/**
 * A category channel.
 */
export type Category = {
    /**
     * Usable as `category_id` on GET /topics.
     */
    id: string;
    /**
     * Localised.
     */
    name: string;
    /**
     * Localised.
     */
    description: string;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
};

/**
 * Every category channel.
 */
export type CategoryList = {
    data: Array<Category>;
    /**
     * Always null: the list is complete.
     */
    next_cursor: null;
    /**
     * Always false: the list is complete.
     */
    has_more: false;
};

/**
 * A top-level comment (opinion) of a topic.
 */
export type Comment = {
    /**
     * Comment id (a UUID on predictions, a numeric string on polls).
     */
    id: string;
    author: UserRef;
    /**
     * Text, localised where the author provided translations.
     */
    content: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    like_count: number;
    /**
     * Replies; they are not inlined.
     */
    reply_count: number;
    /**
     * Written by the topic's creator.
     */
    is_creator_comment: boolean;
    /**
     * The author's position; null when not public or none.
     */
    author_position: AuthorPosition | null;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
};

/**
 * A page of top-level comments.
 */
export type CommentList = {
    data: Array<Comment>;
    /**
     * Opaque cursor of the next page, to pass back as `cursor`; null on the last page.
     */
    next_cursor: string | null;
    /**
     * Whether another page follows.
     */
    has_more: boolean;
    /**
     * True when the poll's comments are hidden until the viewer votes; `data` is then empty.
     */
    gated: boolean;
};

/**
 * Executes a previewed action. Only call after the user explicitly confirmed the preview summary.
 */
export type ConfirmRequest = {
    /**
     * The token from the matching preview, valid 5 minutes.
     */
    confirm_token: string;
};

/**
 * A contest in full.
 */
export type Contest = {
    /**
     * UUID.
     */
    id: string;
    title: string;
    description: string;
    status: ContestStatus;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    start_time: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    deadline: string;
    options: Array<ContestOption>;
    entries_count: number;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
    /**
     * Present once the contest is settled.
     */
    settled_at?: string;
    /**
     * Present when the contest is voided.
     */
    void_reason?: string;
};

/**
 * An option of a contest.
 */
export type ContestOption = {
    id: string;
    title: string;
    entries_count: number;
    /**
     * True for the correct option once settled; false before.
     */
    is_correct: boolean;
};

/**
 * Contest lifecycle: `upcoming`, `open` for entries, `pending_reveal` until the answer is revealed, then `settled` or `voided`.
 */
export type ContestStatus = 'upcoming' | 'open' | 'pending_reveal' | 'settled' | 'voided';

/**
 * Decimal string with 4 places, or an empty string when the figure does not apply.
 */
export type Dec4OrEmpty = string | '';

/**
 * Decimal string with 6 places, or an empty string when the figure does not apply.
 */
export type Dec6OrEmpty = string | '';

/**
 * Machine-readable error code (closed set).
 */
export type ErrorCode = 'INVALID_ARGUMENT' | 'OPINION_SIDE_REQUIRED' | 'OPINION_SIDE_INVALID' | 'UNAUTHORIZED' | 'FORBIDDEN_SCOPE' | 'FORBIDDEN' | 'NOT_FOUND' | 'OPINION_NOT_FOUND' | 'CONFIRM_TOKEN_USED' | 'RATE_LIMITED' | 'INTERNAL' | 'CONFIRM_UNAVAILABLE' | 'SERVICE_DISABLED' | 'CONFIRM_TOKEN_INVALID' | 'CONFIRM_TOKEN_EXPIRED' | 'MECHANISM_UNSUPPORTED' | 'PREVIEW_UNAVAILABLE' | 'TOPIC_ALREADY_STAKED' | 'TOPIC_CLOSED' | 'TOPIC_QUOTE_EXPIRED' | 'TOPIC_QUOTE_INVALID' | 'TOPIC_MECHANISM_MISMATCH' | 'STAKE_OUT_OF_RANGE' | 'RETRY_IDEMPOTENCY_KEY' | 'INSUFFICIENT_BALANCE' | 'OPINION_ALREADY_BACKED' | 'OPINION_BACK_PRICE_MOVED' | 'OPINION_BACK_RETRY' | 'OPINION_BACK_FULL' | 'OPINION_BACK_CHAIN_BROKEN' | 'OPINION_TOPIC_CLOSED' | 'OPINION_TOPIC_HIDDEN' | 'OPINIONS_UNAVAILABLE' | 'CONTENT_INVALID' | 'CONTENT_MODERATED' | 'USER_PUNISHED';

/**
 * Error answer of every operation.
 */
export type ErrorEnvelope = {
    error: {
        code: ErrorCode;
        /**
         * Human-readable explanation; do not parse it.
         */
        message: string;
        /**
         * Free-form context, for example `{"field": "limit"}` or `{"retry_after": 30}`.
         */
        details?: {
            [key: string]: unknown;
        };
    };
};

/**
 * Which balance moved.
 */
export type LedgerCurrency = 'coin' | 'ruby';

/**
 * One movement of the key owner's coins or rubies.
 */
export type LedgerEntry = {
    id: string;
    currency: LedgerCurrency;
    type: LedgerEntryType;
    /**
     * Signed change of the balance: negative when spent.
     */
    amount: string;
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    balance_after: string;
    /**
     * The topic concerned; null when none.
     */
    topic_id: string | null;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * The owner's wallet history page for this currency.
     */
    url: string;
};

/**
 * What moved the balance. Ruby movements are `settlement_payout`, `position_sale`, `opinion_payback` and the one-off `sapphire_conversion`.
 */
export type LedgerEntryType = 'signup_bonus' | 'daily_bonus' | 'order_stake' | 'order_refund' | 'opinion_fee' | 'opinion_back' | 'poll_vote' | 'poll_payout' | 'settlement_payout' | 'position_sale' | 'opinion_payback' | 'sapphire_conversion';

/**
 * A page of ledger entries, newest first.
 */
export type LedgerList = {
    data: Array<LedgerEntry>;
    /**
     * Opaque cursor of the next page, to pass back as `cursor`; null on the last page.
     */
    next_cursor: string | null;
    /**
     * Whether another page follows.
     */
    has_more: boolean;
};

/**
 * Trading mechanism: `v21_lmsr` is live and tradable; `v2_share` is legacy, readable only.
 */
export type Mechanism = 'v2_share' | 'v21_lmsr';

/**
 * Moderation verdict. Public listings show only `approved` and `under_review` topics; `hidden` appears only on the owner's own topics.
 */
export type ModerationStatus = 'approved' | 'under_review' | 'hidden';

/**
 * The key owner's profile and balances.
 */
export type MyProfile = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Public handle, without `@`.
     */
    handle: string;
    /**
     * Display name (may be empty).
     */
    nickname: string;
    /**
     * Avatar image; null when the user has none.
     */
    avatar_url: string | null;
    account_type: AccountType;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
    /**
     * Coin balance.
     */
    coins: string;
    /**
     * Gem balance.
     */
    gems: string;
    /**
     * Ruby balance (sapphires were merged into it 1:1).
     */
    rubies: string;
    /**
     * Deprecated, always "0.0000": merged into `rubies`. Removed in 3.0.0.
     *
     * @deprecated
     */
    sapphires: '0.0000';
    /**
     * When the account was registered.
     */
    created_at: string;
};

/**
 * Answer of opinion-preview. Nothing is charged.
 */
export type OpinionPreview = {
    can_publish: boolean;
    summary: OpinionSummary;
    reason?: OpinionPreviewReason;
    /**
     * Pass to the executing operation; present only when the action is possible.
     */
    confirm_token?: string;
    /**
     * When the token expires (5 minutes ahead); present only with a token.
     */
    expires_at?: string;
};

/**
 * Why an opinion cannot be published now.
 */
export type OpinionPreviewReason = 'TOPIC_CLOSED' | 'NO_POSITION' | 'CONTENT_INVALID' | 'SIDE_REQUIRED' | 'INSUFFICIENT_BALANCE';

/**
 * Body of POST /topics/{id}/opinion-preview.
 */
export type OpinionPreviewRequest = {
    /**
     * Opinion text, 1 to 500 characters, without control characters (but tab and newline) or bidirectional formatting characters; otherwise the reason is CONTENT_INVALID.
     */
    content: string;
    /**
     * The opinion replied to, if any.
     */
    reply_to_opinion_id?: string | null;
};

/**
 * The opinion this one replies to.
 */
export type OpinionReplyTo = {
    /**
     * UUID.
     */
    id: string;
    excerpt: string;
};

/**
 * What publishing would do.
 */
export type OpinionSummary = {
    topic_title: string;
    /**
     * Coins charged to publish.
     */
    fee_coins: string;
    /**
     * The coin balance once the fee is paid; the balance unchanged when the opinion cannot be published.
     */
    balance_after: string;
    /**
     * The option the owner staked on, resolved from their position (never declared by the client); empty without a position.
     */
    side_option_label: string;
    /**
     * The text as it would be published (trimmed), cut at 140 characters; a control or bidirectional formatting character shows as U+FFFD.
     */
    content_preview: string;
    reply_to: OpinionReplyTo | null;
};

/**
 * One option's probability at an instant.
 */
export type OptionProbability = {
    option_id: string;
    /**
     * Probability of the option at that time, 0..1.
     */
    probability: string;
};

/**
 * A placed order.
 */
export type Order = {
    id: string;
    /**
     * UUID.
     */
    topic_id: string;
    /**
     * UUID.
     */
    option_id: string;
    option_label: string;
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    stake_coins: string;
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    units: string;
    /**
     * Coins per unit (stake / units), 6 places.
     */
    avg_price: string;
    /**
     * Multiplier live when the order was placed; a boost at settlement can raise it.
     */
    ruby_multiplier: string;
    /**
     * units × ruby_multiplier: guaranteed minimum if the option is correct.
     */
    payout_if_correct_rubies: string;
    /**
     * Coin balance after the order.
     */
    balance_after: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
    /**
     * False on the first success; true when a retry with the same token answers the stored result.
     */
    replayed: boolean;
};

/**
 * Answer of order-preview. Nothing is charged.
 */
export type OrderPreview = {
    can_place: boolean;
    summary: OrderSummary;
    /**
     * Why the order cannot be placed; only when `can_place` is false.
     */
    reason?: OrderPreviewReason;
    details?: StakeRange;
    /**
     * Pass to the executing operation; present only when the action is possible.
     */
    confirm_token?: string;
    /**
     * When the token expires (5 minutes ahead); present only with a token.
     */
    expires_at?: string;
};

/**
 * Why an order cannot be placed now.
 */
export type OrderPreviewReason = 'TOPIC_CLOSED' | 'ALREADY_STAKED' | 'INSUFFICIENT_BALANCE' | 'MECHANISM_UNSUPPORTED' | 'STAKE_OUT_OF_RANGE';

/**
 * Body of POST /topics/{id}/order-preview.
 */
export type OrderPreviewRequest = {
    /**
     * Option to stake on, from the topic's `options`.
     */
    option_id: string;
    /**
     * Stake in whole coins, as the user stated it. Never choose, infer or round it: ask the user. When omitted the topic's `stake_rules.default_coins` is used.
     */
    amount_coins?: number;
};

/**
 * What the order would do. Show it to the user and obtain explicit confirmation.
 */
export type OrderSummary = {
    topic_title: string;
    option_label: string;
    /**
     * Coins the order spends: the requested amount, or `stake_rules.default_coins` when omitted; echoed unclamped with STAKE_OUT_OF_RANGE.
     */
    stake_coins: string;
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    balance_before: string;
    /**
     * Equals `balance_before` when the order cannot be placed.
     */
    balance_after: string;
    /**
     * Current price of the option.
     */
    price_now: string;
    /**
     * Marginal price once this order joins the book; empty when not meaningful.
     */
    price_after: Dec4OrEmpty;
    /**
     * units × ruby_multiplier: the guaranteed minimum payout; empty when not meaningful.
     */
    payout_if_correct_rubies: Dec4OrEmpty;
    /**
     * Boost multiplier live now, "1.0000" without a boost; empty when not meaningful.
     */
    ruby_multiplier: Dec4OrEmpty;
    /**
     * Coins per unit for this fill (stake / units), 6 places; empty when not meaningful.
     */
    avg_price: Dec6OrEmpty;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    close_time: string;
    mechanism: Mechanism;
};

/**
 * An opinion published by the key owner.
 */
export type OwnerOpinion = {
    /**
     * UUID.
     */
    id: string;
    /**
     * UUID.
     */
    topic_id: string;
    /**
     * Localised.
     */
    topic_title: string;
    content: string;
    /**
     * UUID.
     */
    side_option_id: string;
    /**
     * The option the owner staked on when publishing, localised.
     */
    side_option_label: string;
    reply_to: OpinionReplyTo | null;
    backer_count: number;
    /**
     * Rubies earned from backers so far.
     */
    ruby_payback: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
    /**
     * Deprecated alias of `ruby_payback`, always the same value. Removed in 3.0.0.
     *
     * @deprecated
     */
    sapphire_payback: string;
};

/**
 * A page of opinions the key owner published.
 */
export type OwnerOpinionList = {
    data: Array<OwnerOpinion>;
    /**
     * Opaque cursor of the next page, to pass back as `cursor`; null on the last page.
     */
    next_cursor: string | null;
    /**
     * Whether another page follows.
     */
    has_more: boolean;
};

/**
 * A poll the key owner created, with its moderation note.
 */
export type OwnerPollCard = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Title, localised.
     */
    title: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Deadline for activity.
     */
    end_time: string;
    comments_count: number;
    favorites_count: number;
    /**
     * Share page of the topic.
     */
    url: string;
    creator: UserRef;
    moderation_status: ModerationStatus;
    type: 'poll';
    /**
     * Poll status (polls never pass through `resolving`).
     */
    status: 'open' | 'closed' | 'resolved' | 'refunded';
    voters_count: number;
    /**
     * Coins staked by voters.
     */
    total_stake: string;
    /**
     * False until the viewer has voted or the poll has settled; option `votes_count` and `probability` are null while false.
     */
    votes_visible: boolean;
    options: Array<PollOption>;
    /**
     * Why moderation acted on this topic; null when it did not.
     */
    moderation_note: string | null;
};

/**
 * A prediction the key owner created, with its moderation note.
 */
export type OwnerPredictionCard = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Title, localised.
     */
    title: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Deadline for activity.
     */
    end_time: string;
    comments_count: number;
    favorites_count: number;
    /**
     * Share page of the topic.
     */
    url: string;
    creator: UserRef;
    moderation_status: ModerationStatus;
    type: 'prediction';
    status: TopicStatus;
    /**
     * Coins staked on the topic so far.
     */
    total_volume: string;
    /**
     * Users holding or having held a position.
     */
    traders_count: number;
    mechanism: Mechanism;
    /**
     * Slug of the zone (community) the prediction belongs to, or null: the value `zone` filters on in `list_topics`.
     */
    zone: string | null;
    options: Array<PredictionOption>;
    /**
     * Why moderation acted on this topic; null when it did not.
     */
    moderation_note: string | null;
};

/**
 * A topic created by the key owner, with the moderation note only its owner sees.
 */
export type OwnerTopicCard = ({
    type: 'prediction';
} & OwnerPredictionCard) | ({
    type: 'poll';
} & OwnerPollCard);

/**
 * A page of the topics the key owner created.
 */
export type OwnerTopicList = {
    data: Array<OwnerTopicCard>;
    /**
     * Opaque cursor of the next page, to pass back as `cursor`; null on the last page.
     */
    next_cursor: string | null;
    /**
     * Whether another page follows.
     */
    has_more: boolean;
};

/**
 * A poll, as listed.
 */
export type PollCard = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Title, localised.
     */
    title: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Deadline for activity.
     */
    end_time: string;
    comments_count: number;
    favorites_count: number;
    /**
     * Share page of the topic.
     */
    url: string;
    creator: UserRef;
    moderation_status: ModerationStatus;
    type: 'poll';
    /**
     * Poll status (polls never pass through `resolving`).
     */
    status: 'open' | 'closed' | 'resolved' | 'refunded';
    voters_count: number;
    /**
     * Coins staked by voters.
     */
    total_stake: string;
    /**
     * False until the viewer has voted or the poll has settled; option `votes_count` and `probability` are null while false.
     */
    votes_visible: boolean;
    options: Array<PollOption>;
};

/**
 * A poll in full.
 */
export type PollDetail = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Title, localised.
     */
    title: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Deadline for activity.
     */
    end_time: string;
    comments_count: number;
    favorites_count: number;
    /**
     * Share page of the topic.
     */
    url: string;
    creator: UserRef;
    moderation_status: ModerationStatus;
    type: 'poll';
    /**
     * Poll status (polls never pass through `resolving`).
     */
    status: 'open' | 'closed' | 'resolved' | 'refunded';
    voters_count: number;
    /**
     * Coins staked by voters.
     */
    total_stake: string;
    /**
     * False until the viewer has voted or the poll has settled; option `votes_count` and `probability` are null while false.
     */
    votes_visible: boolean;
    options: Array<PollOption>;
    /**
     * Full description.
     */
    description: string;
    image_urls: Array<string>;
    /**
     * When the topic was settled or refunded; present only then.
     */
    resolved_at?: string;
    category: TopicCategoryRef;
    /**
     * Forwarding attribution; null when the topic names no source.
     */
    ref: TopicRef | null;
};

/**
 * An option of a poll.
 */
export type PollOption = {
    /**
     * Option id.
     */
    id: string;
    /**
     * Option text, localised.
     */
    name: string;
    /**
     * Share of the votes, 0..1; null while `votes_visible` is false.
     */
    probability: string | null;
    /**
     * True for the winning option once the topic is settled; false before.
     */
    is_winner: boolean;
    /**
     * Votes for this option; null while `votes_visible` is false.
     */
    votes_count: number | null;
};

/**
 * A position of the key owner on a prediction.
 */
export type Position = {
    id: string;
    /**
     * UUID.
     */
    topic_id: string;
    /**
     * Localised.
     */
    topic_title: string;
    /**
     * UUID.
     */
    option_id: string;
    /**
     * Localised.
     */
    option_label: string;
    /**
     * Coins spent on the position.
     */
    stake_coins: string;
    /**
     * Units bought; each pays ruby_multiplier rubies if the option is correct.
     */
    units: string;
    /**
     * Coins paid per unit (stake / units), 6 decimal places.
     */
    avg_price: string;
    /**
     * The highest boost multiplier so far among placement, settlement and sale; "1.0000" without a boost.
     */
    ruby_multiplier: string;
    /**
     * Guaranteed minimum payout if the option is correct: units × ruby_multiplier. Null once sold or refunded.
     */
    payout_if_correct_rubies: string | null;
    status: PositionStatus;
    /**
     * Sold in the app; a sold position is never settled or refunded.
     */
    sold: boolean;
    /**
     * Rubies received for the sale; null unless sold.
     */
    sold_rubies: string | null;
    /**
     * Whether the option won; null until settled, and for sold or refunded positions.
     */
    won: boolean | null;
    /**
     * Rubies paid at settlement; null until settled, and for sold or refunded positions.
     */
    payout_rubies: string | null;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
};

/**
 * A page of the key owner's positions.
 */
export type PositionList = {
    data: Array<Position>;
    /**
     * Opaque cursor of the next page, to pass back as `cursor`; null on the last page.
     */
    next_cursor: string | null;
    /**
     * Whether another page follows.
     */
    has_more: boolean;
};

/**
 * `pending` until the topic settles; `won` / `lost` once settled; `refunded` when the topic was refunded; `sold` when sold in the app (final).
 */
export type PositionStatus = 'pending' | 'won' | 'lost' | 'refunded' | 'sold';

/**
 * A prediction, as listed.
 */
export type PredictionCard = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Title, localised.
     */
    title: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Deadline for activity.
     */
    end_time: string;
    comments_count: number;
    favorites_count: number;
    /**
     * Share page of the topic.
     */
    url: string;
    creator: UserRef;
    moderation_status: ModerationStatus;
    type: 'prediction';
    status: TopicStatus;
    /**
     * Coins staked on the topic so far.
     */
    total_volume: string;
    /**
     * Users holding or having held a position.
     */
    traders_count: number;
    mechanism: Mechanism;
    /**
     * Slug of the zone (community) the prediction belongs to, or null: the value `zone` filters on in `list_topics`.
     */
    zone: string | null;
    options: Array<PredictionOption>;
};

/**
 * A prediction in full.
 */
export type PredictionDetail = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Title, localised.
     */
    title: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Deadline for activity.
     */
    end_time: string;
    comments_count: number;
    favorites_count: number;
    /**
     * Share page of the topic.
     */
    url: string;
    creator: UserRef;
    moderation_status: ModerationStatus;
    type: 'prediction';
    status: TopicStatus;
    /**
     * Coins staked on the topic so far.
     */
    total_volume: string;
    /**
     * Users holding or having held a position.
     */
    traders_count: number;
    mechanism: Mechanism;
    /**
     * Slug of the zone (community) the prediction belongs to, or null: the value `zone` filters on in `list_topics`.
     */
    zone: string | null;
    options: Array<PredictionDetailOption>;
    /**
     * Full description.
     */
    description: string;
    image_urls: Array<string>;
    /**
     * When the topic was settled or refunded; present only then.
     */
    resolved_at?: string;
    category: TopicCategoryRef;
    /**
     * Forwarding attribution; null when the topic names no source.
     */
    ref: TopicRef | null;
    stake_rules: StakeRules;
    /**
     * Present when the topic has or had a ruby boost.
     */
    ruby_boost?: RubyBoost;
};

/**
 * An option of a prediction, in the detail view.
 */
export type PredictionDetailOption = {
    /**
     * Option id; pass it as `option_id` to order-preview.
     */
    id: string;
    /**
     * Option text, localised.
     */
    name: string;
    /**
     * Current probability, 0..1.
     */
    probability: string;
    /**
     * True for the winning option once the topic is settled; false before.
     */
    is_winner: boolean;
    /**
     * Current price of one unit in coins (a unit pays one ruby × multiplier if correct). Read it; never assume 1/n.
     */
    implied_price: string;
};

/**
 * An option of a prediction.
 */
export type PredictionOption = {
    /**
     * Option id; pass it as `option_id` to order-preview.
     */
    id: string;
    /**
     * Option text, localised.
     */
    name: string;
    /**
     * Current probability, 0..1.
     */
    probability: string;
    /**
     * True for the winning option once the topic is settled; false before.
     */
    is_winner: boolean;
};

/**
 * Probability history, oldest point first.
 */
export type PriceHistory = {
    data: Array<PricePoint>;
    /**
     * Always null: the list is complete.
     */
    next_cursor: null;
    /**
     * Always false: the list is complete.
     */
    has_more: false;
};

/**
 * Probabilities of every option at one instant.
 */
export type PricePoint = {
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    timestamp: string;
    probabilities: Array<OptionProbability>;
};

/**
 * A published opinion.
 */
export type PublishedOpinion = {
    /**
     * UUID.
     */
    id: string;
    /**
     * UUID.
     */
    topic_id: string;
    /**
     * Localised.
     */
    topic_title: string;
    content: string;
    /**
     * UUID.
     */
    side_option_id: string;
    /**
     * The option the owner staked on when publishing, localised.
     */
    side_option_label: string;
    reply_to: OpinionReplyTo | null;
    backer_count: number;
    /**
     * Rubies earned from backers so far.
     */
    ruby_payback: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
    /**
     * Deprecated alias of `ruby_payback`, always the same value. Removed in 3.0.0.
     *
     * @deprecated
     */
    sapphire_payback: string;
    /**
     * Always false: a published opinion is never replayed.
     */
    replayed: false;
};

/**
 * `original` when the topic credits its own source, `forward` when it forwards another publication.
 */
export type RefType = 'original' | 'forward';

/**
 * Ruby boost of the topic; a correct option pays units × multiplier when live at placement, settlement or sale.
 */
export type RubyBoost = {
    /**
     * Ruby multiplier while the boost is live.
     */
    multiplier: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    starts_at: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    ends_at: string;
};

/**
 * The topic's stake range, with STAKE_OUT_OF_RANGE only.
 */
export type StakeRange = {
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    min_coins: string;
    /**
     * Decimal as a string with exactly 4 decimal places, never a JSON number.
     */
    max_coins: string;
};

/**
 * Stake rules, frozen when the topic was created.
 */
export type StakeRules = {
    /**
     * Smallest stake, whole coins.
     */
    min_coins: number;
    /**
     * Largest stake, whole coins.
     */
    max_coins: number;
    /**
     * Stake used when `amount_coins` is omitted. A fallback, not a suggestion: agents must ask the user.
     */
    default_coins: number;
    /**
     * Market depth (LMSR liquidity parameter b), frozen at creation.
     */
    market_depth: string;
    /**
     * Rules version the topic was created under.
     */
    rules_version: string;
};

/**
 * A topic as listed: a prediction or a poll (see `type`).
 */
export type TopicCard = ({
    type: 'prediction';
} & PredictionCard) | ({
    type: 'poll';
} & PollCard);

/**
 * The category channel of the topic.
 */
export type TopicCategoryRef = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Category name, localised.
     */
    name: string;
};

/**
 * A topic in full: a prediction or a poll (see `type`).
 */
export type TopicDetail = ({
    type: 'prediction';
} & PredictionDetail) | ({
    type: 'poll';
} & PollDetail);

/**
 * A page of topics.
 */
export type TopicList = {
    data: Array<TopicCard>;
    /**
     * Opaque cursor of the next page, to pass back as `cursor`; null on the last page.
     */
    next_cursor: string | null;
    /**
     * Whether another page follows.
     */
    has_more: boolean;
};

/**
 * Forwarding attribution of the topic.
 */
export type TopicRef = {
    type: RefType;
    /**
     * Absolute http(s) URL.
     */
    url: string;
};

/**
 * `open` accepts activity; `closed` is past its deadline, not yet settled; `resolving` means the outcome is being determined (predictions only); `resolved` is settled; `refunded` is refunded.
 */
export type TopicStatus = 'open' | 'closed' | 'resolving' | 'resolved' | 'refunded';

/**
 * A user, as embedded in other resources.
 */
export type UserRef = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Public handle, without `@`.
     */
    handle: string;
    /**
     * Display name (may be empty).
     */
    nickname: string;
    /**
     * Avatar image; null when the user has none.
     */
    avatar_url: string | null;
    account_type: AccountType;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
};

/**
 * A page of the topics a user created.
 */
export type UserTopicList = {
    data: Array<TopicCard>;
    /**
     * Opaque cursor of the next page, to pass back as `cursor`; null on the last page.
     */
    next_cursor: string | null;
    /**
     * Whether another page follows.
     */
    has_more: boolean;
    /**
     * True when the user hides their created topics; `data` is then empty. Empty with false is really empty.
     */
    hidden: boolean;
};

/**
 * A watched poll: its card plus `added_at`.
 */
export type WatchedPoll = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Title, localised.
     */
    title: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Deadline for activity.
     */
    end_time: string;
    comments_count: number;
    favorites_count: number;
    /**
     * Share page of the topic.
     */
    url: string;
    creator: UserRef;
    moderation_status: ModerationStatus;
    type: 'poll';
    /**
     * Poll status (polls never pass through `resolving`).
     */
    status: 'open' | 'closed' | 'resolved' | 'refunded';
    voters_count: number;
    /**
     * Coins staked by voters.
     */
    total_stake: string;
    /**
     * False until the viewer has voted or the poll has settled; option `votes_count` and `probability` are null while false.
     */
    votes_visible: boolean;
    options: Array<PollOption>;
    /**
     * When the topic was added to the watchlist.
     */
    added_at: string;
};

/**
 * A watched prediction: its card plus `added_at`.
 */
export type WatchedPrediction = {
    /**
     * UUID.
     */
    id: string;
    /**
     * Title, localised.
     */
    title: string;
    /**
     * RFC 3339 timestamp in UTC (`Z` suffix).
     */
    created_at: string;
    /**
     * Deadline for activity.
     */
    end_time: string;
    comments_count: number;
    favorites_count: number;
    /**
     * Share page of the topic.
     */
    url: string;
    creator: UserRef;
    moderation_status: ModerationStatus;
    type: 'prediction';
    status: TopicStatus;
    /**
     * Coins staked on the topic so far.
     */
    total_volume: string;
    /**
     * Users holding or having held a position.
     */
    traders_count: number;
    mechanism: Mechanism;
    /**
     * Slug of the zone (community) the prediction belongs to, or null: the value `zone` filters on in `list_topics`.
     */
    zone: string | null;
    options: Array<PredictionOption>;
    /**
     * When the topic was added to the watchlist.
     */
    added_at: string;
};

/**
 * A watched topic: its card plus `added_at`.
 */
export type WatchlistItem = ({
    type: 'prediction';
} & WatchedPrediction) | ({
    type: 'poll';
} & WatchedPoll);

/**
 * A page of the key owner's watchlist.
 */
export type WatchlistList = {
    data: Array<WatchlistItem>;
    /**
     * Opaque cursor of the next page, to pass back as `cursor`; null on the last page.
     */
    next_cursor: string | null;
    /**
     * Whether another page follows.
     */
    has_more: boolean;
};

/**
 * A zone (community).
 */
export type Zone = {
    /**
     * Usable as `zone` on GET /topics.
     */
    slug: string;
    name: string;
    /**
     * Cover image; null when the zone has none.
     */
    cover_image_url: string | null;
    members_count: number;
    topics_count: number;
    active_users_count: number;
    /**
     * Page of this resource in the app, for a human to visit.
     */
    url: string;
};

/**
 * Every zone.
 */
export type ZoneList = {
    data: Array<Zone>;
    /**
     * Always null: the list is complete.
     */
    next_cursor: null;
    /**
     * Always false: the list is complete.
     */
    has_more: false;
};

/**
 * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
 */
export type AcceptLanguage = string;

export type SearchTopicsData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path?: never;
    query: {
        /**
         * Keywords, 1 to 100 characters (surrounding spaces are ignored).
         */
        q: string;
        /**
         * `all` (default): a fixed-size preview of both kinds, without pagination; `prediction` or `poll`: one kind, paginated.
         */
        type?: 'all' | 'prediction' | 'poll';
        /**
         * Trading mechanism of predictions: `v21_lmsr` (default, tradable), `v2_share` (legacy, read-only) or `all`. Polls have none.
         */
        mechanism?: 'v21_lmsr' | 'v2_share' | 'all';
        /**
         * Opaque cursor from a previous `next_cursor`. Ignored with `type=all`.
         */
        cursor?: string;
        /**
         * Page size, 1 to 100 (default 20). Ignored with `type=all`.
         */
        limit?: number;
    };
    url: '/search';
};

export type SearchTopicsErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type SearchTopicsError = SearchTopicsErrors[keyof SearchTopicsErrors];

export type SearchTopicsResponses = {
    /**
     * OK.
     */
    200: TopicList;
};

export type SearchTopicsResponse = SearchTopicsResponses[keyof SearchTopicsResponses];

export type ListTopicsData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path?: never;
    query?: {
        /**
         * Which kind of topic to list: `prediction` (default) or `poll`.
         */
        type?: 'prediction' | 'poll';
        /**
         * Order of the list. `ending_soon`: predictions only (400 with `type=poll`).
         */
        sort?: 'trending' | 'newest' | 'ending_soon';
        /**
         * Topic status to list (default open). `resolving` is not filterable: omit status instead. Polls: `open` only (400 otherwise).
         */
        status?: 'open' | 'closed' | 'resolved' | 'refunded';
        /**
         * Zone slug, as in the `zone` field of prediction cards (REST also lists zones at GET /zones); predictions only (400 with `type=poll`).
         */
        zone?: string;
        /**
         * Category id from list_topic_categories.
         */
        category_id?: string;
        /**
         * Trading mechanism of predictions: `v21_lmsr` (default, tradable), `v2_share` (legacy, read-only) or `all`. Polls have none.
         */
        mechanism?: 'v21_lmsr' | 'v2_share' | 'all';
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/topics';
};

export type ListTopicsErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListTopicsError = ListTopicsErrors[keyof ListTopicsErrors];

export type ListTopicsResponses = {
    /**
     * OK.
     */
    200: TopicList;
};

export type ListTopicsResponse = ListTopicsResponses[keyof ListTopicsResponses];

export type ListTopicCategoriesData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path?: never;
    query?: {
        /**
         * Accepted and ignored: this list is always complete.
         */
        cursor?: string;
        /**
         * Accepted and ignored: this list is always complete.
         */
        limit?: number;
    };
    url: '/topic-categories';
};

export type ListTopicCategoriesErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListTopicCategoriesError = ListTopicCategoriesErrors[keyof ListTopicCategoriesErrors];

export type ListTopicCategoriesResponses = {
    /**
     * OK.
     */
    200: CategoryList;
};

export type ListTopicCategoriesResponse = ListTopicCategoriesResponses[keyof ListTopicCategoriesResponses];

export type GetTopicData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path: {
        /**
         * Topic id, from list_topics, search_topics or any topic card.
         */
        topic_id: string;
    };
    query?: {
        /**
         * Hint: which kind of topic to look up first.
         */
        type?: 'prediction' | 'poll';
    };
    url: '/topics/{topic_id}';
};

export type GetTopicErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `NOT_FOUND`: the resource is missing, or hidden by privacy or moderation; existence does not leak.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type GetTopicError = GetTopicErrors[keyof GetTopicErrors];

export type GetTopicResponses = {
    /**
     * OK.
     */
    200: TopicDetail;
};

export type GetTopicResponse = GetTopicResponses[keyof GetTopicResponses];

export type ListTopicOpinionsData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path: {
        /**
         * Topic id, from list_topics, search_topics or any topic card.
         */
        topic_id: string;
    };
    query?: {
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/topics/{topic_id}/comments';
};

export type ListTopicOpinionsErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `NOT_FOUND`: the resource is missing, or hidden by privacy or moderation; existence does not leak.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListTopicOpinionsError = ListTopicOpinionsErrors[keyof ListTopicOpinionsErrors];

export type ListTopicOpinionsResponses = {
    /**
     * OK.
     */
    200: CommentList;
};

export type ListTopicOpinionsResponse = ListTopicOpinionsResponses[keyof ListTopicOpinionsResponses];

export type GetMyProfileData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/me';
};

export type GetMyProfileErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type GetMyProfileError = GetMyProfileErrors[keyof GetMyProfileErrors];

export type GetMyProfileResponses = {
    /**
     * OK.
     */
    200: MyProfile;
};

export type GetMyProfileResponse = GetMyProfileResponses[keyof GetMyProfileResponses];

export type ListMyPositionsData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path?: never;
    query?: {
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/me/positions';
};

export type ListMyPositionsErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListMyPositionsError = ListMyPositionsErrors[keyof ListMyPositionsErrors];

export type ListMyPositionsResponses = {
    /**
     * OK.
     */
    200: PositionList;
};

export type ListMyPositionsResponse = ListMyPositionsResponses[keyof ListMyPositionsResponses];

export type ListMyOpinionsData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path?: never;
    query?: {
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/me/opinions';
};

export type ListMyOpinionsErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListMyOpinionsError = ListMyOpinionsErrors[keyof ListMyOpinionsErrors];

export type ListMyOpinionsResponses = {
    /**
     * OK.
     */
    200: OwnerOpinionList;
};

export type ListMyOpinionsResponse = ListMyOpinionsResponses[keyof ListMyOpinionsResponses];

export type ListMyBackedOpinionsData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path?: never;
    query?: {
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/me/backed-opinions';
};

export type ListMyBackedOpinionsErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListMyBackedOpinionsError = ListMyBackedOpinionsErrors[keyof ListMyBackedOpinionsErrors];

export type ListMyBackedOpinionsResponses = {
    /**
     * OK.
     */
    200: BackedOpinionList;
};

export type ListMyBackedOpinionsResponse = ListMyBackedOpinionsResponses[keyof ListMyBackedOpinionsResponses];

export type ListMyWatchlistData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path?: never;
    query?: {
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/me/watchlist';
};

export type ListMyWatchlistErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListMyWatchlistError = ListMyWatchlistErrors[keyof ListMyWatchlistErrors];

export type ListMyWatchlistResponses = {
    /**
     * OK.
     */
    200: WatchlistList;
};

export type ListMyWatchlistResponse = ListMyWatchlistResponses[keyof ListMyWatchlistResponses];

export type ListMyCoinLedgerData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/me/coin-ledger';
};

export type ListMyCoinLedgerErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListMyCoinLedgerError = ListMyCoinLedgerErrors[keyof ListMyCoinLedgerErrors];

export type ListMyCoinLedgerResponses = {
    /**
     * OK.
     */
    200: LedgerList;
};

export type ListMyCoinLedgerResponse = ListMyCoinLedgerResponses[keyof ListMyCoinLedgerResponses];

export type ListMyRubyLedgerData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/me/ruby-ledger';
};

export type ListMyRubyLedgerErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListMyRubyLedgerError = ListMyRubyLedgerErrors[keyof ListMyRubyLedgerErrors];

export type ListMyRubyLedgerResponses = {
    /**
     * OK.
     */
    200: LedgerList;
};

export type ListMyRubyLedgerResponse = ListMyRubyLedgerResponses[keyof ListMyRubyLedgerResponses];

export type ListMyTopicsData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path?: never;
    query?: {
        /**
         * Which kind of topic to list: `prediction` (default) or `poll`.
         */
        type?: 'prediction' | 'poll';
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/me/topics';
};

export type ListMyTopicsErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListMyTopicsError = ListMyTopicsErrors[keyof ListMyTopicsErrors];

export type ListMyTopicsResponses = {
    /**
     * OK.
     */
    200: OwnerTopicList;
};

export type ListMyTopicsResponse = ListMyTopicsResponses[keyof ListMyTopicsResponses];

export type GetTopicPriceHistoryData = {
    body?: never;
    path: {
        /**
         * Topic id, from list_topics, search_topics or any topic card.
         */
        topic_id: string;
    };
    query?: {
        /**
         * Time range: 1d, 1w or all (default).
         */
        range?: '1d' | '1w' | 'all';
    };
    url: '/topics/{topic_id}/price-history';
};

export type GetTopicPriceHistoryErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `NOT_FOUND`: the resource is missing, or hidden by privacy or moderation; existence does not leak.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type GetTopicPriceHistoryError = GetTopicPriceHistoryErrors[keyof GetTopicPriceHistoryErrors];

export type GetTopicPriceHistoryResponses = {
    /**
     * OK.
     */
    200: PriceHistory;
};

export type GetTopicPriceHistoryResponse = GetTopicPriceHistoryResponses[keyof GetTopicPriceHistoryResponses];

export type ListZonesData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Accepted and ignored: this list is always complete.
         */
        cursor?: string;
        /**
         * Accepted and ignored: this list is always complete.
         */
        limit?: number;
    };
    url: '/zones';
};

export type ListZonesErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListZonesError = ListZonesErrors[keyof ListZonesErrors];

export type ListZonesResponses = {
    /**
     * OK.
     */
    200: ZoneList;
};

export type ListZonesResponse = ListZonesResponses[keyof ListZonesResponses];

export type GetContestData = {
    body?: never;
    path: {
        /**
         * Contest id (UUID).
         */
        contest_id: string;
    };
    query?: never;
    url: '/contests/{contest_id}';
};

export type GetContestErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `NOT_FOUND`: the resource is missing, or hidden by privacy or moderation; existence does not leak.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type GetContestError = GetContestErrors[keyof GetContestErrors];

export type GetContestResponses = {
    /**
     * OK.
     */
    200: Contest;
};

export type GetContestResponse = GetContestResponses[keyof GetContestResponses];

export type ListUserTopicsData = {
    body?: never;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path: {
        /**
         * The user's handle, without `@` (a leading `@` is tolerated).
         */
        handle: string;
    };
    query?: {
        /**
         * Which kind of topic to list: `prediction` (default) or `poll`.
         */
        type?: 'prediction' | 'poll';
        /**
         * The `next_cursor` of the previous page.
         */
        cursor?: string;
        /**
         * Page size.
         */
        limit?: number;
    };
    url: '/users/{handle}/topics';
};

export type ListUserTopicsErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `NOT_FOUND`: the resource is missing, or hidden by privacy or moderation; existence does not leak.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type ListUserTopicsError = ListUserTopicsErrors[keyof ListUserTopicsErrors];

export type ListUserTopicsResponses = {
    /**
     * OK.
     */
    200: UserTopicList;
};

export type ListUserTopicsResponse = ListUserTopicsResponses[keyof ListUserTopicsResponses];

export type PreviewOrderData = {
    /**
     * The action to preview.
     */
    body: OrderPreviewRequest;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path: {
        /**
         * Topic id, from list_topics, search_topics or any topic card.
         */
        topic_id: string;
    };
    query?: never;
    url: '/topics/{topic_id}/order-preview';
};

export type PreviewOrderErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `FORBIDDEN_SCOPE`: the key lacks the `write` scope (`details.required_scope`); `USER_PUNISHED`: the account may not act.
     */
    403: ErrorEnvelope;
    /**
     * `NOT_FOUND`: the resource is missing, or hidden by privacy or moderation; existence does not leak.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request body is over 16 KiB.
     */
    413: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes). Also `PREVIEW_UNAVAILABLE` (with `Retry-After`): retry later.
     */
    503: ErrorEnvelope;
};

export type PreviewOrderError = PreviewOrderErrors[keyof PreviewOrderErrors];

export type PreviewOrderResponses = {
    /**
     * The preview: nothing is charged.
     */
    200: OrderPreview;
};

export type PreviewOrderResponse = PreviewOrderResponses[keyof PreviewOrderResponses];

export type PlaceOrderData = {
    /**
     * Exactly the token of the matching preview; any other field is refused.
     */
    body: ConfirmRequest;
    path?: never;
    query?: never;
    url: '/orders';
};

export type PlaceOrderErrors = {
    /**
     * `INVALID_ARGUMENT` (the body is not exactly `{"confirm_token": "…"}`; `details.field`), or `CONFIRM_TOKEN_INVALID`.
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `FORBIDDEN_SCOPE`: the key lacks the `write` scope (`details.required_scope`); `USER_PUNISHED`: the account may not act.
     */
    403: ErrorEnvelope;
    /**
     * `NOT_FOUND`: what the token refers to is gone or hidden.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * The state changed since the preview: `TOPIC_ALREADY_STAKED`, `TOPIC_CLOSED`, `MECHANISM_UNSUPPORTED`, `TOPIC_MECHANISM_MISMATCH`, `TOPIC_QUOTE_EXPIRED`, `TOPIC_QUOTE_INVALID`, `RETRY_IDEMPOTENCY_KEY`. `RETRY_IDEMPOTENCY_KEY` (with `Retry-After`) means the same token is still being executed: retry shortly.
     */
    409: ErrorEnvelope;
    /**
     * `CONFIRM_TOKEN_EXPIRED`: the token is older than 5 minutes. Preview again.
     */
    410: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request body is over 16 KiB.
     */
    413: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * The action is no longer possible: `STAKE_OUT_OF_RANGE`, `INSUFFICIENT_BALANCE`.
     */
    422: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type PlaceOrderError = PlaceOrderErrors[keyof PlaceOrderErrors];

export type PlaceOrderResponses = {
    /**
     * A retry with the same token: the stored result, identical but for `replayed: true`.
     */
    200: Order;
    /**
     * Executed (`replayed: false`).
     */
    201: Order;
};

export type PlaceOrderResponse = PlaceOrderResponses[keyof PlaceOrderResponses];

export type PreviewOpinionData = {
    /**
     * The action to preview.
     */
    body: OpinionPreviewRequest;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path: {
        /**
         * Topic id, from list_topics, search_topics or any topic card.
         */
        topic_id: string;
    };
    query?: never;
    url: '/topics/{topic_id}/opinion-preview';
};

export type PreviewOpinionErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `FORBIDDEN_SCOPE`: the key lacks the `write` scope (`details.required_scope`); `USER_PUNISHED`: the account may not act.
     */
    403: ErrorEnvelope;
    /**
     * `OPINION_NOT_FOUND`; or `NOT_FOUND`: the resource is missing, or hidden by privacy or moderation; existence does not leak.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request body is over 16 KiB.
     */
    413: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type PreviewOpinionError = PreviewOpinionErrors[keyof PreviewOpinionErrors];

export type PreviewOpinionResponses = {
    /**
     * The preview: nothing is charged.
     */
    200: OpinionPreview;
};

export type PreviewOpinionResponse = PreviewOpinionResponses[keyof PreviewOpinionResponses];

export type PublishOpinionData = {
    /**
     * Exactly the token of the matching preview; any other field is refused.
     */
    body: ConfirmRequest;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path?: never;
    query?: never;
    url: '/opinions';
};

export type PublishOpinionErrors = {
    /**
     * `INVALID_ARGUMENT` (the body is not exactly `{"confirm_token": "…"}`; `details.field`), or `OPINION_SIDE_REQUIRED`, `OPINION_SIDE_INVALID`, `CONFIRM_TOKEN_INVALID`.
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `FORBIDDEN_SCOPE`: the key lacks the `write` scope (`details.required_scope`); `USER_PUNISHED`: the account may not act.
     */
    403: ErrorEnvelope;
    /**
     * `OPINION_TOPIC_HIDDEN`, or `NOT_FOUND`: what the token refers to is gone or hidden.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * The state changed since the preview: `CONFIRM_TOKEN_USED`, `OPINION_TOPIC_CLOSED`, `TOPIC_QUOTE_INVALID`. `RETRY_IDEMPOTENCY_KEY` (with `Retry-After`) means the same token is still being executed: retry shortly.
     */
    409: ErrorEnvelope;
    /**
     * `CONFIRM_TOKEN_EXPIRED`: the token is older than 5 minutes. Preview again.
     */
    410: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request body is over 16 KiB.
     */
    413: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * The action is no longer possible: `INSUFFICIENT_BALANCE`, `CONTENT_INVALID`, `CONTENT_MODERATED`.
     */
    422: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes). Also `OPINIONS_UNAVAILABLE` (with `Retry-After`): retry later.
     */
    503: ErrorEnvelope;
};

export type PublishOpinionError = PublishOpinionErrors[keyof PublishOpinionErrors];

export type PublishOpinionResponses = {
    /**
     * Executed (`replayed: false`).
     */
    201: PublishedOpinion;
};

export type PublishOpinionResponse = PublishOpinionResponses[keyof PublishOpinionResponses];

export type PreviewBackData = {
    /**
     * The action to preview.
     */
    body: BackPreviewRequest;
    headers?: {
        /**
         * Language of titles, options and opinions: `en`, `zh-TW`, `zh-CN`, `vi`, `id`, `th`, `ja`, `ko`, `ms` (q-values honoured; anything else falls back to `en`).
         */
        'Accept-Language'?: string;
    };
    path: {
        /**
         * Opinion id, from list_topic_opinions.
         */
        opinion_id: string;
    };
    query?: never;
    url: '/opinions/{opinion_id}/back-preview';
};

export type PreviewBackErrors = {
    /**
     * `INVALID_ARGUMENT`: a parameter is missing or invalid; `details.field` names it (`path` for a path that is not validly percent-encoded, `request` for bytes that are not well-formed HTTP).
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `FORBIDDEN_SCOPE`: the key lacks the `write` scope (`details.required_scope`); `USER_PUNISHED`: the account may not act.
     */
    403: ErrorEnvelope;
    /**
     * `OPINION_NOT_FOUND`; or `NOT_FOUND`: the resource is missing, or hidden by privacy or moderation; existence does not leak.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request body is over 16 KiB.
     */
    413: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes).
     */
    503: ErrorEnvelope;
};

export type PreviewBackError = PreviewBackErrors[keyof PreviewBackErrors];

export type PreviewBackResponses = {
    /**
     * The preview: nothing is charged.
     */
    200: BackPreview;
};

export type PreviewBackResponse = PreviewBackResponses[keyof PreviewBackResponses];

export type BackOpinionData = {
    /**
     * Exactly the token of the matching preview; any other field is refused.
     */
    body: ConfirmRequest;
    path?: never;
    query?: never;
    url: '/backs';
};

export type BackOpinionErrors = {
    /**
     * `INVALID_ARGUMENT` (the body is not exactly `{"confirm_token": "…"}`; `details.field`), or `CONFIRM_TOKEN_INVALID`.
     */
    400: ErrorEnvelope;
    /**
     * `UNAUTHORIZED`: the key is missing, malformed, unknown, revoked or expired.
     */
    401: ErrorEnvelope;
    /**
     * `FORBIDDEN_SCOPE`: the key lacks the `write` scope (`details.required_scope`); `USER_PUNISHED`: the account may not act.
     */
    403: ErrorEnvelope;
    /**
     * `OPINION_NOT_FOUND`, or `NOT_FOUND`: what the token refers to is gone or hidden.
     */
    404: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request was not received in full in time; the connection is closed.
     */
    408: ErrorEnvelope;
    /**
     * The state changed since the preview: `TOPIC_CLOSED`, `RETRY_IDEMPOTENCY_KEY`, `OPINION_ALREADY_BACKED`, `OPINION_BACK_PRICE_MOVED`, `OPINION_BACK_FULL`, `OPINION_BACK_CHAIN_BROKEN`. `RETRY_IDEMPOTENCY_KEY` (with `Retry-After`) means the same token is still being executed: retry shortly.
     */
    409: ErrorEnvelope;
    /**
     * `CONFIRM_TOKEN_EXPIRED`: the token is older than 5 minutes. Preview again.
     */
    410: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request body is over 16 KiB.
     */
    413: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: a path parameter is over 200 characters (`details.field: "path"`).
     */
    414: ErrorEnvelope;
    /**
     * The action is no longer possible: `INSUFFICIENT_BALANCE`.
     */
    422: ErrorEnvelope;
    /**
     * `RATE_LIMITED`: a window of this key is used up; wait `Retry-After` seconds (`details.retry_after`). A refused request consumes nothing.
     */
    429: ErrorEnvelope;
    /**
     * `INVALID_ARGUMENT`: the request headers are over the server's limit (`details.field: "headers"`); the connection is closed.
     */
    431: ErrorEnvelope;
    /**
     * `INTERNAL`: an unexpected failure; `CONFIRM_UNAVAILABLE` on writes when tokens cannot be issued or checked.
     */
    500: ErrorEnvelope;
    /**
     * `SERVICE_DISABLED`: the kill switch is on (every operation, or only writes). Also `OPINION_BACK_RETRY` (with `Retry-After`): retry later.
     */
    503: ErrorEnvelope;
};

export type BackOpinionError = BackOpinionErrors[keyof BackOpinionErrors];

export type BackOpinionResponses = {
    /**
     * A retry with the same token: the stored result, identical but for `replayed: true`.
     */
    200: Back;
    /**
     * Executed (`replayed: false`).
     */
    201: Back;
};

export type BackOpinionResponse = BackOpinionResponses[keyof BackOpinionResponses];
