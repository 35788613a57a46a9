/**
 * Failed authentication is throttled per client address, so keys cannot be guessed at full
 * speed: requests that do not carry a key already known to be valid count against
 * AUTH_ATTEMPTS_PER_MINUTE per address (fixed minute window, shared through Redis when
 * configured); past it they get 429 before any verification. This is @fastify/rate-limit's own
 * job, so it does it; a key whose verdict is cached valid skips the count entirely.
 *
 * The client address is Fastify's `request.ip`, which honours TRUST_PROXY.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { KeyAuthenticator } from '../auth/authenticator.ts';
import { parseBearer } from '../auth/key-format.ts';
import { ApiError } from '../errors/api-error.ts';

export interface AuthThrottleOptions {
  perMinute: number;
  authenticator: KeyAuthenticator;
  redis: Redis | null;
  prefix: string;
}

/** Register the plugin (not global) and return the hook to put in front of authentication. */
export async function authThrottle(app: FastifyInstance, opts: AuthThrottleOptions): Promise<onRequestHookHandler> {
  await app.register(rateLimit, {
    global: false,
    ...(opts.redis !== null ? { redis: opts.redis, nameSpace: `${opts.prefix}auth-ip:` } : {}),
    // Redis away: let attempts through rather than lock every client out; keys are still verified.
    skipOnError: true,
    // X-RateLimit-* describe the per-key minute window (SPEC 8), not this throttle.
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': false },
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  });
  return app.rateLimit({
    max: opts.perMinute,
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => req.ip,
    allowList: (req: FastifyRequest) => {
      const parsed = parseBearer(req.headers.authorization);
      return parsed.kind === 'key' && opts.authenticator.isKnownValid(parsed.key);
    },
    errorResponseBuilder: (_req, ctx) => {
      const retryAfter = Math.max(1, Math.ceil(ctx.ttl / 1000));
      return new ApiError('RATE_LIMITED', {
        message: `Too many requests without a valid API key from this address: retry after ${retryAfter} seconds.`,
        details: { retry_after: retryAfter },
        headers: { 'retry-after': String(retryAfter) },
      });
    },
  });
}
