/** Probability history of a prediction (docs/contract/resources.md#price-history): a complete list, oldest point first. */
import type { PriceHistory, PricePoint } from '../src/contract/index.ts';
import type { PriceHistory as UpstreamPriceHistory } from '../src/upstream/internal-api.ts';
import { dec4 } from './decimal.ts';
import { toFullList } from './lists.ts';
import { toTimestamp } from './time.ts';

type UpstreamPoint = UpstreamPriceHistory['points'][number];

/**
 * One point. Options follow `optionOrder` (the topic's option order) when given, then any
 * others in the order the backend listed them.
 */
export function mapPricePoint(point: UpstreamPoint, optionOrder: readonly string[] = []): PricePoint {
  const ids = Object.keys(point.p).filter((id) => id !== ''); // an empty key names no option
  const ordered = [...optionOrder.filter((id) => ids.includes(id)), ...ids.filter((id) => !optionOrder.includes(id))];
  return {
    timestamp: toTimestamp(point.t),
    probabilities: ordered.map((id) => ({ option_id: id, probability: dec4(point.p[id] ?? 0) })),
  };
}

export function mapPriceHistory(history: UpstreamPriceHistory, optionOrder: readonly string[] = []): PriceHistory {
  const points = [...history.points].sort((a, b) => a.t - b.t);
  return toFullList(points.map((p) => mapPricePoint(p, optionOrder)));
}
