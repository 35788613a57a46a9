import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Dec4, Dec4OrEmpty, Dec6, ErrorEnvelope, FullListOf, ListOf, Timestamp, Url, Uuid } from '../../src/contract/index.ts';

function accepts(schema: z.ZodType, value: unknown): boolean {
  return schema.safeParse(value).success;
}

describe('Dec4', () => {
  it.each(['0.0000', '12.5000', '-0.0001', '1000000000000000000000.0000'])('accepts %j', (v) => {
    expect(accepts(Dec4, v)).toBe(true);
  });
  it.each([0.3, 12, '0.3', '0.300', '0.30000', '.3000', '+1.0000', '1e3', '1,000.0000', ' 1.0000', '', null])('rejects %j', (v) => {
    expect(accepts(Dec4, v)).toBe(false);
  });
  it('allows the empty string only where a preview says so', () => {
    expect(accepts(Dec4OrEmpty, '')).toBe(true);
    expect(accepts(Dec4OrEmpty, '1.0000')).toBe(true);
    expect(accepts(Dec4OrEmpty, '1.00')).toBe(false);
  });
});

describe('Dec6', () => {
  it('takes exactly 6 places', () => {
    expect(accepts(Dec6, '0.631920')).toBe(true);
    expect(accepts(Dec6, '0.6319')).toBe(false);
    expect(accepts(Dec6, 0.63192)).toBe(false);
  });
});

describe('Timestamp', () => {
  it.each(['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z'])('accepts %j', (v) => {
    expect(accepts(Timestamp, v)).toBe(true);
  });
  it.each(['2026-01-01T00:00:00.000+08:00', '2026-01-01', '2026-01-01 00:00:00Z', 1767225600000, '2026-13-01T00:00:00Z'])(
    'rejects %j',
    (v) => {
      expect(accepts(Timestamp, v)).toBe(false);
    },
  );
});

describe('Uuid and Url', () => {
  it('accepts the sandbox ids, which are not all RFC 9562', () => {
    expect(accepts(Uuid, '00000000-0000-4000-8000-00000000c001')).toBe(true);
    expect(accepts(Uuid, '00000000-0000-0000-0000-000000000001')).toBe(true);
    expect(accepts(Uuid, 'c001')).toBe(false);
  });
  it('takes absolute http(s) URLs only', () => {
    expect(accepts(Url, 'https://app.example.com/u/alice')).toBe(true);
    expect(accepts(Url, '/u/alice')).toBe(false);
    expect(accepts(Url, 'javascript:alert(1)')).toBe(false);
  });
});

describe('ListOf', () => {
  const L = ListOf(z.int());
  it('is {data, next_cursor, has_more}', () => {
    expect(accepts(L, { data: [1], next_cursor: 'abc', has_more: true })).toBe(true);
    expect(accepts(L, { data: [], next_cursor: null, has_more: false })).toBe(true);
    expect(accepts(L, { data: [], has_more: false })).toBe(false);
    expect(accepts(L, { data: [], next_cursor: '', has_more: false })).toBe(false);
    expect(accepts(L, { data: [], next_cursor: null, has_more: false, total: 0 })).toBe(false);
  });
  it('FullListOf pins the cursor to null and has_more to false', () => {
    const F = FullListOf(z.int());
    expect(accepts(F, { data: [1], next_cursor: null, has_more: false })).toBe(true);
    expect(accepts(F, { data: [1], next_cursor: 'x', has_more: false })).toBe(false);
    expect(accepts(F, { data: [1], next_cursor: null, has_more: true })).toBe(false);
  });
});

describe('ErrorEnvelope', () => {
  it('takes a closed code, a message and optional details', () => {
    expect(accepts(ErrorEnvelope, { error: { code: 'NOT_FOUND', message: 'Not found.' } })).toBe(true);
    expect(accepts(ErrorEnvelope, { error: { code: 'INVALID_ARGUMENT', message: 'Bad.', details: { field: 'limit' } } })).toBe(true);
    expect(accepts(ErrorEnvelope, { error: { code: 'TEAPOT', message: 'x' } })).toBe(false);
    expect(accepts(ErrorEnvelope, { error: { code: 'NOT_FOUND' } })).toBe(false);
    expect(accepts(ErrorEnvelope, { code: 'NOT_FOUND', message: 'x' })).toBe(false);
  });
});
