/** The pieces the write operations share: idempotency keys, bound parameters, closed markets. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TokenClaims } from '../../../src/confirm/token.ts';
import { ApiError } from '../../../src/errors/api-error.ts';
import { DecimalText, boundParams, decimalText, idempotencyKey, isClosed } from '../../../src/operations/writes/shared.ts';

const claims = (params: Record<string, unknown>): TokenClaims => ({
  jti: 'jti-1',
  action: 'place_order',
  userId: 'u',
  keyId: 'k',
  params,
  issuedAt: 0,
  expiresAt: 300_000,
});

describe('write operation helpers', () => {
  it('derives one backend idempotency key per token and kind', () => {
    expect(idempotencyKey('order', claims({}))).toBe('openpm:order:jti-1');
    expect(idempotencyKey('back', claims({}))).toBe('openpm:back:jti-1');
  });

  it("reads a token's parameters with the schema of its action, refusing any other shape as an invalid token", () => {
    const schema = z.object({ stake: z.int() });
    expect(boundParams(schema, claims({ stake: 5 }))).toEqual({ stake: 5 });
    let err: unknown;
    try {
      boundParams(schema, claims({ stake: 'five' }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('CONFIRM_TOKEN_INVALID');
  });

  it('binds a float as the exact decimal text it printed, which DecimalText accepts', () => {
    expect(decimalText(12.5)).toBe('12.5');
    expect(decimalText(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(decimalText(1e21)).toBe('1000000000000000000000');
    expect(DecimalText.safeParse('12.5').success).toBe(true);
    expect(DecimalText.safeParse('12').success).toBe(true);
    for (const bad of ['12.', '.5', '-1', '1e5', ' 1', '1 ', '1.2.3', 'x1.2'])
      expect([bad, DecimalText.safeParse(bad).success]).toEqual([bad, false]);
  });

  it('takes a market as closed unless ACTIVE and before its deadline', () => {
    expect(isClosed('ACTIVE', 1_000, 999)).toBe(false);
    expect(isClosed('ACTIVE', 1_000, 1_000)).toBe(true);
    expect(isClosed('ACTIVE', 1_000, 1_001)).toBe(true);
    expect(isClosed('EXPIRED', 1_000, 0)).toBe(true);
  });
});
