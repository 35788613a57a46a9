/**
 * The replica's long-lived collaborators, built once from configuration: the upstream client,
 * the shared stores (Redis or in-memory) and the authenticator. Tests may pass their own.
 */
import type { Config } from './config.ts';
import { KeyAuthenticator } from './auth/authenticator.ts';
import { MemoryVerdictStore, RedisVerdictStore, type StoreLogger, type VerdictStore } from './auth/verdict-store.ts';
import { randomBytes } from 'node:crypto';
import { type CursorCodec, cursorCodecFrom } from './pagination/cursor.ts';
import { MemoryClaimStore, RedisClaimStore, type ClaimStore } from './confirm/claims.ts';
import { ConfirmTokens, parseConfirmKeys } from './confirm/token.ts';
import { connectRedis, probeRedis, redisOptionsFrom, redisReady, type RedisClient } from './store/redis.ts';
import { createKillSwitch, type KillSwitch } from './killswitch/index.ts';
import { RateLimiter } from './limits/limiter.ts';
import { MemoryRateLimitStore, RedisRateLimitStore } from './limits/store.ts';
import { Metrics } from './metrics/metrics.ts';
import { UpstreamClient } from './upstream/client.ts';
import { createAuditTrail, type AuditTrail } from './audit/index.ts';

export interface Services {
  config: Config;
  upstream: UpstreamClient;
  authenticator: KeyAuthenticator;
  cursors: CursorCodec;
  confirm: { tokens: ConfirmTokens; claims: ClaimStore };
  metrics: Metrics;
  /** Null when RATE_LIMITS=off. */
  limiter: RateLimiter | null;
  killSwitch: KillSwitch;
  /** The audit trail of executions and kill-switch changes (docs/audit.md). */
  audit: AuditTrail;
  redis: RedisClient | null;
  now: () => number;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  upstream?: UpstreamClient;
  redis?: RedisClient | null;
  now?: () => number;
}

export interface ServiceLogger extends StoreLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export async function createServices(config: Config, log: ServiceLogger, overrides: ServiceOverrides = {}): Promise<Services> {
  const now = overrides.now ?? Date.now;
  if (config.UPSTREAM_URL === undefined) throw new Error('createServices needs UPSTREAM_URL (server.ts starts the sandbox first)');
  const metrics = new Metrics();
  const upstream =
    overrides.upstream ??
    new UpstreamClient({
      baseUrl: config.UPSTREAM_URL,
      serviceToken: config.UPSTREAM_SERVICE_TOKEN ?? '',
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
      connections: config.UPSTREAM_CONNECTIONS,
      maxResponseBytes: config.UPSTREAM_MAX_RESPONSE_BYTES,
      retries: config.UPSTREAM_RETRIES,
      breaker: {
        threshold: config.UPSTREAM_BREAKER_THRESHOLD,
        cooldownMs: config.UPSTREAM_BREAKER_COOLDOWN_MS,
        windowMs: config.UPSTREAM_BREAKER_WINDOW_MS,
      },
      metrics,
    });
  const ownsRedis = overrides.redis === undefined;
  const redisOptions = redisOptionsFrom(config);
  const redis = overrides.redis !== undefined ? overrides.redis : redisOptions !== null ? connectRedis(redisOptions) : null;
  if (redis !== null) {
    redis.on('error', (err: Error) => log.warn({ err: err.message }, 'redis connection error'));
    // Commands fail fast while disconnected (no offline queue), so wait for the first
    // connection; a Redis that is down at start-up is not fatal: each store has its fallback.
    if (!(await redisReady(redis, 2_000))) log.warn({}, 'redis not reachable at start-up; continuing with fallbacks');
  }

  const verdicts: VerdictStore =
    redis !== null ? new RedisVerdictStore(redis, config.REDIS_KEY_PREFIX, log) : new MemoryVerdictStore(config.KEY_CACHE_MAX_ENTRIES);
  const authenticator = new KeyAuthenticator({
    upstream,
    shared: verdicts,
    ttlMs: config.KEY_CACHE_TTL_SECONDS * 1000,
    negativeTtlMs: config.KEY_CACHE_NEGATIVE_TTL_SECONDS * 1000,
    maxEntries: config.KEY_CACHE_MAX_ENTRIES,
    now,
  });

  // A fleet without a shared secret is refused by the configuration (src/config.ts).
  const cursors = cursorCodecFrom(config, () => randomBytes(32).toString('hex'));
  const confirm = { tokens: new ConfirmTokens(confirmKeys(config), now), claims: claimStore(redis, config, now) };
  const limiter =
    config.RATE_LIMITS === 'off'
      ? null
      : new RateLimiter(
          redis !== null ? new RedisRateLimitStore(redis, config.REDIS_KEY_PREFIX) : new MemoryRateLimitStore(now),
          {
            readPerMinute: config.RATE_LIMIT_READ_PER_MINUTE,
            readPerDay: config.RATE_LIMIT_READ_PER_DAY,
            searchPerMinute: config.RATE_LIMIT_SEARCH_PER_MINUTE,
            writePerMinute: config.RATE_LIMIT_WRITE_PER_MINUTE,
            writePerDay: config.RATE_LIMIT_WRITE_PER_DAY,
          },
          metrics,
          log,
        );
  const killSwitch = await createKillSwitch(config, redis, log, now);
  const audit = createAuditTrail(config, redis, metrics, log, now);
  metrics.watch({
    breaker: () => upstream.breakerState,
    killSwitch: () => killSwitch.current().mode,
    redis: redis === null ? null : () => probeRedis(redis, config.REDIS_COMMAND_TIMEOUT_MS),
  });

  return {
    config,
    upstream,
    authenticator,
    cursors,
    confirm,
    metrics,
    limiter,
    killSwitch,
    audit,
    redis,
    now,
    async close() {
      await killSwitch.close();
      audit.close();
      if (overrides.upstream === undefined) await upstream.close();
      if (ownsRedis && redis !== null) redis.disconnect();
      metrics.close();
    },
  };
}

/** A single process may sign with a random secret; a fleet must share configured ones (src/config.ts refuses it otherwise). */
function confirmKeys(config: Config) {
  return config.CONFIRM_KEYS ?? parseConfirmKeys(`local:${randomBytes(32).toString('hex')}`, 'local');
}

function claimStore(redis: RedisClient | null, config: Config, now: () => number): ClaimStore {
  return redis !== null ? new RedisClaimStore(redis, config.REDIS_KEY_PREFIX) : new MemoryClaimStore(now);
}
