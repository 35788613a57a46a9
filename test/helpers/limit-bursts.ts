/**
 * The exact-refusal cases of the per-key limits (docs/contract/limits.md): limit + k concurrent
 * requests with one key, spread over several replicas, get exactly k answers 429, whatever the
 * store the replicas share (one Redis server, a Redis Cluster). Each suite supplies its own
 * replicas through `target`.
 */
import { expect, it } from 'vitest';
import { USERS } from './stack.ts';

export interface BurstTarget {
  /** A fresh key of the user, so no earlier test has spent its windows. */
  newKey(userId: string, scopes: string[]): Promise<string>;
  /** `n` concurrent requests with the key, over the replicas in turn; their statuses. A body makes them JSON POSTs. */
  burst(n: number, path: string, key: string, body?: unknown): Promise<number[]>;
}

const count = (statuses: number[], s: number) => statuses.filter((x) => x === s).length;

/** The three windows the sandbox's keys get: reads 120 a minute, searches 30, writes 10. */
export function itRefusesExactlyTheExcess(target: BurstTarget): void {
  it('read window 120: exactly 5 × 429', async () => {
    const key = await target.newKey(USERS.kim, ['READ']);
    expect(count(await target.burst(125, '/open/v1/topic-categories', key), 429)).toBe(5);
  });

  it('search window 30: exactly 3 × 429', async () => {
    const key = await target.newKey(USERS.leo, ['READ']);
    expect(count(await target.burst(33, '/open/v1/search?q=will', key), 429)).toBe(3);
  });

  it('write window 10: exactly 2 × 429', async () => {
    const key = await target.newKey(USERS.judy, ['READ', 'WRITE']);
    const statuses = await target.burst(12, '/open/v1/orders', key, { confirm_token: 'not-a-token' });
    expect(count(statuses, 429)).toBe(2);
    expect(count(statuses, 400)).toBe(10);
  });
}
