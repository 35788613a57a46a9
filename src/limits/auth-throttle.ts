/**
 * Failed authentication is throttled so that keys cannot be guessed at full speed and a flood of
 * made-up keys cannot swamp the backend's key verification, without ever refusing a valid key
 * (docs/operations.md, "Failed authentication").
 *
 * - Every 401 counts against two budgets a minute: the client address's
 *   (AUTH_ATTEMPTS_PER_MINUTE) and the whole fleet's (AUTH_ATTEMPTS_TOTAL_PER_MINUTE).
 * - Within both budgets nothing changes. Past one, a request is **metered, not blocked**: a key
 *   with a verdict already known (in this replica or fleet-wide in the shared verdict store,
 *   valid or not) costs the backend nothing and passes; a key that needs the backend takes a
 *   slot of a per-second meter (the budget spread over the minute: 5 a second for 300 a minute)
 *   of the address, or of the fleet, whichever budget is spent. A key the meter refused within
 *   the last minute may also take a slot of a twin meter kept for such retries. Without a slot:
 *   429 with Retry-After 1.
 *
 * So an address that floods made-up keys gets no more verifications than twice its budget's
 * rate, and a valid key from the same address (a NAT, a proxy without TRUST_PROXY) still gets
 * through within seconds: at once when any replica verified it in the last minute, otherwise
 * through a free slot, at the latest on its first retry, since a flood of new made-up keys never
 * retries one. The limit: an attacker who retries every key competes for the retry slots too.
 *
 * Counting per address in a window is @fastify/rate-limit's job, so it counts (its limiter API,
 * reading without counting for the checks); the client address is `request.ip`, which honours
 * TRUST_PROXY. Missing and malformed keys need no verification, so they are never metered (they
 * still count as failures).
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RedisClient } from '../store/redis.ts';
import type { KeyHash } from '../auth/authenticator.ts';
import { ApiError } from '../errors/api-error.ts';

/** What the throttle asks of the authenticator: verdicts it can give without the backend. */
export interface VerdictKnowledge {
  /** This replica holds a live valid verdict for the key (no I/O). */
  isKnownValid(keyHash: KeyHash): boolean;
  /** A live verdict, valid or not, is held here or in the shared store (no backend call). */
  hasVerdict(keyHash: KeyHash): Promise<boolean>;
}

export interface AuthThrottleOptions {
  /** Failed authentications a minute per client address before its verifications are metered. */
  perMinute: number;
  /**
   * Failed authentications a minute over the whole fleet (one process without Redis).
   * Default: the app's AUTH_ATTEMPTS_TOTAL_PER_MINUTE.
   */
  totalPerMinute?: number;
  authenticator: VerdictKnowledge;
  redis: RedisClient | null;
  prefix: string;
}

export interface AuthThrottle {
  /**
   * Let the request verify the key of hash `keyHash` (null: a missing or malformed key, which
   * needs no verification), or refuse it with 429 when a spent budget's meter has no slot left.
   */
  admit(request: FastifyRequest, keyHash: KeyHash | null): Promise<void>;
  /** Count one failed authentication for the address and the fleet. */
  recordFailure(request: FastifyRequest): Promise<void>;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** Entries each in-memory counter keeps (addresses, or hashes of refused keys). */
const MEMORY_ENTRIES = 50_000;

/** The per-second rate a minute budget allows (at least one). */
export function perSecond(perMinute: number): number {
  return Math.max(1, Math.ceil(perMinute / 60));
}

export async function createAuthThrottle(app: FastifyInstance, opts: AuthThrottleOptions): Promise<AuthThrottle> {
  await app.register(rateLimit, {
    global: false,
    // Keys read `<prefix>auth-fail:undefinedundefined-<counter>`: the library puts a route's method
    // and URL there, and limiters made by createRateLimit have no route. Each counter's own key
    // keeps them apart.
    ...(opts.redis !== null ? { redis: opts.redis, nameSpace: `${opts.prefix}auth-fail:` } : {}),
    // Redis away: let attempts through rather than lock every client out; keys are still verified.
    skipOnError: true,
  });
  const totalPerMinute = opts.totalPerMinute ?? app.services.config.AUTH_ATTEMPTS_TOTAL_PER_MINUTE;
  // The limiters share one store, so each key says which counter it is.
  // Without Redis each limiter keeps an LRU of its keys (`cache`, read by the memory store but
  // missing from the option type): large enough that a flood cannot evict what it must remember.
  const limiter = (max: number, timeWindow: number, key: (req: FastifyRequest) => string): Limiter => {
    const options = { max, timeWindow, keyGenerator: key, skipOnError: true, cache: MEMORY_ENTRIES };
    return app.createRateLimit(options);
  };
  const failures = {
    address: limiter(opts.perMinute, 60_000, (req) => `a:${req.ip}`),
    total: limiter(totalPerMinute, 60_000, () => 'all'),
  };
  // Each meter has a twin of the same rate reserved for keys it refused before: a flood of
  // new made-up keys never retries one, so a client that follows Retry-After gets a slot on its
  // first retry, and an attacker who retries each key pays two requests for every verification.
  const meters = {
    address: limiter(perSecond(opts.perMinute), 1_000, (req) => `ma:${req.ip}`),
    addressRetry: limiter(perSecond(opts.perMinute), 1_000, (req) => `mr:${req.ip}`),
    total: limiter(perSecond(totalPerMinute), 1_000, () => 'mall'),
    totalRetry: limiter(perSecond(totalPerMinute), 1_000, () => 'mrall'),
  };
  /** The key hash of a metered request, for the limiter that remembers refused keys. */
  const hashes = new WeakMap<FastifyRequest, string>();
  const refusedKeys = limiter(Number.MAX_SAFE_INTEGER, 60_000, (req) => `r:${hashes.get(req) ?? ''}`);

  const spent = async (l: Limiter, req: FastifyRequest) => {
    const state = await l(req, { increment: false });
    return !state.isAllowed && state.remaining === 0;
  };
  const take = async (l: Limiter, req: FastifyRequest) => {
    const state = await l(req);
    return state.isAllowed || !state.isExceeded;
  };
  const meter = async (req: FastifyRequest, main: Limiter, retry: Limiter, refusedBefore: boolean, whose: 'address' | 'fleet') => {
    if (await take(main, req)) return;
    if (refusedBefore && (await take(retry, req))) return;
    await refusedKeys(req).catch((err: unknown) => {
      // Safe to drop: the key only misses the retry slots on its next attempt (ordinary slots
      // remain), and the answer now is the same 429.
      req.log.debug({ err: (err as Error).message }, 'refused key not remembered');
    });
    refuse(req, whose);
  };

  return {
    async admit(request, keyHash) {
      // The common case costs no I/O: a key this replica verified, or nothing to verify.
      if (keyHash === null || opts.authenticator.isKnownValid(keyHash)) return;
      const [address, total] = await Promise.all([spent(failures.address, request), spent(failures.total, request)]);
      if (!address && !total) return;
      // Known fleet-wide (valid, or invalid and cached): no backend call to protect.
      if (await opts.authenticator.hasVerdict(keyHash)) return;
      hashes.set(request, keyHash);
      const seen = await refusedKeys(request, { increment: false });
      const refusedBefore = !seen.isAllowed && seen.remaining < seen.max;
      if (address) await meter(request, meters.address, meters.addressRetry, refusedBefore, 'address');
      if (total) await meter(request, meters.total, meters.totalRetry, refusedBefore, 'fleet');
    },
    async recordFailure(request) {
      await Promise.all([failures.address(request), failures.total(request)]).catch((err: unknown) => {
        // Safe to drop: with skipOnError the limiter does not throw for store errors, so this
        // is a bug or a store that failed in an unexpected way. Losing one count only lets one
        // more attempt be verified; the 401 the caller gets is unchanged.
        request.log.debug({ err: (err as Error).message }, 'failed authentication not counted');
      });
    },
  };
}

function refuse(request: FastifyRequest, whose: 'address' | 'fleet'): never {
  request.log.warn({ throttled: whose }, 'authentication throttled: too many failed authentications');
  throw new ApiError('RATE_LIMITED', {
    message:
      whose === 'address'
        ? 'Too many failed authentications from this address: retry after 1 second.'
        : 'Too many failed authentications right now: retry after 1 second.',
    details: { retry_after: 1 },
    headers: { 'retry-after': '1' },
  });
}
