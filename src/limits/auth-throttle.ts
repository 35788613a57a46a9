/**
 * Failed authentication is throttled per client address, so keys cannot be guessed at full
 * speed: each 401 counts against AUTH_ATTEMPTS_PER_MINUTE for the address (fixed minute
 * window, shared through Redis when configured); once the address is over it, requests that
 * do not carry a key already known to be valid get 429 before any verification. Counting only
 * failures keeps legitimate bursts with a new key free of it.
 *
 * Counting per address in a window is exactly @fastify/rate-limit's job, so it does it (its
 * limiter API, with a read that does not count for the check). The client address is
 * `request.ip`, which honours TRUST_PROXY.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RedisClient } from '../store/redis.ts';
import type { KeyAuthenticator } from '../auth/authenticator.ts';
import { parseBearer } from '../auth/key-format.ts';
import { ApiError } from '../errors/api-error.ts';

export interface AuthThrottleOptions {
  perMinute: number;
  authenticator: KeyAuthenticator;
  redis: RedisClient | null;
  prefix: string;
}

export interface AuthThrottle {
  /** Refuse with 429 when the address is over its failure budget (no verification then). */
  check(request: FastifyRequest): Promise<void>;
  /** Count one failed authentication for the address. */
  recordFailure(request: FastifyRequest): Promise<void>;
}

export async function createAuthThrottle(app: FastifyInstance, opts: AuthThrottleOptions): Promise<AuthThrottle> {
  await app.register(rateLimit, {
    global: false,
    ...(opts.redis !== null ? { redis: opts.redis, nameSpace: `${opts.prefix}auth-fail:` } : {}),
    // Redis away: let attempts through rather than lock every client out; keys are still verified.
    skipOnError: true,
  });
  const limiter = app.createRateLimit({
    max: opts.perMinute,
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => req.ip,
    allowList: (req: FastifyRequest) => {
      const parsed = parseBearer(req.headers.authorization);
      return parsed.kind === 'key' && opts.authenticator.isKnownValid(parsed.key);
    },
    skipOnError: true,
  });

  return {
    async check(request) {
      const state = await limiter(request, { increment: false });
      if (state.isAllowed || (state.remaining ?? 1) > 0) return;
      const retryAfter = Math.max(1, state.ttlInSeconds ?? 60);
      throw new ApiError('RATE_LIMITED', {
        message: `Too many failed authentications from this address: retry after ${retryAfter} seconds.`,
        details: { retry_after: retryAfter },
        headers: { 'retry-after': String(retryAfter) },
      });
    },
    async recordFailure(request) {
      await limiter(request).catch(() => undefined);
    },
  };
}
