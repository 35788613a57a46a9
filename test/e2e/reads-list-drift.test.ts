/**
 * What a cursor promises while its list changes (docs/contract/lists.md#cursors): a list paged by
 * position repeats on its next page as many items as arrived at its head meanwhile, and a topic's
 * comments, paged after the last one seen, repeat and hide nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommentList, LedgerList, OpinionPreview } from '../../src/contract/index.ts';
import { API, expectOk } from '../helpers/contract-assert.ts';
import { KEYS, MARKETS, USERS, type Stack } from '../helpers/stack.ts';
import { valid, writeStack } from '../helpers/writes.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await writeStack();
});
afterAll(async () => {
  await stack?.close();
});

const page = (path: string, limit: number, cursor?: string | null) =>
  stack.get(`${API}${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, KEYS.aliceWrite);

describe('a list that changes between two of its pages', () => {
  it('by position: the next page repeats the last items seen, as many as arrived', async () => {
    const first = expectOk(await page('/me/coin-ledger', 3), LedgerList);
    for (const amount of [5, 6]) await stack.admin('POST', '/wallet/grant', { userId: USERS.alice, amount });
    const second = expectOk(await page('/me/coin-ledger', 3, first.next_cursor), LedgerList);
    expect(second.data.slice(0, 2).map((e) => e.id)).toEqual(first.data.slice(1).map((e) => e.id));
  });

  it("a topic's comments: the next page goes on after the last one seen", async () => {
    const topic = MARKETS.aliceOpen;
    const before = expectOk(await page(`/topics/${topic}/comments`, 2), CommentList).data.map((c) => c.id);
    expect(before).toHaveLength(2);
    const first = expectOk(await page(`/topics/${topic}/comments`, 1), CommentList);

    const preview = await stack.post(`${API}/topics/${topic}/opinion-preview`, KEYS.aliceWrite, { content: 'A front is due.' });
    const token = valid(OpinionPreview, preview.body).confirm_token;
    expect((await stack.post(`${API}/opinions`, KEYS.aliceWrite, { confirm_token: token })).status).toBe(201);
    expect(expectOk(await page(`/topics/${topic}/comments`, 1), CommentList).data[0]?.id).not.toBe(before[0]);

    const second = expectOk(await page(`/topics/${topic}/comments`, 1, first.next_cursor), CommentList);
    expect([...first.data, ...second.data].map((c) => c.id)).toEqual(before);
  });
});
