/**
 * The admin token(s) and the loopback test, apart from the admin server so that the
 * configuration can check them at start-up without loading it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * ADMIN_TOKEN: one token, or several separated by commas while one is rotated (every one is
 * accepted; docs/operations.md#rotating-secrets). Each 16+ characters.
 */
export function parseAdminTokens(value: string | undefined): string[] {
  if (value === undefined) return [];
  const tokens = value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (tokens.length === 0 || tokens.some((t) => t.length < 16 || /\s/.test(t))) {
    throw new Error('must be one token of 16+ characters, or several separated by commas while rotating');
  }
  return tokens;
}

/** 127.0.0.0/8, ::1, ::ffff:127.x and `localhost`: reachable only from this host (or pod). */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

/**
 * Constant-time comparison of `Bearer <token>` with the accepted token(s) (digests, so lengths
 * leak nothing either; every accepted token is compared, so which one matched does not either).
 */
export function tokenMatches(header: string | undefined, accepted: string | readonly string[]): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (m === null) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const given = digest(m[1] ?? '');
  let match = false;
  for (const token of typeof accepted === 'string' ? [accepted] : accepted) match = timingSafeEqual(given, digest(token)) || match;
  return match;
}
