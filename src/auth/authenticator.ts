/**
 * Key verification: hash the key, then ask an in-process LRU, then the shared verdict store,
 * then the backend (by hash: the raw key never leaves this process). Each layer keeps a verdict
 * only for what is left of the revocation window, measured from when the backend gave it.
 */
import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { UpstreamClient, CallContext } from '../upstream/client.ts';
import { ApiKeyVerdict, UpstreamErrCode } from '../upstream/internal-api.ts';
import { hasUpstreamCode } from '../upstream/errors.ts';
import type { Caller, Scope } from './caller.ts';
import { unauthorized } from './challenge.ts';
import type { Verdict, VerdictStore } from './verdict-store.ts';

export interface AuthenticatorOptions {
  upstream: Pick<UpstreamClient, 'call'>;
  shared: VerdictStore;
  /** Revocation window: the longest any layer may keep a verdict. */
  ttlMs: number;
  /** Shorter life for "no such key", so a key created a moment ago works soon. */
  negativeTtlMs: number;
  maxEntries: number;
  now?: () => number;
}

/**
 * The SHA-256 of a raw key, hex: the only form of a key that leaves the authentication hook.
 * Branded so that a raw key can never be passed where its hash is expected (it would be sent
 * to the backend); the hook hashes once per request and hands the hash to the throttle and here.
 */
export type KeyHash = string & { readonly __brand: 'KeyHash' };

export function hashKey(rawKey: string): KeyHash {
  // The one-shot form: a third of createHash()'s cost, run on every request.
  return hash('sha256', rawKey, 'hex') as KeyHash;
}

export class KeyAuthenticator {
  readonly #opts: AuthenticatorOptions;
  readonly #now: () => number;
  readonly #local: LRUCache<string, Verdict, CallContext>;

  constructor(opts: AuthenticatorOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
    this.#local = new LRUCache<string, Verdict, CallContext>({
      max: opts.maxEntries,
      ttl: Math.max(1, opts.ttlMs),
      // Read the clock on every lookup. lru-cache's default caches it for 1 ms behind a
      // one-shot timer, so a busy replica started a timer every millisecond or so just for this
      // (docs/performance.md, kept optimisations); a clock read costs less than a timer.
      ttlResolution: 0,
      // One backend call per key hash at a time, however many requests arrive together.
      fetchMethod: async (keyHash, _stale, { options, context }) => {
        const verdict = await this.#load(keyHash, context);
        options.ttl = this.#remainingMs(verdict);
        return verdict;
      },
    });
  }

  /** Whether this replica holds a live valid verdict for the key (no I/O). */
  isKnownValid(keyHash: KeyHash): boolean {
    const v = this.#local.peek(keyHash);
    return v?.valid === true && this.#remainingMs(v) > 0 && (v.expiresAt === null || v.expiresAt > this.#now());
  }

  /**
   * Whether a live verdict for the key, valid or not, is at hand without asking the backend:
   * in this replica, or in the shared store (another replica verified it). The throttle of
   * failed authentication lets such keys through, since they cost the backend nothing.
   */
  async hasVerdict(keyHash: KeyHash): Promise<boolean> {
    const local = this.#local.peek(keyHash);
    if (local !== undefined && this.#remainingMs(local) > 0) return true;
    const shared = await this.#opts.shared.get(keyHash);
    return shared !== undefined && this.#remainingMs(shared) > 0;
  }

  /** Resolve a well-formed key, by its hash, to its owner, or throw 401 UNAUTHORIZED. */
  async authenticate(keyHash: KeyHash, ctx: CallContext): Promise<Caller> {
    // forceFetch: the fetchMethod always gives a verdict (or throws), never undefined.
    let verdict = await this.#local.forceFetch(keyHash, { context: ctx });
    if (this.#remainingMs(verdict) <= 0) {
      // The window is spent (the LRU's own clock may not say so yet). Refresh in place, which
      // joins a refresh another request already started; deleting the entry instead aborted
      // that other request's fetch, and its caller got a 500.
      verdict = await this.#local.forceFetch(keyHash, { context: ctx, forceRefresh: true });
    }
    if (!verdict.valid) throw unauthorized(true);
    // A key may expire inside the cache window; its expiry is checked on every use.
    if (verdict.expiresAt !== null && verdict.expiresAt <= this.#now()) throw unauthorized(true);
    return { userId: verdict.userId, keyId: verdict.keyId, keyHash, scopes: new Set(verdict.scopes) };
  }

  async #load(keyHash: string, ctx: CallContext): Promise<Verdict> {
    const shared = await this.#opts.shared.get(keyHash);
    if (shared !== undefined && this.#remainingMs(shared) > 0) return shared;
    const verdict = await this.#ask(keyHash, ctx);
    await this.#opts.shared.set(keyHash, verdict, this.#remainingMs(verdict));
    return verdict;
  }

  async #ask(keyHash: string, ctx: CallContext): Promise<Verdict> {
    const checkedAt = this.#now();
    try {
      const v = await this.#opts.upstream.call(ctx, {
        method: 'POST',
        path: '/internal/auth/api-keys/verify',
        body: { keyHash },
        schema: ApiKeyVerdict,
      });
      const expired = v.expiresAt !== null && v.expiresAt <= checkedAt;
      if (v.state !== 'ACTIVE' || expired) return { valid: false, checkedAt };
      const scopes: Scope[] = v.scopes.includes('WRITE') ? ['read', 'write'] : ['read'];
      return { valid: true, userId: v.userId, keyId: v.keyId, scopes, expiresAt: v.expiresAt, checkedAt };
    } catch (err) {
      if (hasUpstreamCode(err, UpstreamErrCode.API_KEY_NOT_FOUND)) return { valid: false, checkedAt };
      throw err;
    }
  }

  #remainingMs(v: Verdict): number {
    const window = v.valid ? this.#opts.ttlMs : Math.min(this.#opts.ttlMs, this.#opts.negativeTtlMs);
    return v.checkedAt + window - this.#now();
  }
}
