/**
 * Turning the backend's offset and keyset pages into the contract's `{data, next_cursor,
 * has_more}`. Limits are validated by the operations' input schemas (1..100, default 20).
 */
import type { CursorCodec } from './cursor.ts';

export interface ContractList<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export function fromOffsetPage<I, T>(
  codec: CursorCodec,
  page: { items: I[]; total: number; seen?: number },
  offset: number,
  map: (item: I) => T,
): ContractList<T> {
  // `seen` counts the backend's items when some were filtered out, so offsets stay continuous.
  const seen = page.seen ?? page.items.length;
  const next = offset + seen;
  const hasMore = seen > 0 && next < page.total;
  return { data: page.items.map(map), next_cursor: hasMore ? codec.encode({ o: next }) : null, has_more: hasMore };
}

export function fromKeysetPage<I, T>(
  codec: CursorCodec,
  page: { items: I[]; hasMore: boolean },
  idOf: (item: I) => string,
  map: (item: I) => T,
): ContractList<T> {
  const last = page.items.at(-1);
  const hasMore = page.hasMore && last !== undefined;
  return { data: page.items.map(map), next_cursor: hasMore ? codec.encode({ b: idOf(last) }) : null, has_more: hasMore };
}

/** A complete list (categories, zones, price history): one page, never more. */
export function wholeList<T>(data: T[]): ContractList<T> {
  return { data, next_cursor: null, has_more: false };
}
