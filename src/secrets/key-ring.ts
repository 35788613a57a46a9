/**
 * A rotatable set of secrets: `kid:secret` pairs separated by commas, every one accepted, one
 * of them (named by a `*_SIGNING_KID` variable, else the first) used for what is issued now.
 * Confirm tokens (CONFIRM_KEYS) and pagination cursors (CURSOR_KEYS) rotate with the same three
 * steps (docs/operations.md#rotating-secrets): add the new pair everywhere, switch the signing
 * kid, remove the old pair once nothing it signed is still in use.
 */
export interface KeyRing {
  /** Key id used to sign new tokens; null when no signing secret is usable. */
  signingKid: string | null;
  /** Every accepted secret by key id (the signing one included). */
  secrets: ReadonlyMap<string, Buffer>;
}

export interface KeyRingNames {
  /** The variable holding the pairs, e.g. `CONFIRM_KEYS`. */
  keys: string;
  /** The variable naming the signing kid, e.g. `CONFIRM_SIGNING_KID`. */
  signingKid: string;
  /** Shortest accepted secret, in characters. */
  minSecretLength: number;
}

/** Confirm-token secrets: `CONFIRM_KEYS`, secrets of 32+ characters, and `CONFIRM_SIGNING_KID`. */
export const CONFIRM_KEY_RING: KeyRingNames = { keys: 'CONFIRM_KEYS', signingKid: 'CONFIRM_SIGNING_KID', minSecretLength: 32 };
/** Cursor secrets: `CURSOR_KEYS`, secrets of 16+ characters (as CURSOR_SECRET), and `CURSOR_SIGNING_KID`. */
export const CURSOR_KEY_RING: KeyRingNames = { keys: 'CURSOR_KEYS', signingKid: 'CURSOR_SIGNING_KID', minSecretLength: 16 };

/** Parse `kid:secret,kid2:secret2` and the signing kid; throws with a message naming the variable (never a secret). */
export function parseKeyRing(spec: string | undefined, signingKid: string | undefined, names: KeyRingNames): KeyRing {
  const secrets = new Map<string, Buffer>();
  for (const part of (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    // No colon: refused here; nothing before it: an empty key id, which the pattern refuses.
    const at = part.indexOf(':');
    const kid = part.slice(0, at);
    const secret = part.slice(at + 1);
    if (at === -1 || !/^[A-Za-z0-9_-]{1,32}$/.test(kid) || secret.length < names.minSecretLength) {
      throw new Error(`${names.keys} entries must be <kid>:<secret of ${names.minSecretLength}+ characters>`);
    }
    if (secrets.has(kid)) throw new Error(`${names.keys} names the key id ${kid} twice`);
    secrets.set(kid, Buffer.from(secret, 'utf8'));
  }
  const kid = signingKid ?? [...secrets.keys()][0] ?? null;
  if (kid !== null && !secrets.has(kid)) throw new Error(`${names.signingKid} names no key of ${names.keys}`);
  return { signingKid: kid, secrets };
}
