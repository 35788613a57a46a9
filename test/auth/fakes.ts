/**
 * Stand-ins for the authenticator's suites: a backend answering key verification from a table
 * (raw key → verdict), and an authenticator over it with a controllable clock.
 */
import { KeyAuthenticator, hashKey } from '../../src/auth/authenticator.ts';
import { MemoryVerdictStore, type VerdictStore } from '../../src/auth/verdict-store.ts';
import { ApiError } from '../../src/errors/api-error.ts';
import { mapUpstreamError } from '../../src/upstream/errors.ts';
import { UpstreamErrCode, type ApiKeyVerdict } from '../../src/upstream/internal-api.ts';

export type KeyTable = Record<string, ApiKeyVerdict | 'unknown' | 'down'>;

/** Answers POST /internal/auth/api-keys/verify from `table` (a missing key is unknown; `down` fails) and records each hash asked. */
export function keyBackend(table: KeyTable) {
  const calls: string[] = [];
  return {
    calls,
    async call(_ctx: unknown, opts: { body?: unknown }) {
      const { keyHash } = opts.body as { keyHash: string };
      calls.push(keyHash);
      const entry = Object.entries(table).find(([k]) => hashKey(k) === keyHash)?.[1] ?? 'unknown';
      if (entry === 'unknown') throw mapUpstreamError(UpstreamErrCode.API_KEY_NOT_FOUND);
      if (entry === 'down') throw new ApiError('INTERNAL');
      return entry;
    },
  };
}

/** An authenticator over `backend`: 60 s revocation window, 10 s for refusals unless given. */
export function makeAuthenticator(
  backend: ReturnType<typeof keyBackend>,
  clock: { t: number },
  opts: { shared?: VerdictStore; negativeTtlMs?: number } = {},
): KeyAuthenticator {
  return new KeyAuthenticator({
    upstream: backend as never,
    shared: opts.shared ?? new MemoryVerdictStore(),
    ttlMs: 60_000,
    negativeTtlMs: opts.negativeTtlMs ?? 10_000,
    maxEntries: 100,
    now: () => clock.t,
  });
}
