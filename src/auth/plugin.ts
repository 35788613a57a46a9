/**
 * The authentication hook: Bearer key → format check → verdict (cached) → `request.caller`.
 * Registered inside the /open/v1 and /mcp scopes only; health endpoints stay open.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from './caller.ts';
import type { KeyAuthenticator } from './authenticator.ts';
import { unauthorized } from './challenge.ts';
import { ApiError } from '../errors/api-error.ts';
import { parseBearer } from './key-format.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Counts failed attempts per client address (src/limits/auth-throttle.ts). */
export interface FailureThrottle {
  check(request: FastifyRequest): Promise<void>;
  recordFailure(request: FastifyRequest): Promise<void>;
}

export function authenticationHook(authenticator: KeyAuthenticator, throttle?: FailureThrottle) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    await throttle?.check(request);
    const parsed = parseBearer(request.headers.authorization);
    try {
      if (parsed.kind === 'missing') throw unauthorized(false);
      if (parsed.kind === 'malformed') throw unauthorized(true);
      request.caller = await authenticator.authenticate(parsed.key, { requestId: request.id, log: request.log });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'UNAUTHORIZED') await throttle?.recordFailure(request);
      throw err;
    }
  };
}

/** The caller of a request that passed the hook; a route outside the hook is a bug. */
export function requireCaller(request: FastifyRequest): Caller {
  if (request.caller === null) throw new Error('route reached without authentication');
  return request.caller;
}
