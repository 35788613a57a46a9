/**
 * POST /opinions (MCP publish_opinion): publishes a previewed opinion. Strictly single use
 * (docs/contract/writes.md#token-rules): any second presentation of the token is 409 CONFIRM_TOKEN_USED. The answer is
 * the owner's Opinion with `replayed: false` (docs/contract/writes.md#execution-results: the first success
 * carries it; there is never a replay).
 */
import { mapPublishedOpinion } from '../../../mappers/writes.ts';
import { PublishedOpinion } from '../../contract/writes.ts';
import { ApiError } from '../../errors/api-error.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineExecution, performed } from './define-execution.ts';
import { hasForbiddenCharacters } from '../../contract/common.ts';
import { OpinionTokenParams } from './preview-opinion.ts';
import { EXECUTION_NOTE, decimalText, holdingsOn, idempotencyKey } from './shared.ts';

export const publishOpinion = defineExecution({
  name: 'publish_opinion',
  title: 'Publish a previewed opinion',
  description:
    'Publishes the opinion previewed by preview_opinion, charging its `fee_coins`, and returns the published opinion. ' +
    EXECUTION_NOTE +
    'Strictly single use: a second call answers 409 CONFIRM_TOKEN_USED even if the first answer was lost (check list_my_opinions), ' +
    'or 409 RETRY_IDEMPOTENCY_KEY while the first is still being published (wait Retry-After, then call again). ' +
    'Position changed since the preview: 400 OPINION_SIDE_REQUIRED or OPINION_SIDE_INVALID.',
  action: 'publish_opinion',
  retry: 'refuse',
  localised: true,
  path: '/opinions',
  tag: 'Opinions',
  errors: [
    'CONFIRM_TOKEN_INVALID',
    'OPINION_SIDE_REQUIRED',
    'OPINION_SIDE_INVALID',
    'CONFIRM_TOKEN_USED',
    'OPINION_TOPIC_CLOSED',
    // The fee changed since the preview.
    'TOPIC_QUOTE_INVALID',
    'OPINION_TOPIC_HIDDEN',
    'CONTENT_INVALID',
    'CONTENT_MODERATED',
    'INSUFFICIENT_BALANCE',
    'OPINIONS_UNAVAILABLE',
    'CONFIRM_TOKEN_EXPIRED',
    'USER_PUNISHED',
  ],
  output: PublishedOpinion,
  params: OpinionTokenParams,
  audit: {
    targets: { topic_id: 'topic_id', option_id: 'side_option_id', reply_to_opinion_id: 'reply_to_opinion_id' },
    coins: { fee: 'fee' },
    reference: 'id',
  },
  async run(ctx, p, claims) {
    // A token signed before the text rules existed may still carry such text: it is not published.
    if (hasForbiddenCharacters(p.content)) throw forbiddenContent();
    const [holdings, market] = await Promise.all([holdingsOn(ctx, p.topic_id), prediction.getMarket(ctx.upstream, p.topic_id)]);
    // The side bound at preview must still be the owner's position (the backend checks it too).
    const held = holdings.filter((h) => !h.sold);
    if (held.length === 0) throw new ApiError('OPINION_SIDE_REQUIRED');
    if (!held.every((h) => h.outcomeId === p.side_option_id)) throw new ApiError('OPINION_SIDE_INVALID');
    // The fee previewed is the fee charged; a fee changed since then needs a new preview.
    if (decimalText(market.opinionFee) !== p.fee) {
      throw new ApiError('TOPIC_QUOTE_INVALID', { message: 'The opinion fee changed since the preview; preview the opinion again.' });
    }
    const published = await prediction.publishOpinion(
      ctx.upstream,
      p.topic_id,
      { content: p.content, replyToOpinionId: p.reply_to_opinion_id, sideOutcomeId: p.side_option_id },
      idempotencyKey('opinion', claims),
    );
    // A replay (the token was executed before, its record lost) answers 409 CONFIRM_TOKEN_USED.
    return performed(mapPublishedOpinion(published.data, mapContextOf(ctx)), published);
  },
});

/**
 * Control or bidirectional formatting characters in a text to publish
 * (docs/contract/writes.md#text-rules); the preview answers the reason CONTENT_INVALID instead.
 */
function forbiddenContent(): ApiError {
  return new ApiError('CONTENT_INVALID', {
    message:
      'content: control characters (other than tab and newline), bidirectional formatting characters and unpaired surrogates are not allowed.',
    details: { field: 'content' },
  });
}
