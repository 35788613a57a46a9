/**
 * From the backend's offset and keyset pages to the contract's opaque next cursor. The list
 * envelope itself is the mappers' (`toList` in mappers/lists.ts); limits are validated by the
 * operations' input schemas (1..100, default 20).
 */
import { toList, type List } from '../../mappers/lists.ts';
import type { ListCursors } from './cursor.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/**
 * The cursor after an offset page. `seen` counts the backend's items when some were filtered
 * out before mapping, so offsets stay continuous.
 */
export function nextOffsetCursor(
  codec: ListCursors,
  page: { items: unknown[]; total: number; seen?: number },
  offset: number,
): string | null {
  const seen = page.seen ?? page.items.length;
  const next = offset + seen;
  return seen > 0 && next < page.total ? codec.encode({ o: next }) : null;
}

/** The cursor after a keyset page: the last item the backend sent. */
export function nextKeysetCursor<I>(codec: ListCursors, page: { items: I[]; hasMore: boolean }, idOf: (item: I) => string): string | null {
  const last = page.items.at(-1);
  return page.hasMore && last !== undefined ? codec.encode({ b: idOf(last) }) : null;
}

/** An offset page mapped item by item into a contract list. */
export function fromOffsetPage<I, T>(
  codec: ListCursors,
  page: { items: I[]; total: number; seen?: number },
  offset: number,
  map: (item: I) => T,
): List<T> {
  return toList(page.items.map(map), nextOffsetCursor(codec, page, offset));
}
