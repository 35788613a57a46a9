/**
 * The endpoints served without a key are limited per client address (`request.ip`, which
 * honours TRUST_PROXY), so that a loop on them cannot take the capacity keyed traffic needs;
 * past the budget, `429 RATE_LIMITED` with Retry-After (docs/operations.md, "Unauthenticated
 * endpoints").
 *
 * - The documents (docs pages, OpenAPI document): PUBLIC_REQUESTS_PER_MINUTE, counted as the
 *   failed-authentication throttle counts (src/limits/auth-throttle.ts): a limiter of
 *   @fastify/rate-limit, in Redis when the fleet has it (one budget for every replica), in
 *   memory otherwise. Redis away: requests pass.
 * - Health (/livez, /readyz): HEALTH_REQUESTS_PER_MINUTE, counted in this replica's memory
 *   (the per-key limits' store, src/limits/store.ts), so that a probe never waits on Redis.
 */
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { ApiError } from '../errors/api-error.ts';
import { MemoryRateLimitStore } from './store.ts';
import { MINUTE_MS } from './windows.ts';

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
    throw refused(state.ttlInSeconds);
  };
}

/** The health endpoints' limit: this replica's own sliding minute per address, no I/O. */
export function healthThrottle(perMinute: number, now: () => number = Date.now): onRequestAsyncHookHandler {
  const store = new MemoryRateLimitStore(now);
  const windows = [{ name: 'read_minute', kind: 'minute', limit: perMinute }] as const;
  return async function healthThrottle(request) {
    const { allowed, now: at, windows: used } = await store.consume(`h:${request.ip}`, [...windows]);
    if (allowed) return;
    const oldest = used[0]?.oldest ?? at;
    throw refused(Math.ceil((oldest + MINUTE_MS - at) / 1000));
  };
}

function refused(seconds: number): ApiError {
  const retryAfter = Math.max(1, seconds);
  return new ApiError('RATE_LIMITED', {
    message: `Too many requests from this address: retry after ${retryAfter} seconds.`,
    details: { retry_after: retryAfter },
    headers: { 'retry-after': String(retryAfter) },
  });
}
