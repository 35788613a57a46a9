/**
 * search_topics (src/operations/search/search-topics.ts) against a stub backend: the `type=all`
 * preview (both kinds interleaved, no pagination, paging parameters ignored whatever their
 * values) and the paginated single-kind search, with moderation applied to both.
 */
import { describe, expect, it } from 'vitest';
import { SEARCH_PREVIEW_PER_KIND, searchTopics } from '../../../src/operations/search/search-topics.ts';
import * as I from '../../../src/upstream/internal-api.ts';
import { data, harness, recorded, type BackendCall } from './harness.ts';

type Item = { kind: 'MARKET' | 'POLL'; market?: { marketId: string; auditState: string }; poll?: { pollId: string; auditState: string } };
const markets = () => recorded('search.markets.json', I.SearchPage) as { items: Item[]; total: number; offset: number };
const polls = () => recorded('search.polls.json', I.SearchPage) as { items: Item[]; total: number; offset: number };
const idOf = (i: Item) => i.market?.marketId ?? i.poll?.pollId;

function searchBackend(call: BackendCall) {
  return data(call.query['kind'] === 'POLL' ? polls() : markets());
}

describe('search_topics, type=all', () => {
  it('asks both kinds for a fixed-size preview and interleaves them, prediction first', async () => {
    const h = harness(searchBackend);
    const body = await h.run(searchTopics, { q: '  rain ' });
    expect(h.calls.map((c) => c.query)).toEqual([
      { kw: 'rain', kind: 'MARKET', pricingModel: 'LMSR', offset: 0, limit: SEARCH_PREVIEW_PER_KIND },
      { kw: 'rain', kind: 'POLL', pricingModel: 'LMSR', offset: 0, limit: SEARCH_PREVIEW_PER_KIND },
    ]);
    const m = markets().items.map(idOf);
    const p = polls().items.map(idOf);
    expect(body.data.map((t: { id: string }) => t.id)).toEqual([m[0], p[0], m[1], p[1]]);
    expect(body.data.map((t: { type: string }) => t.type)).toEqual(['prediction', 'poll', 'prediction', 'poll']);
    expect(body).toMatchObject({ next_cursor: null, has_more: false });
  });

  it('ignores cursor and limit, even values that would be refused elsewhere', async () => {
    const h = harness(searchBackend);
    await h.run(searchTopics, { q: 'rain', cursor: 'not-a-cursor', limit: 5000 });
    expect(h.calls.map((c) => c.query['limit'])).toEqual([SEARCH_PREVIEW_PER_KIND, SEARCH_PREVIEW_PER_KIND]);
  });

  it('leaves blocked topics out of the preview', async () => {
    const m = markets();
    m.items[0]!.market!.auditState = 'BLOCKED';
    const h = harness((call) => data(call.query['kind'] === 'POLL' ? polls() : m));
    const body = await h.run(searchTopics, { q: 'rain' });
    expect(body.data.map((t: { id: string }) => t.id)).not.toContain(idOf(m.items[0]!));
    expect(body.data).toHaveLength(3);
  });
});

describe('search_topics, one kind', () => {
  it("pages through one kind from the cursor's offset, with the mechanism filter in the backend's terms", async () => {
    const h = harness((call) => data({ ...markets(), total: 9, offset: call.query['offset'] }));
    const first = await h.run(searchTopics, { q: 'rain', type: 'prediction', limit: 2, mechanism: 'all' });
    expect(first.has_more).toBe(true);
    await h.run(searchTopics, { q: 'rain', type: 'prediction', limit: 2, mechanism: 'all', cursor: first.next_cursor });
    await h.run(searchTopics, { q: 'rain', type: 'poll', mechanism: 'v2_share' });
    expect(h.calls.map((c) => c.query)).toEqual([
      { kw: 'rain', kind: 'MARKET', offset: 0, limit: 2 },
      { kw: 'rain', kind: 'MARKET', offset: 2, limit: 2 },
      { kw: 'rain', kind: 'POLL', pricingModel: 'SHARE_POOL', offset: 0, limit: 20 },
    ]);
  });

  it('refuses a cursor here, where it means something, when it is not one the gateway issued', async () => {
    const h = harness(searchBackend);
    await expect(h.run(searchTopics, { q: 'rain', type: 'poll', cursor: 'not-a-cursor' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'cursor' },
    });
    expect(h.calls).toEqual([]);
  });
});

describe('search_topics input', () => {
  it.each([[{}], [{ q: '   ' }], [{ q: 'x'.repeat(101) }]])('refuses a missing, blank or overlong q (%o) without asking', async (raw) => {
    const h = harness(searchBackend);
    await expect(h.run(searchTopics, raw)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'q' } });
    expect(h.calls).toEqual([]);
  });
});
