/**
 * Confirm tokens (docs/contract/writes.md#confirm-tokens): HMAC-SHA-256 signed, bound to the user, the key, the action
 * and every parameter of the previewed action, valid for exactly 5 minutes.
 *
 * Format: `ct1.<kid>.<payload>.<mac>`, payload and mac base64url. The key id names which secret
 * signed it, so secrets rotate without invalidating live tokens: one signing secret, several
 * verification secrets. Verification is constant-time; anything that does not verify, whatever
 * was changed, is CONFIRM_TOKEN_INVALID. Expiry is judged only on a genuine token, and an
 * execution judges it after the claim store (src/confirm/execute-once.ts): a used token stays used.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error.ts';
import { CONFIRM_KEY_RING, type KeyRing, parseKeyRing } from '../secrets/key-ring.ts';

export const TOKEN_TTL_MS = 5 * 60 * 1000;
const PREFIX = 'ct1';

export type ConfirmAction = 'place_order' | 'publish_opinion' | 'back_opinion';

export interface TokenClaims<P = Record<string, unknown>> {
  /** Token id: the single-use claim and the backend's idempotency key derive from it. */
  jti: string;
  action: ConfirmAction;
  userId: string;
  keyId: string;
  /** Every parameter the execution will use, exactly as previewed. */
  params: P;
  issuedAt: number;
  expiresAt: number;
}

export type ConfirmKeys = KeyRing;

/** Parse `CONFIRM_KEYS` ("kid:secret,kid2:secret2", secrets of 32+ characters) and `CONFIRM_SIGNING_KID`. */
export function parseConfirmKeys(spec: string | undefined, signingKid: string | undefined): ConfirmKeys {
  return parseKeyRing(spec, signingKid, CONFIRM_KEY_RING);
}

export class ConfirmTokens {
  readonly #keys: ConfirmKeys;
  readonly #now: () => number;

  constructor(keys: ConfirmKeys, now: () => number = Date.now) {
    this.#keys = keys;
    this.#now = now;
  }

  get available(): boolean {
    return this.#keys.signingKid !== null;
  }

  issue<P extends Record<string, unknown>>(
    action: ConfirmAction,
    userId: string,
    keyId: string,
    params: P,
  ): { token: string; claims: TokenClaims<P> } {
    const kid = this.#keys.signingKid;
    const secret = kid === null ? undefined : this.#keys.secrets.get(kid);
    // No signing key (kid null has no secret either): no token can be issued.
    if (secret === undefined) throw new ApiError('CONFIRM_UNAVAILABLE');
    const issuedAt = this.#now();
    const claims: TokenClaims<P> = { jti: randomUUID(), action, userId, keyId, params, issuedAt, expiresAt: issuedAt + TOKEN_TTL_MS };
    const head = `${PREFIX}.${kid}.${Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url')}`;
    return { token: `${head}.${mac(secret, head).toString('base64url')}`, claims };
  }

  /**
   * Verify a token presented to `action` by this caller. Forged, truncated, re-signed, foreign
   * (another key, user or operation) tokens are CONFIRM_TOKEN_INVALID; a genuine one past its
   * 5 minutes is CONFIRM_TOKEN_EXPIRED.
   */
  verify(token: string, action: ConfirmAction, caller: { userId: string; keyId: string }): TokenClaims {
    const claims = this.authenticate(token, action, caller);
    if (this.expired(claims)) throw new ApiError('CONFIRM_TOKEN_EXPIRED');
    return claims;
  }

  /**
   * The claims of a genuine token issued to this caller for `action`, expired or not: the
   * execution still has to answer a used token after its 5 minutes (docs/contract/writes.md#token-format). Anything else is CONFIRM_TOKEN_INVALID, but with no keys at all, where no
   * token can be checked (the configuration refuses a fleet without CONFIRM_KEYS; an embedder
   * may still build one): that is CONFIRM_UNAVAILABLE, as its previews are, so a client keeps a
   * token it may still use.
   */
  authenticate(token: string, action: ConfirmAction, caller: { userId: string; keyId: string }): TokenClaims {
    const parts = token.split('.');
    if (parts.length !== 4 || parts[0] !== PREFIX || token.length > 4096) throw invalid();
    if (this.#keys.secrets.size === 0) throw new ApiError('CONFIRM_UNAVAILABLE');
    const [, kid = '', payload = '', sig = ''] = parts;
    const secret = this.#keys.secrets.get(kid);
    if (secret === undefined) throw invalid();
    const expected = mac(secret, `${PREFIX}.${kid}.${payload}`);
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString('base64url') !== sig) throw invalid();
    const claims = parseClaims(payload);
    if (claims === null) throw invalid();
    if (claims.action !== action || claims.userId !== caller.userId || claims.keyId !== caller.keyId) throw invalid();
    return claims;
  }

  /**
   * Keys for another integrity check made from the same secrets (MCP's `requestState`,
   * docs/mcp.md#client-confirmation): one per key id, HMAC(secret, label), so they rotate with
   * the confirm keys and every replica derives the same ones. Null signing id when none signs.
   */
  derivedKeys(label: string): { signingKid: string | null; keys: ReadonlyMap<string, Buffer> } {
    const keys = new Map<string, Buffer>();
    for (const [kid, secret] of this.#keys.secrets) keys.set(kid, mac(secret, label));
    return { signingKid: this.#keys.signingKid, keys };
  }

  /** Whether a token is past its 5 minutes on this gateway's clock (at `expiresAt` it is). */
  expired(claims: TokenClaims): boolean {
    return this.#now() >= claims.expiresAt;
  }
}

function mac(secret: Buffer, data: string): Buffer {
  return createHmac('sha256', secret).update(data, 'utf8').digest();
}

function parseClaims(payload: string): TokenClaims | null {
  try {
    const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
    const ok =
      typeof c.jti === 'string' &&
      typeof c.action === 'string' &&
      typeof c.userId === 'string' &&
      typeof c.keyId === 'string' &&
      typeof c.params === 'object' &&
      c.params !== null &&
      Number.isSafeInteger(c.issuedAt) &&
      Number.isSafeInteger(c.expiresAt);
    return ok ? c : null;
  } catch {
    return null;
  }
}

function invalid(): ApiError {
  return new ApiError('CONFIRM_TOKEN_INVALID');
}
