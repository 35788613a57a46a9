/**
 * End to end over real HTTP against the sandbox: GET /search (SPEC 4.2 rules 3 and 7;
 * DECISIONS.md section 1: `q`, `type`, `mechanism`) and GET /users/{handle}/topics (rule 6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TopicList, UserTopicList } from '../../src/contract/index.ts';
import {
  API,
  clearFaults,
  countOf,
  expectError,
  expectOk,
  itemsOf,
  rawGet,
  startCounting,
  walkPages,
  withQuery,
} from '../helpers/contract-assert.ts';
import { KEYS, MARKETS, POLLS, USERS, startStack, type Stack } from '../helpers/stack.ts';

let stack: Stack;
const KEY: string = KEYS.aliceWrite;

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await stack?.close();
});

const search = async (q: Record<string, string | number | undefined>, headers?: Record<string, string>) =>
  expectOk(await stack.get(withQuery(`${API}/search`, q), KEY, headers), TopicList);

describe('GET /search', () => {
  it('q is required: missing, empty, whitespace-only and over 100 characters are 400 on q', async () => {
    for (const q of ['', '?q=', '?q=%20%20%20', '?q=%09', `?q=${'a'.repeat(101)}`, `?q=${'a'.repeat(101)}&type=prediction`, '?type=poll']) {
      expectError(await stack.get(`${API}/search${q}`, KEY), 400, 'INVALID_ARGUMENT', 'q');
    }
    // 100 characters (after trimming) is fine.
    expect((await search({ q: 'a'.repeat(100) })).data).toEqual([]);
    expect((await search({ q: ` ${'a'.repeat(100)} ` })).data).toEqual([]);
    // Characters, not UTF-16 units: 100 emoji are 100 characters.
    expect((await search({ q: '😀'.repeat(100) })).data).toEqual([]);
    expectError(await stack.get(withQuery(`${API}/search`, { q: '😀'.repeat(101) }), KEY), 400, 'INVALID_ARGUMENT', 'q');
  });

  it('other bad parameters are 400 naming them', async () => {
    expectError(await stack.get(`${API}/search?q=will&type=market`, KEY), 400, 'INVALID_ARGUMENT', 'type');
    expectError(await stack.get(`${API}/search?q=will&mechanism=lmsr`, KEY), 400, 'INVALID_ARGUMENT', 'mechanism');
    expectError(await stack.get(`${API}/search?q=will&type=prediction&limit=0`, KEY), 400, 'INVALID_ARGUMENT', 'limit');
    expectError(await stack.get(`${API}/search?q=will&type=prediction&limit=101`, KEY), 400, 'INVALID_ARGUMENT', 'limit');
    expectError(await stack.get(`${API}/search?q=will&type=prediction&cursor=zzz`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
    expectError(await stack.get(`${API}/search?q=will&q=the`, KEY), 400, 'INVALID_ARGUMENT', 'q');
  });

  it('type=all (the default) is a fixed-size preview mixing both kinds, never paginated', async () => {
    const preview = await search({ q: 'the' });
    expect(await search({ q: 'the', type: 'all' })).toEqual(preview);
    expect(preview.next_cursor).toBeNull();
    expect(preview.has_more).toBe(false);
    const kinds = preview.data.map((t) => t.type);
    expect(kinds.filter((k) => k === 'prediction')).toHaveLength(5);
    expect(kinds.filter((k) => k === 'poll')).toHaveLength(5);
    // Both kinds have more matches than the preview shows.
    expect((await search({ q: 'the', type: 'prediction', limit: 100 })).data.length).toBeGreaterThan(5);
    expect((await search({ q: 'the', type: 'poll', limit: 100 })).data.length).toBeGreaterThan(5);
  });

  it('type=all ignores cursor and limit: same preview, next_cursor null, has_more false', async () => {
    const preview = await search({ q: 'the' });
    const paged = await search({ q: 'the', type: 'prediction', limit: 2 });
    expect(paged.next_cursor).not.toBeNull();
    expect(await search({ q: 'the', limit: 1 })).toEqual(preview);
    expect(await search({ q: 'the', limit: 100 })).toEqual(preview);
    expect(await search({ q: 'the', cursor: paged.next_cursor ?? undefined, limit: 2 })).toEqual(preview);
    expect(await search({ q: 'the', cursor: 'not-a-cursor' })).toEqual(preview);
    // Out of range too: the preview takes no page size at all (docs/contract/reads.md#search).
    expect(await search({ q: 'the', limit: 0 })).toEqual(preview);
    expect(await search({ q: 'the', type: 'all', limit: 500 })).toEqual(preview);
  });

  it('type=prediction paginates: no duplicate, no gap, predictions of v21_lmsr only', async () => {
    const pages = await walkPages(stack, `${API}/search?q=will&type=prediction`, KEY, TopicList, { limit: 4 });
    expect(pages.length).toBeGreaterThan(2);
    const ids = itemsOf(pages).map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const whole = await search({ q: 'will', type: 'prediction', limit: 100 });
    expect(whole.has_more).toBe(false);
    expect(ids).toEqual(whole.data.map((t) => t.id));
    for (const t of whole.data) {
      expect(t.type).toBe('prediction');
      expect(t.type === 'prediction' && t.mechanism).toBe('v21_lmsr');
      expect(t.title.toLowerCase()).toContain('will');
    }
    expect(ids).not.toContain(MARKETS.sharePool);
    // Default page size 20.
    expect((await search({ q: 'will', type: 'prediction' })).data.length).toBe(Math.min(20, ids.length));
  });

  it('type=poll paginates and holds polls only', async () => {
    const pages = await walkPages(stack, `${API}/search?q=the&type=poll`, KEY, TopicList, { limit: 2 });
    const items = itemsOf(pages);
    expect(items.length).toBeGreaterThan(2);
    expect(new Set(items.map((t) => t.id)).size).toBe(items.length);
    for (const t of items) expect(t.type).toBe('poll');
    expect(items.map((t) => t.id)).toEqual((await search({ q: 'the', type: 'poll', limit: 100 })).data.map((t) => t.id));
  });

  it('mechanism: v21_lmsr by default, v2_share and all on request', async () => {
    expect((await search({ q: 'stablecoin', type: 'prediction' })).data).toEqual([]);
    expect((await search({ q: 'stablecoin' })).data.filter((t) => t.type === 'prediction')).toEqual([]);
    const share = await search({ q: 'stablecoin', type: 'prediction', mechanism: 'v2_share' });
    expect(share.data.map((t) => t.id)).toEqual([MARKETS.sharePool]);
    const all = await search({ q: 'stablecoin', type: 'prediction', mechanism: 'all' });
    expect(all.data.map((t) => t.id)).toEqual([MARKETS.sharePool]);
    const v2 = await search({ q: 'will', type: 'prediction', mechanism: 'v2_share', limit: 100 });
    for (const t of v2.data) expect(t.type === 'prediction' && t.mechanism).toBe('v2_share');
  });

  it('case-insensitive; finds titles in other languages; never shows a hidden topic', async () => {
    expect(await search({ q: 'WILL', type: 'prediction', limit: 100 })).toEqual(
      await search({ q: 'will', type: 'prediction', limit: 100 }),
    );
    const typhoon = await search({ q: '颱風', type: 'prediction' });
    expect(typhoon.data.map((t) => t.id)).toEqual([MARKETS.noEnglish]);
    for (const type of ['all', 'prediction', 'poll']) {
      const r = await search({ q: 'neighbour', type, mechanism: 'all' });
      expect(r.data.map((t) => t.id)).not.toContain(MARKETS.hidden);
      expect(r.data.map((t) => t.id)).not.toContain(POLLS.hidden);
    }
  });
});

describe('GET /users/{handle}/topics', () => {
  const topics = async (handle: string, q: Record<string, string | number | undefined> = {}) =>
    expectOk(await stack.get(withQuery(`${API}/users/${handle}/topics`, q), KEY), UserTopicList);

  it("a user's created predictions (default) and polls; all theirs; paginated", async () => {
    const preds = await topics('openpm_official', { limit: 100 });
    expect(preds.hidden).toBe(false);
    expect(preds.data.length).toBeGreaterThan(20);
    for (const t of preds.data) {
      expect(t.type).toBe('prediction');
      expect(t.creator.handle).toBe('openpm_official');
      expect(t).not.toHaveProperty('moderation_note');
    }
    const pages = await walkPages(stack, `${API}/users/openpm_official/topics`, KEY, UserTopicList, { limit: 7 });
    for (const p of pages) expect(p.hidden).toBe(false);
    const ids = itemsOf(pages).map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(preds.data.map((t) => t.id));
    expect((await topics('openpm_official')).data).toHaveLength(20);
    const polls = await topics('openpm_official', { type: 'poll' });
    expect(polls.data.length).toBeGreaterThan(0);
    for (const t of polls.data) expect(t.type).toBe('poll');
  });

  it('a leading @ is tolerated, also url-encoded as %40', async () => {
    const plain = await topics('erin');
    expect(plain.data.map((t) => t.id)).toContain(MARKETS.noEnglish);
    expect(await topics('@erin')).toEqual(plain);
    expect(await topics('%40erin')).toEqual(plain);
    expect(await topics('%40openpm_official', { type: 'poll' })).toEqual(await topics('openpm_official', { type: 'poll' }));
  });

  it('quiet_quinn hides her list: empty with hidden true, whatever the type, limit or @', async () => {
    const hidden = { data: [], next_cursor: null, has_more: false, hidden: true };
    expect(await topics('quiet_quinn')).toEqual(hidden);
    expect(await topics('quiet_quinn', { type: 'poll' })).toEqual(hidden);
    expect(await topics('@quiet_quinn', { limit: 1 })).toEqual(hidden);
    expect(await topics('%40quiet_quinn')).toEqual(hidden);
    // Her topics exist and are public elsewhere: only the list is hidden.
    const detail = await stack.get(`${API}/topics/${POLLS.quinn}`, KEY);
    expect(detail.status).toBe(200);
    expect(detail.body.creator.id).toBe(USERS.quietQuinn);
  });

  it('a user with no topics: empty with hidden false (really empty)', async () => {
    const empty = { data: [], next_cursor: null, has_more: false, hidden: false };
    expect(await topics('bob')).toEqual(empty);
    expect(await topics('bob', { type: 'poll' })).toEqual(empty);
    // alice's only topics are hidden by moderation: others never see them.
    expect(await topics('alice')).toEqual(empty);
    expect(await topics('alice', { type: 'poll' })).toEqual(empty);
  });

  it('an unknown or malformed handle is 404; bad parameters are 400', async () => {
    for (const h of ['nobody_here', '@nobody_here', '%40%40alice', 'a%20b', 'x!', '%F0%9F%98%80', 'a'.repeat(65)]) {
      expectError(await stack.get(`${API}/users/${h}/topics`, KEY), 404, 'NOT_FOUND');
    }
    expectError(await stack.get(`${API}/users/alice/topics?type=all`, KEY), 400, 'INVALID_ARGUMENT', 'type');
    expectError(await stack.get(`${API}/users/alice/topics?limit=0`, KEY), 400, 'INVALID_ARGUMENT', 'limit');
    expectError(await stack.get(`${API}/users/alice/topics?cursor=nope`, KEY), 400, 'INVALID_ARGUMENT', 'cursor');
  });

  it('dot-segment handles (`.`, `..`, encoded or not) are 404 without any backend call', async () => {
    await stack.get(`${API}/me`, KEY); // key verdict cached
    for (const h of ['..', '%2E%2E', '%2e%2e', '.%2E', '.', '%2E', '@..', '%40%2E%2E', '...']) {
      const counter = await startCounting(stack, '/internal/');
      const r = await rawGet(stack, `${API}/users/${h}/topics`, KEY);
      const calls = await countOf(stack, counter);
      await clearFaults(stack);
      expect(r.status, h).toBe(404);
      expect((r.body as { error: { code: string } }).error.code, h).toBe('NOT_FOUND');
      expect(calls, `backend calls for handle ${h}`).toBe(0);
    }
    // A dot inside a handle is still a handle.
    expectError(await stack.get(`${API}/users/a.b/topics`, KEY), 404, 'NOT_FOUND');
  });
});
