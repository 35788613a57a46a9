// Generated from docs/openapi.json by `npm run client` (@hey-api/openapi-ts): do not edit.

import { client } from './client.gen.ts';
import type { Client, ClientMeta, Options as Options2, RequestResult, TDataShape } from './client/index.ts';
import type { BackOpinionData, BackOpinionErrors, BackOpinionResponses, GetContestData, GetContestErrors, GetContestResponses, GetMyProfileData, GetMyProfileErrors, GetMyProfileResponses, GetTopicData, GetTopicErrors, GetTopicPriceHistoryData, GetTopicPriceHistoryErrors, GetTopicPriceHistoryResponses, GetTopicResponses, ListMyBackedOpinionsData, ListMyBackedOpinionsErrors, ListMyBackedOpinionsResponses, ListMyCoinLedgerData, ListMyCoinLedgerErrors, ListMyCoinLedgerResponses, ListMyOpinionsData, ListMyOpinionsErrors, ListMyOpinionsResponses, ListMyPositionsData, ListMyPositionsErrors, ListMyPositionsResponses, ListMyRubyLedgerData, ListMyRubyLedgerErrors, ListMyRubyLedgerResponses, ListMyTopicsData, ListMyTopicsErrors, ListMyTopicsResponses, ListMyWatchlistData, ListMyWatchlistErrors, ListMyWatchlistResponses, ListTopicCategoriesData, ListTopicCategoriesErrors, ListTopicCategoriesResponses, ListTopicOpinionsData, ListTopicOpinionsErrors, ListTopicOpinionsResponses, ListTopicsData, ListTopicsErrors, ListTopicsResponses, ListUserTopicsData, ListUserTopicsErrors, ListUserTopicsResponses, ListZonesData, ListZonesErrors, ListZonesResponses, PlaceOrderData, PlaceOrderErrors, PlaceOrderResponses, PreviewBackData, PreviewBackErrors, PreviewBackResponses, PreviewOpinionData, PreviewOpinionErrors, PreviewOpinionResponses, PreviewOrderData, PreviewOrderErrors, PreviewOrderResponses, PublishOpinionData, PublishOpinionErrors, PublishOpinionResponses, SearchTopicsData, SearchTopicsErrors, SearchTopicsResponses } from './types.gen.ts';

export type Options<TData extends TDataShape = TDataShape, ThrowOnError extends boolean = boolean, TResponse = unknown> = Options2<TData, ThrowOnError, TResponse> & {
    /**
     * You can provide a client instance returned by `createClient()` instead of
     * individual options. This might be also useful if you want to implement a
     * custom client.
     */
    client?: Client;
    /**
     * You can pass arbitrary values through the `meta` object. This can be
     * used to access values that aren't defined as part of the SDK function.
     */
    meta?: keyof ClientMeta extends never ? Record<string, unknown> : ClientMeta;
};

/**
 * Search topics
 *
 * Searches predictions and polls by keyword. `type=all` (default) returns a short preview of both kinds with no pagination; `type=prediction` or `poll` pages through one kind. Returns topic cards; get_topic gives the detail.
 */
export const searchTopics = <ThrowOnError extends boolean = true>(options: Options<SearchTopicsData, ThrowOnError>): RequestResult<SearchTopicsResponses, SearchTopicsErrors, ThrowOnError> => (options.client ?? client).get<SearchTopicsResponses, SearchTopicsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/search',
    ...options
});

/**
 * List topics
 *
 * Lists topic cards of one kind, predictions (default) or polls, never mixed, with a cursor for the next page. Browse, filter (status, sort, zone, category, mechanism) and then call get_topic with a card `id` for the detail.
 */
export const listTopics = <ThrowOnError extends boolean = true>(options?: Options<ListTopicsData, ThrowOnError>): RequestResult<ListTopicsResponses, ListTopicsErrors, ThrowOnError> => (options?.client ?? client).get<ListTopicsResponses, ListTopicsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/topics',
    ...options
});

/**
 * List topic categories
 *
 * Lists every category (id, name, description): a category `id` is the `category_id` filter of list_topics. Always complete.
 */
export const listTopicCategories = <ThrowOnError extends boolean = true>(options?: Options<ListTopicCategoriesData, ThrowOnError>): RequestResult<ListTopicCategoriesResponses, ListTopicCategoriesErrors, ThrowOnError> => (options?.client ?? client).get<ListTopicCategoriesResponses, ListTopicCategoriesErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/topic-categories',
    ...options
});

/**
 * Get a topic
 *
 * One topic in full: the card plus description, images, category and, for predictions, the mechanism, `stake_rules` (min/max/default coins), `ruby_boost` and each option's current `implied_price`. Read these before preview_order.
 */
export const getTopic = <ThrowOnError extends boolean = true>(options: Options<GetTopicData, ThrowOnError>): RequestResult<GetTopicResponses, GetTopicErrors, ThrowOnError> => (options.client ?? client).get<GetTopicResponses, GetTopicErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/topics/{topic_id}',
    ...options
});

/**
 * List opinions on a topic
 *
 * Top-level opinions (comments) of a topic, newest first, with author, likes, reply count and the author's position. A vote-gated poll answers empty `data` with `gated: true`. An opinion `id` is the `opinion_id` of preview_back.
 */
export const listTopicOpinions = <ThrowOnError extends boolean = true>(options: Options<ListTopicOpinionsData, ThrowOnError>): RequestResult<ListTopicOpinionsResponses, ListTopicOpinionsErrors, ThrowOnError> => (options.client ?? client).get<ListTopicOpinionsResponses, ListTopicOpinionsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/topics/{topic_id}/comments',
    ...options
});

/**
 * Get my profile
 *
 * The key owner's profile and balances: coins (spent on orders, opinions, backs), gems and rubies (payouts; `sapphires` is a deprecated alias, always 0). Check the balance before a preview.
 */
export const getMyProfile = <ThrowOnError extends boolean = true>(options?: Options<GetMyProfileData, ThrowOnError>): RequestResult<GetMyProfileResponses, GetMyProfileErrors, ThrowOnError> => (options?.client ?? client).get<GetMyProfileResponses, GetMyProfileErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/me',
    ...options
});

/**
 * List my positions
 *
 * The key owner's positions, newest first: option, stake, units, average price, ruby multiplier, guaranteed `payout_if_correct_rubies`, and `won`/`payout_rubies` once settled. A position sold in the app has `sold: true` and `sold_rubies` and is never settled.
 */
export const listMyPositions = <ThrowOnError extends boolean = true>(options?: Options<ListMyPositionsData, ThrowOnError>): RequestResult<ListMyPositionsResponses, ListMyPositionsErrors, ThrowOnError> => (options?.client ?? client).get<ListMyPositionsResponses, ListMyPositionsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/me/positions',
    ...options
});

/**
 * List my opinions
 *
 * Opinions the key owner published, newest first, with their side, backer count and `ruby_payback` (`sapphire_payback`: deprecated alias).
 */
export const listMyOpinions = <ThrowOnError extends boolean = true>(options?: Options<ListMyOpinionsData, ThrowOnError>): RequestResult<ListMyOpinionsResponses, ListMyOpinionsErrors, ThrowOnError> => (options?.client ?? client).get<ListMyOpinionsResponses, ListMyOpinionsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/me/opinions',
    ...options
});

/**
 * List opinions I backed
 *
 * Opinions the key owner backed, newest first: seat `seq`, price paid and `ruby_total` received (`sapphire_total`: deprecated alias).
 */
export const listMyBackedOpinions = <ThrowOnError extends boolean = true>(options?: Options<ListMyBackedOpinionsData, ThrowOnError>): RequestResult<ListMyBackedOpinionsResponses, ListMyBackedOpinionsErrors, ThrowOnError> => (options?.client ?? client).get<ListMyBackedOpinionsResponses, ListMyBackedOpinionsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/me/backed-opinions',
    ...options
});

/**
 * List my watchlist
 *
 * Topics the key owner follows (predictions and polls), most recently added first, as topic cards with `added_at`.
 */
export const listMyWatchlist = <ThrowOnError extends boolean = true>(options?: Options<ListMyWatchlistData, ThrowOnError>): RequestResult<ListMyWatchlistResponses, ListMyWatchlistErrors, ThrowOnError> => (options?.client ?? client).get<ListMyWatchlistResponses, ListMyWatchlistErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/me/watchlist',
    ...options
});

/**
 * List my coin ledger
 *
 * Every movement of the key owner's coins, newest first: type, signed amount, balance after and the topic concerned.
 */
export const listMyCoinLedger = <ThrowOnError extends boolean = true>(options?: Options<ListMyCoinLedgerData, ThrowOnError>): RequestResult<ListMyCoinLedgerResponses, ListMyCoinLedgerErrors, ThrowOnError> => (options?.client ?? client).get<ListMyCoinLedgerResponses, ListMyCoinLedgerErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/me/coin-ledger',
    ...options
});

/**
 * List my ruby ledger
 *
 * Every movement of the key owner's rubies, newest first: settlement payouts, positions sold in the app, opinion paybacks and the one-off conversion of the old sapphire balance.
 */
export const listMyRubyLedger = <ThrowOnError extends boolean = true>(options?: Options<ListMyRubyLedgerData, ThrowOnError>): RequestResult<ListMyRubyLedgerResponses, ListMyRubyLedgerErrors, ThrowOnError> => (options?.client ?? client).get<ListMyRubyLedgerResponses, ListMyRubyLedgerErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/me/ruby-ledger',
    ...options
});

/**
 * List topics I created
 *
 * Topics the key owner created, one kind at a time (`type`, default prediction), including those hidden by moderation, with `moderation_note` saying why moderation acted.
 */
export const listMyTopics = <ThrowOnError extends boolean = true>(options?: Options<ListMyTopicsData, ThrowOnError>): RequestResult<ListMyTopicsResponses, ListMyTopicsErrors, ThrowOnError> => (options?.client ?? client).get<ListMyTopicsResponses, ListMyTopicsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/me/topics',
    ...options
});

/**
 * Get a prediction's probability history
 *
 * Probability of each option over time for a prediction, oldest point first; `range` 1d, 1w or all (default). A poll id is not found.
 */
export const getTopicPriceHistory = <ThrowOnError extends boolean = true>(options: Options<GetTopicPriceHistoryData, ThrowOnError>): RequestResult<GetTopicPriceHistoryResponses, GetTopicPriceHistoryErrors, ThrowOnError> => (options.client ?? client).get<GetTopicPriceHistoryResponses, GetTopicPriceHistoryErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/topics/{topic_id}/price-history',
    ...options
});

/**
 * List zones
 *
 * Lists every zone (community). A zone `slug` filters predictions with `zone` on GET /topics. Complete list, no pagination.
 */
export const listZones = <ThrowOnError extends boolean = true>(options?: Options<ListZonesData, ThrowOnError>): RequestResult<ListZonesResponses, ListZonesErrors, ThrowOnError> => (options?.client ?? client).get<ListZonesResponses, ListZonesErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/zones',
    ...options
});

/**
 * Get a contest
 *
 * Returns one contest with its options, entry counts and status; `settled_at` once settled, `void_reason` when voided.
 */
export const getContest = <ThrowOnError extends boolean = true>(options: Options<GetContestData, ThrowOnError>): RequestResult<GetContestResponses, GetContestErrors, ThrowOnError> => (options.client ?? client).get<GetContestResponses, GetContestErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/contests/{contest_id}',
    ...options
});

/**
 * List the topics a user created
 *
 * Topics created by a user, one kind at a time (`type`, default prediction). When the user hides the list, `data` is empty and `hidden` is true.
 */
export const listUserTopics = <ThrowOnError extends boolean = true>(options: Options<ListUserTopicsData, ThrowOnError>): RequestResult<ListUserTopicsResponses, ListUserTopicsErrors, ThrowOnError> => (options.client ?? client).get<ListUserTopicsResponses, ListUserTopicsErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/users/{handle}/topics',
    ...options
});

/**
 * Preview an order (stake on a prediction option)
 *
 * Quotes an order on one option of a prediction without placing it: `can_place`, a `summary` (stake, balances, prices, `payout_if_correct_rubies` = units × `ruby_multiplier` if the option wins, a guaranteed minimum; the stake is not returned) and, when possible, a `confirm_token` for place_order. `option_id` is an `id` of the topic's `options`. `amount_coins` is exactly what the user stated: never choose, infer or round a stake; if they stated none, ask (omitted: `stake_rules.default_coins`, a fallback). Reasons: TOPIC_CLOSED, ALREADY_STAKED (one order per topic), MECHANISM_UNSUPPORTED, STAKE_OUT_OF_RANGE (range in `details`: let the user choose), INSUFFICIENT_BALANCE. Charges nothing. Show the user the whole `summary` and get their explicit confirmation before the executing tool, whose only input is this `confirm_token` (valid 5 minutes); to change anything, preview again.
 */
export const previewOrder = <ThrowOnError extends boolean = true>(options: Options<PreviewOrderData, ThrowOnError>): RequestResult<PreviewOrderResponses, PreviewOrderErrors, ThrowOnError> => (options.client ?? client).post<PreviewOrderResponses, PreviewOrderErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/topics/{topic_id}/order-preview',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Place a previewed order
 *
 * Places the order previewed by preview_order, spending exactly its `stake_coins`, and returns the Order (units, average price, ruby multiplier, payout if correct, balance after). Call it only after the user explicitly confirmed the preview's summary, with only the `confirm_token` of that preview. Market moved more than 1% of the units since the quote: 409 TOPIC_QUOTE_EXPIRED, nothing charged: preview and ask again. A retry with the same token never orders twice: it answers the same Order with `replayed: true`. The option is named in the language of the preview, which the token carries.
 */
export const placeOrder = <ThrowOnError extends boolean = true>(options: Options<PlaceOrderData, ThrowOnError>): RequestResult<PlaceOrderResponses, PlaceOrderErrors, ThrowOnError> => (options.client ?? client).post<PlaceOrderResponses, PlaceOrderErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/orders',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Preview an opinion on a prediction
 *
 * Checks whether the key owner can publish an opinion on a prediction they hold a position on: `can_publish`, a `summary` (`fee_coins` charged on publishing, `balance_after`, `side_option_label` = their staked option, never chosen) and, when possible, a `confirm_token` for publish_opinion. `content`: the user's text, 1 to 500 characters, no control or bidirectional formatting characters; `reply_to_opinion_id`: optional, an opinion of the same topic. Reasons: TOPIC_CLOSED, NO_POSITION, SIDE_REQUIRED, CONTENT_INVALID, INSUFFICIENT_BALANCE (the fee is above the balance). Charges nothing. Show the user the whole `summary` and get their explicit confirmation before the executing tool, whose only input is this `confirm_token` (valid 5 minutes); to change anything, preview again.
 */
export const previewOpinion = <ThrowOnError extends boolean = true>(options: Options<PreviewOpinionData, ThrowOnError>): RequestResult<PreviewOpinionResponses, PreviewOpinionErrors, ThrowOnError> => (options.client ?? client).post<PreviewOpinionResponses, PreviewOpinionErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/topics/{topic_id}/opinion-preview',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Publish a previewed opinion
 *
 * Publishes the opinion previewed by preview_opinion, charging its `fee_coins`, and returns the published opinion. Call it only after the user explicitly confirmed the preview's summary, with only the `confirm_token` of that preview. Strictly single use: a second call answers 409 CONFIRM_TOKEN_USED even if the first answer was lost (check list_my_opinions), or 409 RETRY_IDEMPOTENCY_KEY while the first is still being published (wait Retry-After, then call again). Position changed since the preview: 400 OPINION_SIDE_REQUIRED or OPINION_SIDE_INVALID.
 */
export const publishOpinion = <ThrowOnError extends boolean = true>(options: Options<PublishOpinionData, ThrowOnError>): RequestResult<PublishOpinionResponses, PublishOpinionErrors, ThrowOnError> => (options.client ?? client).post<PublishOpinionResponses, PublishOpinionErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/opinions',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Preview backing an opinion
 *
 * Checks whether the key owner can back another user's opinion (buy the next seat of its relay): `can_back`, a `summary` (seat `my_seq_if_now`, `price_coins`, balances, `max_relay_payback_rubies` = the most this seat gets back if two more backers follow, nothing if none do) and, when possible, a `confirm_token` for back_opinion. `topic_id` is the topic of the opinion. Reasons: OPINION_INACTIVE, TOPIC_CLOSED, ALREADY_BACKED, OPINION_BACK_FULL, INSUFFICIENT_BALANCE. Charges nothing. Show the user the whole `summary` and get their explicit confirmation before the executing tool, whose only input is this `confirm_token` (valid 5 minutes); to change anything, preview again.
 */
export const previewBack = <ThrowOnError extends boolean = true>(options: Options<PreviewBackData, ThrowOnError>): RequestResult<PreviewBackResponses, PreviewBackErrors, ThrowOnError> => (options.client ?? client).post<PreviewBackResponses, PreviewBackErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/opinions/{opinion_id}/back-preview',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});

/**
 * Back a previewed opinion
 *
 * Backs the opinion previewed by preview_back: buys the previewed seat at its `price_coins` and returns the Back (`seq`, price, balance after, maximum relay payback). Call it only after the user explicitly confirmed the preview's summary, with only the `confirm_token` of that preview. Seat taken first by someone else: 409 OPINION_BACK_PRICE_MOVED, nothing charged: preview and ask again. A retry with the same token never backs twice: it answers the same Back with `replayed: true`.
 */
export const backOpinion = <ThrowOnError extends boolean = true>(options: Options<BackOpinionData, ThrowOnError>): RequestResult<BackOpinionResponses, BackOpinionErrors, ThrowOnError> => (options.client ?? client).post<BackOpinionResponses, BackOpinionErrors, ThrowOnError>({
    security: [{ scheme: 'bearer', type: 'http' }],
    url: '/backs',
    ...options,
    headers: {
        'Content-Type': 'application/json',
        ...options.headers
    }
});
