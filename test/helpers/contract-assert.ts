/**
 * Assertions shared by the end-to-end read tests: a response parses with its contract schema
 * (strict objects, so an extra field fails too), every decimal, timestamp and url in it has the
 * contract's form (SPEC 1.1 rules 2 to 5), errors are the contract envelope, and lists can be
 * walked page by page.
 */
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import type { z } from 'zod';
import { ErrorEnvelope, type ErrorCode } from '../../src/contract/index.ts';
import type { Reply, Stack } from './stack.ts';

export const API = '/open/v1';

export const DEC4_RE = /^-?\d+\.\d{4}$/;
export const DEC6_RE = /^-?\d+\.\d{6}$/;
/** RFC 3339 in UTC: a `Z` suffix, never an offset. */
export const TS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/** Fields that carry a dec4 string (or null where the contract allows it). */
const DEC4_FIELDS = new Set([
  'probability',
  'implied_price',
  'total_volume',
  'total_stake',
  'market_depth',
  'multiplier',
  'coins',
  'gems',
  'rubies',
  'sapphires',
  'stake_coins',
  'units',
  'ruby_multiplier',
  'payout_if_correct_rubies',
  'sold_rubies',
  'payout_rubies',
  'ruby_payback',
  'sapphire_payback',
  'price_coins',
  'ruby_total',
  'sapphire_total',
  'amount',
  'balance_after',
]);
const DEC6_FIELDS = new Set(['avg_price']);
const TS_FIELDS = new Set([
  'created_at',
  'end_time',
  'resolved_at',
  'starts_at',
  'ends_at',
  'start_time',
  'deadline',
  'settled_at',
  'added_at',
  'timestamp',
]);
/** Embedded objects that are not resources of their own (no `url` promised). */
const NOT_RESOURCES = new Set(['options', 'category', 'reply_to', 'probabilities', 'author_position', 'stake_rules', 'ruby_boost', 'ref']);

/** Parse with the contract schema; on failure, fail with the issues and the body. */
export function expectContract<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body);
  if (!r.success) {
    throw new Error(
      `response breaks its contract schema:\n${JSON.stringify(r.error.issues.slice(0, 8), null, 1)}\nbody: ${JSON.stringify(body).slice(0, 1500)}`,
    );
  }
  checkForms(body);
  return r.data;
}

/** A 200 answer that parses with `schema`. */
export function expectOk<S extends z.ZodType>(reply: Reply, schema: S): z.infer<S> {
  if (reply.status !== 200) throw new Error(`expected 200, got ${reply.status}: ${JSON.stringify(reply.body).slice(0, 500)}`);
  return expectContract(schema, reply.body);
}

/**
 * Walk a JSON value: dec4 fields match DEC4_RE, avg_price DEC6_RE, timestamps TS_RE, and every
 * object with an `id` that is a resource (not an option, category ref, …) has an http(s) `url`.
 */
export function checkForms(value: unknown, path = '$', parentKey = ''): void {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) checkForms(v, `${path}[${i}]`, parentKey);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  if ('id' in obj && !NOT_RESOURCES.has(parentKey)) {
    expect(typeof obj['url'], `${path}.url must be present`).toBe('string');
    expect(obj['url'] as string, `${path}.url`).toMatch(/^https?:\/\/[^\s]+$/);
  }
  // SPEC 2.1: while votes_visible is false, every option's votes_count (and probability) is null.
  if (obj['votes_visible'] === false && Array.isArray(obj['options'])) {
    for (const o of obj['options'] as Record<string, unknown>[]) {
      expect(o['votes_count'], `${path}: votes_count hidden`).toBeNull();
      expect(o['probability'], `${path}: probability hidden`).toBeNull();
    }
  }
  // SPEC 2.4: a topic detail carries resolved_at exactly once resolved (or refunded).
  if ((obj['type'] === 'prediction' || obj['type'] === 'poll') && 'description' in obj) {
    expect('resolved_at' in obj, `${path}: resolved_at with status ${String(obj['status'])}`).toBe(
      obj['status'] === 'resolved' || obj['status'] === 'refunded',
    );
  }
  for (const [k, v] of Object.entries(obj)) {
    const at = `${path}.${k}`;
    if (DEC4_FIELDS.has(k) && v !== null && typeof v !== 'object') {
      expect(typeof v, `${at} is a string`).toBe('string');
      expect(v as string, at).toMatch(DEC4_RE);
    } else if (DEC6_FIELDS.has(k) && v !== null) {
      expect(typeof v, `${at} is a string`).toBe('string');
      expect(v as string, at).toMatch(DEC6_RE);
    } else if (TS_FIELDS.has(k) && v !== null) {
      expect(typeof v, `${at} is a string`).toBe('string');
      expect(v as string, at).toMatch(TS_RE);
      expect(Number.isNaN(Date.parse(v as string)), `${at} is a real instant`).toBe(false);
    }
    checkForms(v, at, k);
  }
}

/** An error answer: the status, the closed-set code, the strict envelope, details.field if named. */
export function expectError(reply: Reply, status: number, code: ErrorCode, field?: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  const env = expectContract(ErrorEnvelope, reply.body);
  expect(env.error.code).toBe(code);
  expect(env.error.message.length).toBeGreaterThan(0);
  if (field !== undefined) expect(env.error.details?.['field']).toBe(field);
}

/** The path with `cursor` (and the given query) appended. */
export function withQuery(path: string, q: Record<string, string | number | undefined>): string {
  const [base, existing = ''] = path.split('?');
  const params = new URLSearchParams(existing);
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s === '' ? (base ?? '') : `${base}?${s}`;
}

/**
 * Every page of a list, following next_cursor; each page is checked against `schema` and for
 * the list invariants (has_more iff a cursor; a full page before every next one).
 */
export async function walkPages<S extends z.ZodType>(
  stack: Stack,
  path: string,
  key: string,
  schema: S,
  opts: { limit?: number; maxPages?: number; headers?: Record<string, string> } = {},
): Promise<z.infer<S>[]> {
  const pages: z.infer<S>[] = [];
  let cursor: string | undefined;
  const max = opts.maxPages ?? 50;
  for (let i = 0; i < max; i++) {
    const reply = await stack.get(withQuery(path, { limit: opts.limit, cursor }), key, opts.headers);
    const page = expectOk(reply, schema) as { data: unknown[]; next_cursor: string | null; has_more: boolean };
    expect(page.has_more).toBe(page.next_cursor !== null);
    pages.push(page as z.infer<S>);
    if (page.next_cursor === null) return pages;
    if (opts.limit !== undefined) expect(page.data.length).toBe(opts.limit);
    cursor = page.next_cursor;
  }
  throw new Error(`more than ${max} pages at ${path}`);
}

/** The items of every page, in order. */
export function itemsOf<T>(pages: readonly { data: readonly T[] }[]): T[] {
  return pages.flatMap((p) => [...p.data]);
}

/** Upstream request counter: a sandbox fault that never changes an answer but counts matches. */
export const COUNTING_TIMES = 1_000_000;

export async function startCounting(stack: Stack, pathPrefix: string): Promise<number> {
  const r = (await stack.admin('POST', '/faults', { method: 'GET', pathPrefix, times: COUNTING_TIMES })) as { faultId: number };
  return r.faultId;
}

/** How many upstream requests a counting fault has seen so far. */
export async function countOf(stack: Stack, faultId: number): Promise<number> {
  const { items } = (await stack.admin('GET', '/faults')) as { items: { id: number; remaining: number | null }[] };
  const f = items.find((x) => x.id === faultId);
  return f === undefined ? COUNTING_TIMES : COUNTING_TIMES - (f.remaining ?? 0);
}

export async function clearFaults(stack: Stack): Promise<void> {
  await stack.admin('DELETE', '/faults');
}

/**
 * A GET sent byte for byte as written. fetch() normalises `%2E%2E` and `..` segments away
 * before sending (WHATWG URL), so path-traversal inputs need this.
 */
export function rawGet(stack: Stack, path: string, key: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // keep text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
