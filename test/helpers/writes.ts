/** Helpers of the write-flow end-to-end tests (test/e2e/writes-*.test.ts and the MCP pipeline). */
import { expect } from 'vitest';
import type { z } from 'zod';
import { SERVICE_TOKEN, USERS, startStack, type Stack, type StackOptions } from './stack.ts';

export const V1 = '/open/v1';

/**
 * A stack for the write tests. These tests make many executions per key within a minute, so the
 * rate limits are turned off (`RATE_LIMITS=off`, docs/contract/limits.md#limit-settings).
 */
export function writeStack(opts: StackOptions = {}): Promise<Stack> {
  const env = { RATE_LIMITS: 'off', ...opts.env };
  return startStack({ ...opts, env });
}

/** A user's coin balance, read straight from the sandbox (exact decimal text, 4 places). */
export async function coins(stack: Stack, userId: string): Promise<string> {
  const res = await fetch(`${stack.sandbox.url}/internal/users/${userId}/profile`, {
    headers: { 'x-service-token': SERVICE_TOKEN, 'x-acting-user': userId },
  });
  const env = (await res.json()) as { data: { wallet: { coin: number } } };
  return env.data.wallet.coin.toFixed(4);
}

export async function counters(stack: Stack): Promise<{ performed: Record<string, number>; replayed: Record<string, number> }> {
  return stack.admin('GET', '/counters');
}

/** Every wallet equals the sum of its ledger. */
export async function expectAuditOk(stack: Stack): Promise<void> {
  const audit = (await stack.admin('GET', '/audit')) as { ok: boolean; problems: string[] };
  expect(audit.problems).toEqual([]);
  expect(audit.ok).toBe(true);
}

/** A fresh read+write key of a user, made through the sandbox admin API. */
export async function newWriteKey(stack: Stack, userId: string = USERS.alice): Promise<string> {
  const made = (await stack.admin('POST', '/keys', { userId, scopes: ['read', 'write'] })) as { key: string };
  return made.key;
}

/** Parses a body with its contract schema and returns it (fails the test with zod's report). */
export function valid<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body);
  if (!r.success) throw new Error(`contract violation: ${JSON.stringify(r.error.issues)}\nbody: ${JSON.stringify(body)}`);
  return r.data;
}

export function expectError(reply: { status: number; body: any }, status: number, code: string): void {
  expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status, code });
}

/** Token payload, decoded (for tampering tests). */
export function decodeToken(token: string): { head: string; kid: string; claims: any; mac: string } {
  const [prefix, kid = '', payload = '', mac = ''] = token.split('.');
  return { head: prefix ?? '', kid, claims: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), mac };
}

/** The same token with its claims rewritten and the original signature kept. */
export function tamper(token: string, edit: (claims: any) => void): string {
  const t = decodeToken(token);
  edit(t.claims);
  return `${t.head}.${t.kid}.${Buffer.from(JSON.stringify(t.claims), 'utf8').toString('base64url')}.${t.mac}`;
}
