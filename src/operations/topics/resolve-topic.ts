/**
 * Finding a topic by id across the two backend services (docs/contract/reads.md#topic-lookup: prediction first, then poll,
 * unless the caller hints the type). Missing, moderation-hidden and wrong-kind topics are all
 * the same `404 NOT_FOUND`, and they cost the same backend calls: both services are asked
 * before a 404 is answered, so neither the body nor the timing tells them apart.
 */
import { ApiError } from '../../errors/api-error.ts';
import * as poll from '../../upstream/api/poll.api.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { isUpstreamNotFound } from '../../upstream/errors.ts';
import type { MarketDetail, PollDetail } from '../../upstream/internal-api.ts';
import type { BoundUpstream } from '../../upstream/bound.ts';

export type ResolvedTopic = { type: 'prediction'; market: MarketDetail } | { type: 'poll'; poll: PollDetail };
export type TopicKind = ResolvedTopic['type'];

async function probe(up: BoundUpstream, kind: TopicKind, id: string): Promise<ResolvedTopic | null> {
  try {
    if (kind === 'prediction') {
      const market = await prediction.getMarket(up, id);
      return market.auditState === 'BLOCKED' ? null : { type: 'prediction', market };
    }
    const p = await poll.getPoll(up, id);
    return p.auditState === 'BLOCKED' ? null : { type: 'poll', poll: p };
  } catch (err) {
    if (isUpstreamNotFound(err)) return null;
    throw err;
  }
}

export function notFound(): ApiError {
  return new ApiError('NOT_FOUND', { message: 'The topic was not found.' });
}

/** The visible topic with this id, or 404. `first` is the caller's type hint. */
export async function resolveTopic(up: BoundUpstream, id: string, first: TopicKind = 'prediction'): Promise<ResolvedTopic> {
  const order: TopicKind[] = first === 'prediction' ? ['prediction', 'poll'] : ['poll', 'prediction'];
  let found: ResolvedTopic | null = null;
  for (const kind of order) {
    const r = await probe(up, kind, id);
    // Keep probing after a hidden hit, so it costs what a miss costs.
    if (r !== null) {
      found = r;
      break;
    }
  }
  if (found === null) throw notFound();
  return found;
}

/** A visible prediction with this id, or 404 (polls, missing and hidden alike). */
export async function resolvePrediction(up: BoundUpstream, id: string): Promise<MarketDetail> {
  const topic = await resolveTopic(up, id, 'prediction');
  if (topic.type !== 'prediction') throw notFound();
  return topic.market;
}
