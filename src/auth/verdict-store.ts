/**
 * Shared cache of key verdicts, keyed by the key's SHA-256. Redis when the fleet shares one,
 * in-memory otherwise; both pass the same tests (test/auth/verdict-store-behaviour.ts).
 *
 * A verdict carries the instant it was checked against the backend, so every layer (this
 * store, each replica's in-process LRU) can keep it only for what is left of the revocation
 * window, never a full window again.
 */
import type { RedisClient } from '../store/redis.ts';
import { LRUCache } from 'lru-cache';
import type { Scope } from './caller.ts';

export type Verdict =
  | { valid: true; userId: string; keyId: string; scopes: Scope[]; expiresAt: number | null; checkedAt: number }
  | { valid: false; checkedAt: number };

export interface VerdictStore {
  /** A miss, or a store that cannot answer in time, is `undefined`: the caller asks the backend. */
  get(keyHash: string): Promise<Verdict | undefined>;
  set(keyHash: string, verdict: Verdict, ttlMs: number): Promise<void>;
}

export class MemoryVerdictStore implements VerdictStore {
  readonly #lru: LRUCache<string, Verdict>;

  constructor(maxEntries = 10_000) {
    // ttlResolution 0: no 1-ms timer per clock read (as in authenticator.ts).
    this.#lru = new LRUCache({ max: maxEntries, ttl: 60_000, ttlResolution: 0 });
  }

  async get(keyHash: string): Promise<Verdict | undefined> {
    return this.#lru.get(keyHash);
  }

  async set(keyHash: string, verdict: Verdict, ttlMs: number): Promise<void> {
    if (ttlMs > 0) this.#lru.set(keyHash, verdict, { ttl: ttlMs });
  }
}

export interface StoreLogger {
  warn(obj: object, msg: string): void;
}

export class RedisVerdictStore implements VerdictStore {
  readonly #redis: RedisClient;
  readonly #prefix: string;
  readonly #log: StoreLogger;

  constructor(redis: RedisClient, prefix: string, log: StoreLogger) {
    this.#redis = redis;
    this.#prefix = `${prefix}key-verdict:`;
    this.#log = log;
  }

  async get(keyHash: string): Promise<Verdict | undefined> {
    try {
      const raw = await this.#redis.get(this.#prefix + keyHash);
      return raw === null ? undefined : parseVerdict(raw);
    } catch (err) {
      // Redis slow or down: fall through to the backend, which is always authoritative.
      this.#log.warn({ err: (err as Error).message }, 'verdict cache read failed');
      return undefined;
    }
  }

  async set(keyHash: string, verdict: Verdict, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    try {
      await this.#redis.set(this.#prefix + keyHash, JSON.stringify(verdict), 'PX', Math.ceil(ttlMs));
    } catch (err) {
      this.#log.warn({ err: (err as Error).message }, 'verdict cache write failed');
    }
  }
}

function parseVerdict(raw: string): Verdict | undefined {
  try {
    const v = JSON.parse(raw) as Verdict;
    return typeof v === 'object' && v !== null && typeof v.checkedAt === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}
