/**
 * POST /topics/{topic_id}/order-preview (MCP preview_order): docs/contract/writes.md#order-preview. Nothing is
 * charged; when the order is possible the answer carries a confirm token binding the user, the
 * key, the topic, the option, the stake and the quoted units.
 */
import { z } from 'zod';
import { dec4 } from '../../../mappers/decimal.ts';
import { mapOrderSummary } from '../../../mappers/previews.ts';
import { OrderPreview, OrderPreviewRequest } from '../../contract/writes.ts';
import { ApiError } from '../../errors/api-error.ts';
import { LANGUAGES } from '../../i18n/languages.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { UpstreamApiError } from '../../upstream/errors.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation, type OperationContext } from '../operation.ts';
import { TopicId } from '../params.ts';
import { resolvePrediction } from '../topics/resolve-topic.ts';
import { orderFigures, orderReason } from './rules.ts';
import { CONFIRM_FLOW_NOTE, DecimalText, coinBalance, decimalText, holdingsOn, isClosed, issueToken } from './shared.ts';

export const PreviewOrderInput = z.strictObject({
  topic_id: TopicId,
  ...OrderPreviewRequest.shape,
});

/** What the token of an order preview binds, besides user, key and action. */
export const OrderTokenParams = z.object({
  topic_id: z.string(),
  option_id: z.string(),
  /** Whole coins: exactly what place_order spends. */
  stake: z.int().positive(),
  /** Units quoted by the preview, as exact decimal text: the slippage bound derives from it. */
  units: DecimalText,
  /** Language of the preview, so the Order names the option as the user saw it. */
  lang: z.enum(LANGUAGES),
});
export type OrderTokenParams = z.infer<typeof OrderTokenParams>;

export const previewOrder = defineOperation({
  name: 'preview_order',
  title: 'Preview an order (stake on a prediction option)',
  description:
    'Quotes an order on one option of a prediction without placing it: `can_place`, a `summary` (stake, balances, prices, ' +
    '`payout_if_correct_rubies` = units × `ruby_multiplier` if the option wins, a guaranteed minimum; the stake is not returned) ' +
    "and, when possible, a `confirm_token` for place_order. `option_id` is an `id` of the topic's `options`. " +
    '`amount_coins` is exactly what the user stated: never choose, infer or round a stake; if they stated none, ask (omitted: `stake_rules.default_coins`, a fallback). ' +
    'Reasons: TOPIC_CLOSED, ALREADY_STAKED (one order per topic), MECHANISM_UNSUPPORTED, STAKE_OUT_OF_RANGE (range in `details`: let the user choose), INSUFFICIENT_BALANCE. ' +
    CONFIRM_FLOW_NOTE,
  scope: 'write',
  kind: 'preview',
  localised: true,
  rest: { method: 'POST', path: '/topics/{topic_id}/order-preview' },
  tag: 'Orders',
  mcp: true,
  input: PreviewOrderInput,
  output: OrderPreview,
  // The backend's quote can be inconsistent; the preview then asks to be retried.
  errors: ['PREVIEW_UNAVAILABLE'],
  async execute(ctx, input) {
    return { body: await preview(ctx, input) };
  },
});

async function preview(ctx: OperationContext, input: z.infer<typeof PreviewOrderInput>): Promise<OrderPreview> {
  const market = await resolvePrediction(ctx.upstream, input.topic_id);
  const outcome = market.outcomes.find((o) => o.outcomeId.toLowerCase() === input.option_id.toLowerCase());
  if (outcome === undefined) {
    throw new ApiError('INVALID_ARGUMENT', { message: 'option_id: not an option of this topic.', details: { field: 'option_id' } });
  }
  const stake = input.amount_coins ?? market.stakeRule.defaultStake;
  const [balance, holdings] = await Promise.all([coinBalance(ctx), holdingsOn(ctx, market.marketId)]);
  const rule = market.stakeRule;
  const reason = orderReason({
    closed: isClosed(market.state, market.deadline, ctx.services.now()),
    staked: holdings.length > 0,
    mechanismSupported: market.pricingModel === 'LMSR',
    stake,
    minStake: rule.minStake,
    maxStake: rule.maxStake,
    balance,
  });
  const mapCtx = mapContextOf(ctx);
  const base = { market, outcome, stakeCoins: stake, balanceCoins: balance };

  // STAKE_OUT_OF_RANGE and MECHANISM_UNSUPPORTED: no fill figures (docs/contract/writes.md#order-preview-figures), empty
  // strings with price_now the current price.
  if (reason === 'STAKE_OUT_OF_RANGE' || reason === 'MECHANISM_UNSUPPORTED') {
    const summary = mapOrderSummary({ ...base, quote: null, canPlace: false }, mapCtx);
    if (reason === 'STAKE_OUT_OF_RANGE') {
      return { can_place: false, summary, reason, details: { min_coins: dec4(rule.minStake), max_coins: dec4(rule.maxStake) } };
    }
    return { can_place: false, summary, reason };
  }
  // TOPIC_CLOSED and ALREADY_STAKED keep the summary's normal shape (rule 3): the figures of
  // the fill this stake would get, when the market can still quote one; empty strings if not.
  if (reason === 'TOPIC_CLOSED' || reason === 'ALREADY_STAKED') {
    const quote =
      market.pricingModel === 'LMSR'
        ? await prediction.quote(ctx.upstream, market.marketId, { outcomeId: outcome.outcomeId, stake }).catch((err: unknown) => {
            // Safe to drop: the preview is refused anyway, and its figures are only informative.
            ctx.log.debug({ err: (err as Error).message, topicId: market.marketId }, 'no quote for a refused order preview');
            return null;
          })
        : null;
    const figures = quote === null ? null : orderFigures(quote, stake);
    const summary = mapOrderSummary({ ...base, quote: figures === null ? null : quote, canPlace: false }, mapCtx);
    return { can_place: false, summary: figures === null ? summary : { ...summary, ...figures }, reason };
  }

  const quote = await prediction.quote(ctx.upstream, market.marketId, { outcomeId: outcome.outcomeId, stake }).catch(quoteRefused(ctx));
  const figures = orderFigures(quote, stake);
  if (figures === null) {
    ctx.log.warn({ topicId: market.marketId, quote }, 'order quote breaks the preview invariants');
    throw previewUnavailable();
  }
  const canPlace = reason === null;
  const summary = { ...mapOrderSummary({ ...base, quote, canPlace }, mapCtx), ...figures };
  if (!canPlace) return { can_place: false, summary, reason };

  const params: OrderTokenParams = {
    topic_id: market.marketId,
    option_id: outcome.outcomeId,
    stake,
    units: decimalText(quote.shares),
    lang: ctx.lang,
  };
  return { can_place: true, summary, ...issueToken(ctx, 'place_order', params) };
}

/**
 * Seconds to wait before previewing again after a quote the gateway could not show: the market
 * moves on, and a later quote usually passes. Every 503 of the write surface names its delay
 * (docs/contract/errors.md#error-codes), as OPINION_BACK_RETRY does.
 */
export const PREVIEW_RETRY_AFTER_S = 2;

/**
 * The backend refused to quote what the preview's own rules let through (the topic closed, the
 * balance changed, a stake rule moved in between): the preview cannot be shown now, so it asks
 * to be previewed again, rather than answering a code that belongs to the execution.
 */
function quoteRefused(ctx: OperationContext) {
  return (err: unknown): never => {
    if (err instanceof UpstreamApiError && err.code !== 'INTERNAL' && err.code !== 'NOT_FOUND') {
      ctx.log.warn({ errCode: err.errCode }, 'order quote refused after the preview rules passed');
      throw previewUnavailable();
    }
    throw err;
  };
}

function previewUnavailable(): ApiError {
  return new ApiError('PREVIEW_UNAVAILABLE', {
    headers: { 'retry-after': String(PREVIEW_RETRY_AFTER_S) },
    details: { retry_after: PREVIEW_RETRY_AFTER_S },
  });
}
