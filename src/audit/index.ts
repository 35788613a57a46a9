/** The replica's audit trail from configuration: the JSON-lines sink, and the Stream or memory store. */
import type { Config } from '../config.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { RedisClient } from '../store/redis.ts';
import { openSink } from './sink.ts';
import { MemoryAuditStore, RedisAuditStream } from './store.ts';
import { AuditTrail, type AuditLogger } from './trail.ts';

export { AuditTrail } from './trail.ts';

export function createAuditTrail(
  config: Pick<Config, 'AUDIT_LOG' | 'AUDIT_RETENTION_HOURS' | 'REDIS_KEY_PREFIX'>,
  redis: RedisClient | null,
  metrics: Metrics,
  log: AuditLogger,
  now: () => number,
): AuditTrail {
  const store =
    redis === null
      ? new MemoryAuditStore()
      : new RedisAuditStream(redis, { prefix: config.REDIS_KEY_PREFIX, retentionMs: config.AUDIT_RETENTION_HOURS * 3_600_000, now });
  return new AuditTrail({ sink: openSink(config.AUDIT_LOG), store, metrics, log, now });
}
