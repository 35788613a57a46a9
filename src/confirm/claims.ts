/**
 * Single use of confirm tokens across replicas. The first execution claims the token id
 * atomically; its outcome is stored so that retries replay it (orders, backs) or are refused
 * (opinions). Redis when configured (one round trip: claim-or-read in a Lua script), memory for
 * the embedded default; both pass the same tests (test/confirm/claims-behaviour.ts).
 *
 * Redis trouble makes `claim` throw: the caller then refuses the write (fail closed), because
 * executing without a claim could run one action twice.
 */
import { defineScript, type RedisClient, type Script } from '../store/redis.ts';

/** What the first execution answered, kept for replays. */
export interface StoredOutcome {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ClaimState = { state: 'acquired' } | { state: 'pending' } | { state: 'done'; outcome: StoredOutcome };

export interface ClaimStore {
  /**
   * Claim a token id for `owner` (a nonce of this execution), or learn that another execution
   * holds it or finished it.
   */
  claim(jti: string, ttlMs: number, owner: string): Promise<ClaimState>;
  /** Record the outcome of the claimed execution. */
  complete(jti: string, outcome: StoredOutcome, ttlMs: number): Promise<void>;
  /**
   * Give back `owner`'s claim after a failure that performed nothing, so the token can be
   * retried. Another owner's claim and a stored outcome are left alone.
   */
  release(jti: string, owner: string): Promise<void>;
  /** The current state without claiming (for waiters); null when unclaimed. */
  peek(jti: string): Promise<ClaimState | null>;
}

/** A pending claim is `P:<owner>`; a finished one is the outcome's JSON (which starts with `{`). */
const pending = (owner: string) => `P:${owner}`;

function decode(raw: string | null): ClaimState | null {
  if (raw === null || raw === '') return null;
  if (raw.startsWith('P:')) return { state: 'pending' };
  return { state: 'done', outcome: JSON.parse(raw) as StoredOutcome };
}

/** The memory store sweeps once it holds this many entries, and never below it. */
const SWEEP_AT_LEAST = 1024;

export class MemoryClaimStore implements ClaimStore {
  readonly #entries = new Map<string, { value: string; expiresAt: number }>();
  readonly #now: () => number;
  /** Size at which the next sweep runs. */
  #sweepAt = SWEEP_AT_LEAST;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  #get(jti: string): string | null {
    const e = this.#entries.get(jti);
    if (e === undefined) return null;
    if (e.expiresAt <= this.#now()) {
      this.#entries.delete(jti);
      return null;
    }
    return e.value;
  }

  async claim(jti: string, ttlMs: number, owner: string): Promise<ClaimState> {
    const current = this.#get(jti);
    if (current !== null) return decode(current) ?? { state: 'pending' };
    this.#entries.set(jti, { value: pending(owner), expiresAt: this.#now() + ttlMs });
    this.#sweep();
    return { state: 'acquired' };
  }

  async complete(jti: string, outcome: StoredOutcome, ttlMs: number): Promise<void> {
    this.#entries.set(jti, { value: JSON.stringify(outcome), expiresAt: this.#now() + ttlMs });
  }

  async release(jti: string, owner: string): Promise<void> {
    if (this.#get(jti) === pending(owner)) this.#entries.delete(jti);
  }

  async peek(jti: string): Promise<ClaimState | null> {
    return decode(this.#get(jti));
  }

  /**
   * Drop expired entries now and then, so the map holds at most about twice the live entries
   * (outcomes live a day). The next sweep waits until the map has doubled, so a map that stays
   * near one size is not swept on every claim: the cost per claim stays constant on average.
   */
  #sweep(): void {
    if (this.#entries.size < this.#sweepAt) return;
    const now = this.#now();
    for (const [k, e] of this.#entries) if (e.expiresAt <= now) this.#entries.delete(k);
    this.#sweepAt = Math.max(SWEEP_AT_LEAST, 2 * this.#entries.size);
  }
}

const CLAIM_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return '' end
return redis.call('GET', KEYS[1]) or ARGV[1]
`;
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** One key per token id, so each script touches a single slot (Redis Cluster included). */
export class RedisClaimStore implements ClaimStore {
  readonly #redis: RedisClient;
  readonly #claim: Script;
  readonly #release: Script;
  readonly #prefix: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#claim = defineScript(redis, 'openpmConfirmClaim', 1, CLAIM_SCRIPT);
    this.#release = defineScript(redis, 'openpmConfirmRelease', 1, RELEASE_SCRIPT);
    this.#prefix = `${prefix}confirm:`;
  }

  async claim(jti: string, ttlMs: number, owner: string): Promise<ClaimState> {
    const raw = (await this.#claim([this.#prefix + jti], [pending(owner), String(Math.ceil(ttlMs))])) as string;
    return raw === '' ? { state: 'acquired' } : (decode(raw) ?? { state: 'pending' });
  }

  async complete(jti: string, outcome: StoredOutcome, ttlMs: number): Promise<void> {
    await this.#redis.set(this.#prefix + jti, JSON.stringify(outcome), 'PX', Math.ceil(ttlMs));
  }

  async release(jti: string, owner: string): Promise<void> {
    await this.#release([this.#prefix + jti], [pending(owner)]);
  }

  async peek(jti: string): Promise<ClaimState | null> {
    return decode(await this.#redis.get(this.#prefix + jti));
  }
}
