/**
 * The decimal text of a number, written without V8's cache of converted numbers.
 *
 * `String(n)`, `'…' + n` and `` `…${n}` `` keep each result in a cache that the young-generation
 * garbage collector treats as live until another number takes its slot. A number that is new
 * on every request (a remaining count, a millisecond clock) so leaves its string, and the
 * number, to be moved to the old generation, which only a full collection clears; full
 * collections under load are what slows a replica's slowest requests (docs/performance.md,
 * change 19). `JSON.stringify` writes the same text for finite numbers without the cache.
 */
export function numberText(n: number): string {
  return JSON.stringify(n);
}
