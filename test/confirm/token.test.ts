import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/errors/api-error.ts';
import { ConfirmTokens, TOKEN_TTL_MS, parseConfirmKeys, type ConfirmAction } from '../../src/confirm/token.ts';

const S1 = `k1:${'a'.repeat(40)}`;
const S2 = `k2:${'b'.repeat(40)}`;
const alice = { userId: 'u-alice', keyId: 'key-a' };
const params = { topic_id: 't1', option_id: 'o1', stake_coins: 25 };

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as ApiError).code;
  }
  return 'ok';
}

function b64(obj: unknown) {
  return Buffer.from(JSON.stringify(obj)).toString('base64url');
}

describe('confirm tokens', () => {
  const clock = { t: 1_000_000 };
  const tokens = new ConfirmTokens(parseConfirmKeys(S1, undefined), () => clock.t);

  it('issues a token that verifies for the same caller and action, with every parameter bound', () => {
    const { token, claims } = tokens.issue('place_order', alice.userId, alice.keyId, params);
    expect(claims.expiresAt - claims.issuedAt).toBe(TOKEN_TTL_MS);
    expect(tokens.verify(token, 'place_order', alice)).toMatchObject({ params, jti: claims.jti });
  });

  it('is invalid for another key, another user or another operation', () => {
    const { token } = tokens.issue('place_order', alice.userId, alice.keyId, params);
    expect(code(() => tokens.verify(token, 'place_order', { ...alice, keyId: 'key-b' }))).toBe('CONFIRM_TOKEN_INVALID');
    expect(code(() => tokens.verify(token, 'place_order', { ...alice, userId: 'u-bob' }))).toBe('CONFIRM_TOKEN_INVALID');
    for (const other of ['publish_opinion', 'back_opinion'] as ConfirmAction[]) {
      expect(code(() => tokens.verify(token, other, alice))).toBe('CONFIRM_TOKEN_INVALID');
    }
  });

  it('expires after exactly 5 minutes', () => {
    const { token } = tokens.issue('back_opinion', alice.userId, alice.keyId, {});
    clock.t += TOKEN_TTL_MS - 1;
    expect(code(() => tokens.verify(token, 'back_opinion', alice))).toBe('ok');
    clock.t += 1;
    expect(code(() => tokens.verify(token, 'back_opinion', alice))).toBe('CONFIRM_TOKEN_EXPIRED');
  });

  it('authenticates a genuine token past its 5 minutes, so an execution can still find its outcome', () => {
    const { token, claims } = tokens.issue('place_order', alice.userId, alice.keyId, params);
    clock.t += TOKEN_TTL_MS - 1;
    expect(tokens.expired(claims)).toBe(false);
    clock.t += 1;
    expect(tokens.expired(claims)).toBe(true);
    expect(tokens.authenticate(token, 'place_order', alice)).toEqual(claims);
    expect(code(() => tokens.authenticate(token, 'back_opinion', alice))).toBe('CONFIRM_TOKEN_INVALID');
    expect(code(() => tokens.authenticate(token.slice(0, -1), 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('refuses every tampered field, truncation and re-signing as INVALID', () => {
    const { token } = tokens.issue('place_order', alice.userId, alice.keyId, params);
    const [prefix, kid, payload, sig] = token.split('.') as [string, string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const variants: Record<string, string> = {
      truncated: token.slice(0, -3),
      'no signature': `${prefix}.${kid}.${payload}`,
      'other prefix': `ct2.${kid}.${payload}.${sig}`,
      'unknown kid': `${prefix}.k9.${payload}.${sig}`,
      'flipped signature bit': `${prefix}.${kid}.${payload}.${sig.slice(0, -2)}${sig.at(-2) === 'A' ? 'B' : 'A'}${sig.at(-1)}`,
      're-signed with a guessed secret': (() => {
        const head = `${prefix}.${kid}.${payload}`;
        return `${head}.${createHmac('sha256', 'guess').update(head).digest('base64url')}`;
      })(),
      empty: '',
      garbage: 'not-a-token',
    };
    for (const field of ['jti', 'action', 'userId', 'keyId', 'issuedAt', 'expiresAt']) {
      const changed = { ...claims, [field]: field.endsWith('At') ? claims[field] + 60_000 : `${claims[field]}x` };
      variants[`changed ${field}`] = `${prefix}.${kid}.${b64(changed)}.${sig}`;
    }
    for (const p of Object.keys(params)) {
      variants[`changed params.${p}`] = `${prefix}.${kid}.${b64({ ...claims, params: { ...claims.params, [p]: 26 } })}.${sig}`;
    }
    for (const [name, t] of Object.entries(variants)) {
      expect([name, code(() => tokens.verify(t, 'place_order', alice))]).toEqual([name, 'CONFIRM_TOKEN_INVALID']);
    }
  });

  it('keeps live tokens valid across a rotation of the signing secret', () => {
    const before = new ConfirmTokens(parseConfirmKeys(S1, 'k1'));
    const { token } = before.issue('publish_opinion', alice.userId, alice.keyId, {});
    const after = new ConfirmTokens(parseConfirmKeys(`${S1},${S2}`, 'k2'));
    expect(code(() => after.verify(token, 'publish_opinion', alice))).toBe('ok');
    expect(after.issue('publish_opinion', alice.userId, alice.keyId, {}).token.split('.')[1]).toBe('k2');
    const retired = new ConfirmTokens(parseConfirmKeys(S2, 'k2'));
    expect(code(() => retired.verify(token, 'publish_opinion', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('answers CONFIRM_UNAVAILABLE when no signing secret is usable', () => {
    const none = new ConfirmTokens(parseConfirmKeys(undefined, undefined));
    expect(none.available).toBe(false);
    expect(code(() => none.issue('place_order', 'u', 'k', {}))).toBe('CONFIRM_UNAVAILABLE');
    // A genuine token from a configured replica is not "invalid" here, only unverifiable: the
    // client should retry later, not drop it.
    const { token } = new ConfirmTokens(parseConfirmKeys(S1, 'k1')).issue('place_order', alice.userId, alice.keyId, {});
    expect(code(() => none.verify(token, 'place_order', alice))).toBe('CONFIRM_UNAVAILABLE');
    // Malformed is malformed whatever the keys.
    expect(code(() => none.verify('not-a-token', 'place_order', alice))).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('rejects weak or inconsistent key configuration', () => {
    expect(() => parseConfirmKeys('k1:short', undefined)).toThrow();
    expect(() => parseConfirmKeys(S1, 'k2')).toThrow();
  });
});
