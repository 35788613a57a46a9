/**
 * Key format (docs/contract/auth.md#key-format): `opk_live_` or `opk_test_` followed by at least 16
 * characters of [A-Za-z0-9_]. The cap on length only bounds the work a junk header can cause.
 */
const KEY_RE = /^opk_(?:live|test)_[A-Za-z0-9_]{16,200}$/;

export function isWellFormedKey(key: string): boolean {
  return KEY_RE.test(key);
}

export type BearerParse = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'key'; key: string };

/** Parse an Authorization header: a Bearer scheme (case-insensitive) and a well-formed key. */
export function parseBearer(header: string | undefined): BearerParse {
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match?.[1] || !isWellFormedKey(match[1])) return { kind: 'malformed' };
  return { kind: 'key', key: match[1] };
}
