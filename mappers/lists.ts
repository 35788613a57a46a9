/** The contract's list envelope (docs/contract/lists.md#list-envelope). Cursors are made by the caller, opaque here. */

export type List<T> = { data: T[]; next_cursor: string | null; has_more: boolean };
export type FullList<T> = { data: T[]; next_cursor: null; has_more: false };

/** A page; `has_more` follows from whether a next cursor exists. */
export function toList<T>(data: T[], nextCursor: string | null): List<T> {
  return { data, next_cursor: nextCursor, has_more: nextCursor !== null };
}

/** A complete list (categories, zones, price history): never another page. */
export function toFullList<T>(data: T[]): FullList<T> {
  return { data, next_cursor: null, has_more: false };
}
