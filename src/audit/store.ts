/**
 * Where audit records are kept for querying (GET /audit on the admin port): with Redis, one
 * Stream shared by the fleet, trimmed by age on every append; without it, this process's last
 * records in memory. The JSON-lines trail (./sink.ts) is the record of reference; these serve
 * queries.
 */
import type { RedisClient } from '../store/redis.ts';
import { taggedKey } from '../store/redis.ts';
import type { AuditRecord } from './record.ts';

export interface AuditQuery {
  userId?: string;
  keyId?: string;
  action?: string;
  /** At most this many, newest first. */
  limit: number;
}

export interface AuditStore {
  readonly kind: 'stream' | 'memory';
  append(record: AuditRecord): Promise<void>;
  query(q: AuditQuery): Promise<AuditRecord[]>;
}

export function matches(record: Pick<AuditRecord, 'user_id' | 'key_id' | 'action'>, q: AuditQuery): boolean {
  return (
    (q.userId === undefined || record.user_id === q.userId) &&
    (q.keyId === undefined || record.key_id === q.keyId) &&
    (q.action === undefined || record.action === q.action)
  );
}

export const MEMORY_RECORDS = 1000;

/** The last `capacity` records of this process (a ring). */
export class MemoryAuditStore implements AuditStore {
  readonly kind = 'memory';
  readonly #ring: AuditRecord[] = [];
  readonly #capacity: number;
  #next = 0;

  constructor(capacity = MEMORY_RECORDS) {
    this.#capacity = capacity;
  }

  async append(record: AuditRecord): Promise<void> {
    if (this.#ring.length < this.#capacity) this.#ring.push(record);
    else this.#ring[this.#next] = record;
    this.#next = (this.#next + 1) % this.#capacity;
  }

  async query(q: AuditQuery): Promise<AuditRecord[]> {
    const out: AuditRecord[] = [];
    const n = this.#ring.length;
    for (let i = 1; i <= n && out.length < q.limit; i += 1) {
      const record = this.#ring[(this.#next - i + n) % n] as AuditRecord;
      if (matches(record, q)) out.push(record);
    }
    return out;
  }
}

/** The stream's key: under the key prefix, with a hash tag of its own (one slot on a cluster). */
export function auditStreamKey(prefix: string): string {
  return taggedKey(prefix, 'audit', ':stream');
}

/** Entries read per XREVRANGE while filtering, and the most a query looks at. */
const PAGE = 200;
export const MAX_SCANNED = 20_000;

export interface StreamOptions {
  prefix: string;
  retentionMs: number;
  now: () => number;
}

/**
 * The fleet's records in one Redis Stream. Each XADD trims, exactly, what is older than the
 * retention (MINID, by this replica's clock against the ids Redis gives from its own), so the
 * stream never holds more than the retention's worth whatever the traffic. Entry fields: `u`
 * (user id), `k` (key id), `a` (action), `r` (the record as JSON).
 */
export class RedisAuditStream implements AuditStore {
  readonly kind = 'stream';
  readonly #redis: RedisClient;
  readonly #key: string;
  readonly #retentionMs: number;
  readonly #now: () => number;

  constructor(redis: RedisClient, opts: StreamOptions) {
    this.#redis = redis;
    this.#key = auditStreamKey(opts.prefix);
    this.#retentionMs = opts.retentionMs;
    this.#now = opts.now;
  }

  get key(): string {
    return this.#key;
  }

  /** The oldest stream id kept after an append now. */
  minId(): string {
    return `${Math.max(0, this.#now() - this.#retentionMs)}-0`;
  }

  async append(record: AuditRecord): Promise<void> {
    await this.#redis.xadd(
      this.#key,
      'MINID',
      '=',
      this.minId(),
      '*',
      'u',
      record.user_id ?? '',
      'k',
      record.key_id ?? '',
      'a',
      record.action,
      'r',
      JSON.stringify(record),
    );
  }

  async query(q: AuditQuery): Promise<AuditRecord[]> {
    const out: AuditRecord[] = [];
    let end = '+';
    let scanned = 0;
    while (out.length < q.limit && scanned < MAX_SCANNED) {
      const page = await this.#redis.xrevrange(this.#key, end, '-', 'COUNT', PAGE);
      for (const [, fields] of page) {
        const f = fieldsOf(fields);
        if (!matches({ user_id: f['u'] || null, key_id: f['k'] || null, action: f['a'] as AuditRecord['action'] }, q)) continue;
        const record = parsed(f['r']);
        if (record !== null) out.push(record);
        if (out.length >= q.limit) break;
      }
      scanned += page.length;
      const last = page.at(-1);
      if (page.length < PAGE || last === undefined) break;
      end = `(${last[0]}`;
    }
    return out;
  }
}

function fieldsOf(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) out[list[i] as string] = list[i + 1] as string;
  return out;
}

function parsed(json: string | undefined): AuditRecord | null {
  if (json === undefined) return null;
  try {
    return JSON.parse(json) as AuditRecord;
  } catch {
    return null;
  }
}
