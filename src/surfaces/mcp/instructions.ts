/**
 * What `initialize` tells an agent before its first call (the `instructions` of the MCP
 * handshake): the write protocol it must follow, where every id comes from, and the language
 * argument. Tool descriptions repeat only what is specific to each tool.
 */
import { LANGUAGES } from '../../i18n/languages.ts';

export const SERVER_INSTRUCTIONS = [
  'Open API of a prediction-market and polling app, acting for the owner of the API key.',
  "Ids: topic ids come from list_topics, search_topics or a card in any list; option ids from a topic's `options`; " +
    'opinion ids from list_topic_opinions; category ids from list_topic_categories; zone slugs from the `zone` field of prediction cards.',
  'Writes (write-scoped keys only) take two steps. 1) Call preview_order, preview_opinion or preview_back: nothing is charged. ' +
    '2) Show the user the whole `summary` and get their explicit confirmation. 3) Call place_order, publish_opinion or back_opinion ' +
    "with only the `confirm_token` of that preview (valid 5 minutes). Never execute without the user's confirmation.",
  'Never choose, infer or round a stake or any amount for the user: if they did not state one, ask. ' +
    'A preview with `can_place`/`can_publish`/`can_back` false has a `reason` and no token: tell the user why.',
  'Retrying place_order or back_opinion with the same token is safe (the answer repeats with `replayed: true`); ' +
    'publish_opinion is single use (a retry answers CONFIRM_TOKEN_USED: check list_my_opinions instead).',
  `Tools returning titles, options or opinion text take an optional \`language\`: ${LANGUAGES.join(', ')} (aliases such as "zh" or "en-US" fold; default en).`,
  "Results are the REST API's JSON: times RFC 3339 UTC, coins, prices and probabilities decimal strings with 4 places (`avg_price` 6). " +
    'Ids are strings, to be passed on exactly as returned: topic, user and category ids and the option and opinion ids of predictions are UUIDs; ' +
    'position, order, back and ledger entry ids and the option and opinion ids of polls are not.',
  'A field an output schema lists is present (null where the schema allows), except: prediction-only fields (total_volume, ' +
    "traders_count, mechanism, zone, stake_rules, an option's implied_price) are absent on polls and poll-only ones (voters_count, " +
    "total_stake, votes_visible, an option's votes_count) on predictions; get_topic has `resolved_at` only once the topic is settled " +
    'or refunded and `ruby_boost` only if it has or had a boost; a preview has `reason` (and `details` with STAKE_OUT_OF_RANGE) ' +
    'only when it cannot proceed, `confirm_token` and `expires_at` only when it can.',
  'Errors are tool results with isError and {"error":{"code","message","details"}}; RATE_LIMITED gives `details.retry_after` in seconds.',
].join('\n');
