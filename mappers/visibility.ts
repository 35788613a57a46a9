/**
 * Moderation visibility (docs/contract/reads.md#not-found): content the backend marks BLOCKED is shown to no
 * one but its owner (GET /me/topics). Public lists drop it even if the backend let it through.
 */
import type { AuditState, TopicItem } from '../src/upstream/internal-api.ts';

export function visibleToOthers(x: { auditState: AuditState }): boolean {
  return x.auditState !== 'BLOCKED';
}

export function topicItemVisible(item: TopicItem): boolean {
  return visibleToOthers(item.kind === 'MARKET' ? item.market : item.poll);
}

/**
 * A backend page without what a viewer may not see. `seen` still counts the backend's items, so
 * the next page's offset follows on from this one (src/pagination/page.ts).
 */
export function withoutHidden<I>(
  page: { items: I[]; total: number },
  visible: (item: I) => boolean,
): { items: I[]; total: number; seen: number } {
  return { items: page.items.filter(visible), total: page.total, seen: page.items.length };
}
