/**
 * What a confirm token verifier refuses (docs/contract/writes.md#confirm-tokens), beyond
 * tampering: oversized tokens, non-canonical encodings of a genuine signature, and payloads
 * signed with the real secret whose claims do not have the shape of a token. Every refusal is
 * CONFIRM_TOKEN_INVALID; only a genuine, well-formed token can be EXPIRED.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.ts';
import { ConfirmTokens, TOKEN_TTL_MS, parseConfirmKeys } from '../../src/confirm/token.ts';

const SECRET = 'q'.repeat(40);
const alice = { userId: 'u-alice', keyId: 'key-a' };
const NOW = 1_800_000_000_000;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
  return 'ok';
}

function verifier(now = NOW) {
  return new ConfirmTokens(parseConfirmKeys(`k1:${SECRET}`, undefined), () => now);
}

/** A token signed with the real secret over any payload text. */
function signed(payloadText: string, kid = 'k1', secret = SECRET): string {
  const head = `ct1.${kid}.${Buffer.from(payloadText, 'utf8').toString('base64url')}`;
  return `${head}.${createHmac('sha256', secret).update(head, 'utf8').digest('base64url')}`;
}

const goodClaims = () => ({
  jti: 'j-1',
  action: 'place_order',
  userId: alice.userId,
  keyId: alice.keyId,
  params: { stake: 5 },
  issuedAt: NOW - 1_000,
  expiresAt: NOW - 1_000 + TOKEN_TTL_MS,
});

describe('confirm token verification: size and encoding', () => {
  it('accepts a genuine token of exactly 4096 characters and refuses one of 4097', () => {
    // Base64url never has a length of 4n + 1, so the key id's length tunes the total.
    const tokens = new ConfirmTokens(parseConfirmKeys(`k1:${SECRET},k12:${SECRET},k123:${SECRET}`, undefined), () => NOW);
    const sized = (len: number) => {
      for (const kid of ['k1', 'k12', 'k123']) {
        for (let pad = 2500; pad < 3500; pad++) {
          const t = signed(JSON.stringify({ ...goodClaims(), params: { note: 'x'.repeat(pad) } }), kid);
          if (t.length === len) return t;
        }
      }
      throw new Error(`no token of ${len} characters`);
    };
    const at = sized(4096);
    expect(code(() => tokens.verify(at, 'place_order', alice))).toBe('ok');
    const over = sized(4097);
    expect(code(() => tokens.verify(over, 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('refuses a genuine oversized token even when it is also expired', () => {
    const t = signed(JSON.stringify({ ...goodClaims(), params: { note: 'x'.repeat(5000) } }));
    expect(code(() => verifier(NOW + 2 * TOKEN_TTL_MS).verify(t, 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('verifies the token a verifier issued itself, and refuses it with a non-canonical signature', () => {
    const tokens = verifier();
    const { token } = tokens.issue('place_order', alice.userId, alice.keyId, { stake: 5 });
    expect(code(() => tokens.verify(token, 'place_order', alice))).toBe('ok');
    const sig = token.split('.')[3] ?? '';
    expect(sig).toHaveLength(43); // 32 bytes: the last character carries two unused bits
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig.at(-1) ?? '');
    const sameBytes = alphabet[last ^ 1] ?? '';
    const variant = `${token.slice(0, -1)}${sameBytes}`;
    expect(Buffer.from(variant.split('.')[3] ?? '', 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    expect(code(() => tokens.verify(variant, 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
    expect(code(() => tokens.verify(`${token}=`, 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('refuses a token with too many or too few segments, or another prefix, though its signature is genuine', () => {
    const t = signed(JSON.stringify(goodClaims()));
    const tokens = verifier();
    expect(code(() => tokens.verify(t, 'place_order', alice))).toBe('ok');
    expect(code(() => tokens.verify(`${t}.extra`, 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
    expect(code(() => tokens.verify(t.split('.').slice(1).join('.'), 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
    const [, kid, payload, sig] = t.split('.');
    expect(code(() => tokens.verify(`CT1.${kid}.${payload}.${sig}`, 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('refuses a token signed under a key id the verifier does not know, even with a known secret', () => {
    const t = signed(JSON.stringify(goodClaims()), 'k2');
    expect(code(() => verifier().verify(t, 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('refuses a signature that is a prefix of the genuine one', () => {
    const t = signed(JSON.stringify(goodClaims()));
    expect(code(() => verifier().verify(t.slice(0, -11), 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });
});

describe('confirm token verification: claim shape', () => {
  const shapes: Record<string, unknown> = {
    'jti not a string': { ...goodClaims(), jti: 17 },
    'jti missing': { ...goodClaims(), jti: undefined },
    'params null': { ...goodClaims(), params: null },
    'params a string': { ...goodClaims(), params: 'stake=5' },
    'params missing': { ...goodClaims(), params: undefined },
    'issuedAt a fraction': { ...goodClaims(), issuedAt: NOW - 0.5 },
    'issuedAt a string': { ...goodClaims(), issuedAt: String(NOW) },
    'expiresAt a string': { ...goodClaims(), expiresAt: String(NOW + TOKEN_TTL_MS) },
    'expiresAt missing': { ...goodClaims(), expiresAt: undefined },
    'expiresAt beyond safe integers': { ...goodClaims(), expiresAt: 2 ** 60 },
  };

  it.each(Object.entries(shapes))('refuses a validly signed payload with %s', (_name, claims) => {
    const t = signed(JSON.stringify(claims));
    expect(code(() => verifier().verify(t, 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it.each([
    ['not JSON', '{"jti":'],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
    ['an empty object', '{}'],
  ])('refuses a validly signed payload that is %s', (_name, text) => {
    expect(code(() => verifier().verify(signed(text), 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('accepts the same shape when every claim is right, returning the claims as signed', () => {
    const claims = goodClaims();
    expect(verifier().verify(signed(JSON.stringify(claims)), 'place_order', alice)).toEqual(claims);
  });

  it('judges expiry only after the shape: a malformed expired payload is INVALID, a well-formed one EXPIRED', () => {
    const late = verifier(NOW + TOKEN_TTL_MS);
    expect(code(() => late.verify(signed(JSON.stringify(goodClaims())), 'place_order', alice))).toBe('CONFIRM_TOKEN_EXPIRED');
    expect(code(() => late.verify(signed(JSON.stringify({ ...goodClaims(), jti: 1 })), 'place_order', alice))).toBe(
      'CONFIRM_TOKEN_INVALID',
    );
    expect(code(() => late.verify(signed(JSON.stringify(goodClaims())), 'place_order', { ...alice, userId: 'u-bob' }))).toBe(
      'CONFIRM_TOKEN_INVALID',
    );
  });
});

describe('confirm key configuration', () => {
  it('reads several keys, trims spaces and skips empty entries; the first signs unless one is named', () => {
    const keys = parseConfirmKeys(` k1:${SECRET} ,, k2:${'r'.repeat(32)} `, undefined);
    expect(keys.signingKid).toBe('k1');
    expect([...keys.secrets.keys()]).toEqual(['k1', 'k2']);
    expect(keys.secrets.get('k2')?.toString('utf8')).toBe('r'.repeat(32));
    expect(parseConfirmKeys(`k1:${SECRET},k2:${SECRET}`, 'k2').signingKid).toBe('k2');
  });

  it('keeps a secret that itself contains a colon', () => {
    const secret = `ab:${'c'.repeat(31)}`;
    expect(parseConfirmKeys(`k1:${secret}`, undefined).secrets.get('k1')?.toString('utf8')).toBe(secret);
  });

  it.each([
    ['no colon', 'k1'],
    ['empty key id', `:${SECRET}`],
    ['key id with a dot', `k.1:${SECRET}`],
    ['key id of 33 characters', `${'k'.repeat(33)}:${SECRET}`],
    ['secret of 31 characters', `k1:${'s'.repeat(31)}`],
  ])('refuses an entry with %s', (_name, spec) => {
    expect(() => parseConfirmKeys(spec, undefined)).toThrow(/CONFIRM_KEYS/);
  });

  it('accepts a key id of 32 characters and a secret of exactly 32', () => {
    const kid = `${'K'.repeat(30)}_-`;
    const keys = parseConfirmKeys(`${kid}:${'s'.repeat(32)}`, undefined);
    expect(keys.signingKid).toBe(kid);
  });

  it('refuses an entry without a colon even when it would split into a valid id and a long secret', () => {
    expect(() => parseConfirmKeys('a'.repeat(33), undefined)).toThrow(/CONFIRM_KEYS/);
  });

  it('answers CONFIRM_UNAVAILABLE when the signing key id has no secret', () => {
    const tokens = new ConfirmTokens({ signingKid: 'k9', secrets: new Map() }, () => NOW);
    expect(tokens.available).toBe(true);
    expect(code(() => tokens.issue('place_order', alice.userId, alice.keyId, {}))).toBe('CONFIRM_UNAVAILABLE');
  });

  it('has no signing key without configuration, and refuses a signing key id it does not hold', () => {
    expect(parseConfirmKeys(undefined, undefined)).toEqual({ signingKid: null, secrets: new Map() });
    expect(parseConfirmKeys('', undefined).signingKid).toBeNull();
    expect(() => parseConfirmKeys(undefined, 'k1')).toThrow(/CONFIRM_SIGNING_KID/);
  });

  it('issues tokens only when a signing key exists, stamped with its id and 5 minutes of validity', () => {
    const tokens = verifier();
    expect(tokens.available).toBe(true);
    const { token, claims } = tokens.issue('back_opinion', alice.userId, alice.keyId, { seat: 2 });
    expect(token.startsWith('ct1.k1.')).toBe(true);
    expect(claims).toMatchObject({
      action: 'back_opinion',
      userId: alice.userId,
      keyId: alice.keyId,
      params: { seat: 2 },
      issuedAt: NOW,
      expiresAt: NOW + TOKEN_TTL_MS,
    });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(Buffer.from(token.split('.')[2] ?? '', 'base64url').toString('utf8'))).toEqual(claims);
  });
});
