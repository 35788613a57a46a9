/**
 * The authentication hook: Bearer key → failed-authentication throttle → format check → verdict
 * (cached) → `request.caller`. Registered inside the /open/v1 and /mcp scopes only; health
 * endpoints stay open.
 *
 * A refused key is a client's mistake, routine on a public API: it is logged at `info` (at
 * `warn` when the throttle refuses), never as an error that would page anyone.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from './caller.ts';
import { hashKey, type KeyAuthenticator, type KeyHash } from './authenticator.ts';
import { unauthorized } from './challenge.ts';
import { ApiError } from '../errors/api-error.ts';
import { parseBearer, type BearerParse } from './key-format.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Meters verification after many failures, and counts them (src/limits/auth-throttle.ts). */
export interface FailureThrottle {
  admit(request: FastifyRequest, keyHash: KeyHash | null): Promise<void>;
  recordFailure(request: FastifyRequest): Promise<void>;
}

const REASONS: Record<BearerParse['kind'], string> = {
  missing: 'no key',
  malformed: 'malformed key',
  key: 'unknown, revoked or expired key',
};

export function authenticationHook(authenticator: KeyAuthenticator, throttle?: FailureThrottle) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    // Node keeps only the first of repeated Authorization headers; two credentials are
    // ambiguous, so they are refused like a malformed one rather than one of them chosen.
    const parsed = repeatedAuthorization(request.raw.rawHeaders)
      ? ({ kind: 'malformed' } as const)
      : parseBearer(request.headers.authorization);
    const keyHash = parsed.kind === 'key' ? hashKey(parsed.key) : null;
    await throttle?.admit(request, keyHash);
    try {
      if (parsed.kind === 'missing') throw unauthorized(false);
      if (keyHash === null) throw unauthorized(true); // malformed: present, but not a key
      request.caller = await authenticator.authenticate(keyHash, { requestId: request.id, log: request.log });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'UNAUTHORIZED') {
        request.log.info({ reason: REASONS[parsed.kind] }, 'authentication refused');
        await throttle?.recordFailure(request);
      }
      throw err;
    }
  };
}

/** Whether the request carries the Authorization header more than once (names in any case). */
function repeatedAuthorization(raw: readonly string[]): boolean {
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    // Spares most names the lower-casing.
    if (name.length !== 13) continue;
    if (name.toLowerCase() === 'authorization' && ++seen > 1) return true;
  }
  return false;
}

/** The caller of a request that passed the hook; a route outside the hook is a bug. */
export function requireCaller(request: FastifyRequest): Caller {
  if (request.caller === null) throw new Error('route reached without authentication');
  return request.caller;
}
