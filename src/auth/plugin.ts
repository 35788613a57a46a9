/**
 * The authentication hook: Bearer key → format check → verdict (cached) → `request.caller`.
 * Registered inside the /open/v1 and /mcp scopes only; health endpoints stay open.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from './caller.ts';
import type { KeyAuthenticator } from './authenticator.ts';
import { unauthorized } from './challenge.ts';
import { parseBearer } from './key-format.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export function authenticationHook(authenticator: KeyAuthenticator) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const parsed = parseBearer(request.headers.authorization);
    if (parsed.kind === 'missing') throw unauthorized(false);
    if (parsed.kind === 'malformed') throw unauthorized(true);
    request.caller = await authenticator.authenticate(parsed.key, { requestId: request.id, log: request.log });
  };
}

/** The caller of a request that passed the hook; a route outside the hook is a bug. */
export function requireCaller(request: FastifyRequest): Caller {
  if (request.caller === null) throw new Error('route reached without authentication');
  return request.caller;
}
