/**
 * The endpoints served without a key (the docs pages, the OpenAPI document, health) are limited
 * per client address, so that a loop on them cannot take the capacity keyed traffic needs: past
 * PUBLIC_REQUESTS_PER_MINUTE requests in a minute from one address, `429 RATE_LIMITED` with
 * Retry-After (docs/operations.md, "Unauthenticated endpoints").
 *
 * The counting is the failed-authentication throttle's (src/limits/auth-throttle.ts): a limiter
 * of @fastify/rate-limit, in Redis when the fleet has it (shared by every replica), in memory
 * otherwise, keyed by `request.ip` (which honours TRUST_PROXY). Redis away: requests pass.
 */
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { ApiError } from '../errors/api-error.ts';

/** Entries the in-memory counter keeps (addresses). */
const MEMORY_ENTRIES = 50_000;

/**
 * The onRequest hook that counts and limits. `app` must carry `createRateLimit`: the
 * failed-authentication throttle registers it (createAuthThrottle), so create that one first.
 */
export function publicThrottle(app: FastifyInstance, perMinute: number): onRequestAsyncHookHandler {
  const limiter = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    // A prefix of its own: the store is shared with the authentication counters.
    keyGenerator: (req) => `p:${req.ip}`,
    skipOnError: true,
    cache: MEMORY_ENTRIES,
  } as Parameters<FastifyInstance['createRateLimit']>[0]);
  return async function publicThrottle(request) {
    const state = await limiter(request);
    if (state.isAllowed || !state.isExceeded) return;
    const retryAfter = Math.max(1, state.ttlInSeconds);
    throw new ApiError('RATE_LIMITED', {
      message: `Too many requests from this address: retry after ${retryAfter} seconds.`,
      details: { retry_after: retryAfter },
      headers: { 'retry-after': String(retryAfter) },
    });
  };
}
