/**
 * The topic reads (src/operations/topics/) against a stub backend answering recorded payloads:
 * how list filters become backend queries, what moderation hides, how a topic id is looked up
 * across the two services, and how cursors and backend refusals reach the caller.
 */
import { describe, expect, it } from 'vitest';
import * as I from '../../../src/upstream/internal-api.ts';
import { getPriceHistory } from '../../../src/operations/topics/get-price-history.ts';
import { getTopic } from '../../../src/operations/topics/get-topic.ts';
import { listTopicOpinions } from '../../../src/operations/topics/list-topic-opinions.ts';
import { listTopics } from '../../../src/operations/topics/list-topics.ts';
import { backendError, codeOf, data, harness, recorded, WEB, type BackendCall } from './harness.ts';

const MARKET = '00000000-0000-4000-8000-00000000f001';
const POLL = '00000000-0000-4000-8000-00000000b001';
const MISSING = '00000000-0000-4000-8000-000000000404';

const markets = () =>
  recorded('prediction.markets.json', I.MarketPage) as { items: { marketId: string; auditState: string }[]; total: number };
const polls = () => recorded('poll.polls.json', I.PollPage);
const marketDetail = () => recorded('prediction.market.lmsr-boosted.json', I.MarketDetail) as { marketId: string; auditState: string };
const pollDetail = () => recorded('poll.detail.json', I.PollDetail);

/** A backend holding one prediction (MARKET) and one poll (POLL); anything else is missing. */
function twoServices(over: { market?: unknown } = {}) {
  return (call: BackendCall) => {
    if (call.path === `/internal/prediction/markets/${MARKET}`) return data(over.market ?? marketDetail());
    if (call.path === `/internal/poll/polls/${POLL}`) return data(pollDetail());
    if (call.path.startsWith('/internal/prediction/markets/')) return backendError(I.UpstreamErrCode.MARKET_NOT_FOUND);
    if (call.path.startsWith('/internal/poll/polls/')) return backendError(I.UpstreamErrCode.POLL_NOT_FOUND);
    throw new Error(`unexpected call ${call.path}`);
  };
}

describe('list_topics', () => {
  it('asks for open, trending, tradable predictions by default, as a public (shared) read', async () => {
    const h = harness(() => data(markets()));
    const body = await h.run(listTopics);
    expect(h.calls).toEqual([
      {
        path: '/internal/prediction/markets',
        query: { state: 'ACTIVE', sort: 'HOT', pricingModel: 'LMSR', offset: 0, limit: 20 },
        shared: true,
        actingUser: undefined,
      },
    ]);
    expect(body.data.map((t: { id: string }) => t.id)).toEqual(markets().items.map((m) => m.marketId));
    expect(body.data[0]).toMatchObject({ type: 'prediction', url: `${WEB}/predictions/${MARKET}` });
    expect(body).toMatchObject({ next_cursor: null, has_more: false });
  });

  it("translates status, sort, mechanism, zone and category into the backend's terms", async () => {
    const h = harness(() => data({ items: [], total: 0, offset: 0 }));
    const category = '00000000-0000-4000-8000-0000000ca701';
    await h.run(listTopics, { status: 'resolved', sort: 'ending_soon', mechanism: 'all', zone: 'sports', category_id: category, limit: 5 });
    await h.run(listTopics, { status: 'closed', sort: 'newest', mechanism: 'v2_share' });
    await h.run(listTopics, { status: 'refunded' });
    expect(h.calls.map((c) => c.query)).toEqual([
      { state: 'SETTLED', sort: 'ENDING', zone: 'sports', categoryId: category, offset: 0, limit: 5 },
      { state: 'EXPIRED', sort: 'NEW', pricingModel: 'SHARE_POOL', offset: 0, limit: 20 },
      { state: 'REFUNDED', sort: 'HOT', pricingModel: 'LMSR', offset: 0, limit: 20 },
    ]);
  });

  it('drops blocked topics but keeps offsets continuous, so the next page starts after them', async () => {
    const page = markets();
    page.items[1]!.auditState = 'BLOCKED';
    page.total = 12;
    const h = harness(() => data(page));
    const first = await h.run(listTopics, { limit: 5 });
    expect(first.data.map((t: { id: string }) => t.id)).not.toContain(page.items[1]!.marketId);
    expect(first.data).toHaveLength(4);
    expect(first.has_more).toBe(true);
    await h.run(listTopics, { limit: 5, cursor: first.next_cursor });
    expect(h.calls[1]?.query).toMatchObject({ offset: 5, limit: 5 });
  });

  it('lists polls from the poll service, open only, trending unless newest', async () => {
    const h = harness(() => data(polls()));
    const body = await h.run(listTopics, { type: 'poll' });
    await h.run(listTopics, { type: 'poll', sort: 'newest' });
    expect(h.calls.map((c) => [c.path, c.query])).toEqual([
      ['/internal/poll/polls', { state: 1, sort: 'HOT', offset: 0, limit: 20 }],
      ['/internal/poll/polls', { state: 1, sort: 'NEW', offset: 0, limit: 20 }],
    ]);
    expect(body.data.every((t: { type: string }) => t.type === 'poll')).toBe(true);
  });

  it.each([
    [{ sort: 'ending_soon' }, 'sort'],
    [{ zone: 'sports' }, 'zone'],
    [{ status: 'closed' }, 'status'],
  ])('refuses prediction-only filters on polls (%o) naming %s, without asking the backend', async (filter, field) => {
    const h = harness(() => data(polls()));
    await expect(h.run(listTopics, { type: 'poll', ...filter })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field } });
    expect(h.calls).toEqual([]);
  });

  it('refuses a cursor it did not issue as INVALID_ARGUMENT on cursor', async () => {
    const h = harness(() => data(markets()));
    await expect(h.run(listTopics, { cursor: 'forged' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'cursor' } });
    expect(h.calls).toEqual([]);
  });
});

describe('get_topic', () => {
  it('finds a prediction at the prediction service first', async () => {
    const h = harness(twoServices());
    const body = await h.run(getTopic, { topic_id: MARKET }, 'ja');
    expect(body).toMatchObject({ id: MARKET, type: 'prediction' });
    expect(h.calls.map((c) => c.path)).toEqual([`/internal/prediction/markets/${MARKET}`]);
  });

  it('falls through to the poll service, or asks it first with type=poll', async () => {
    const h = harness(twoServices());
    expect(await h.run(getTopic, { topic_id: POLL })).toMatchObject({ id: POLL, type: 'poll' });
    expect(h.calls.map((c) => c.path)).toEqual([`/internal/prediction/markets/${POLL}`, `/internal/poll/polls/${POLL}`]);
    const hinted = harness(twoServices());
    await hinted.run(getTopic, { topic_id: POLL, type: 'poll' });
    expect(hinted.calls.map((c) => c.path)).toEqual([`/internal/poll/polls/${POLL}`]);
  });

  it('answers a blocked topic exactly like a missing one: 404 after asking both services', async () => {
    const blocked = harness(twoServices({ market: { ...marketDetail(), auditState: 'BLOCKED' } }));
    const missing = harness(twoServices());
    expect(await codeOf(blocked.run(getTopic, { topic_id: MARKET }))).toBe('NOT_FOUND');
    expect(await codeOf(missing.run(getTopic, { topic_id: MISSING }))).toBe('NOT_FOUND');
    expect(blocked.calls).toHaveLength(2);
    expect(missing.calls).toHaveLength(2);
  });

  it('passes on a backend failure that is not "not found" instead of hiding it as a 404', async () => {
    const h = harness(() => backendError(99999));
    expect(await codeOf(h.run(getTopic, { topic_id: MARKET }))).toBe('INTERNAL');
    expect(h.calls).toHaveLength(1);
  });

  it('answers 404 for a malformed id without any backend call', async () => {
    const h = harness(twoServices());
    expect(await codeOf(h.run(getTopic, { topic_id: 'f001' }))).toBe('NOT_FOUND');
    expect(h.calls).toEqual([]);
  });
});

describe('get_topic_price_history', () => {
  it("asks for the range in the backend's terms and orders each point's options like the topic", async () => {
    const h = harness((call) =>
      call.path.endsWith('/price-history') ? data(recorded('prediction.price-history.json', I.PriceHistory)) : twoServices()(call),
    );
    const body = await h.run(getPriceHistory, { topic_id: MARKET, range: '1w' });
    expect(h.calls.at(-1)).toMatchObject({ path: `/internal/prediction/markets/${MARKET}/price-history`, query: { range: 'WEEK' } });
    const order = (marketDetail() as unknown as { outcomes: { outcomeId: string }[] }).outcomes.map((o) => o.outcomeId);
    expect(body.data).toHaveLength(3);
    for (const point of body.data) expect(point.probabilities.map((o: { option_id: string }) => o.option_id)).toEqual(order);
    // Oldest point first, although the backend sent them out of order.
    const times = body.data.map((p: { timestamp: string }) => p.timestamp);
    expect([...times].sort()).toEqual(times);
  });

  it('has no history for a poll: 404', async () => {
    const h = harness(twoServices());
    expect(await codeOf(h.run(getPriceHistory, { topic_id: POLL }))).toBe('NOT_FOUND');
    expect(h.calls.some((c) => c.path.endsWith('/price-history'))).toBe(false);
  });
});

describe('list_topic_opinions', () => {
  const opinions = () =>
    recorded('prediction.opinions.json', I.OpinionPage) as { items: { opinionId: string; auditState: string }[]; hasMore: boolean };

  it("lists a prediction's top-level opinions without the blocked ones, with a keyset cursor", async () => {
    const h = harness((call) => (call.path.endsWith('/opinions') ? data(opinions()) : twoServices()(call)));
    const body = await h.run(listTopicOpinions, { topic_id: MARKET, limit: 5 });
    const blocked = opinions()
      .items.filter((o) => o.auditState === 'BLOCKED')
      .map((o) => o.opinionId);
    expect(blocked).toHaveLength(1);
    expect(body.data.map((c: { id: string }) => c.id)).not.toContain(blocked[0]);
    expect(body.has_more).toBe(true);
    // The cursor names the last opinion the backend sent; the next page starts before it.
    await h.run(listTopicOpinions, { topic_id: MARKET, limit: 5, cursor: body.next_cursor });
    expect(h.calls.at(-1)?.query).toEqual({ rootOnly: 1, before: opinions().items.at(-1)?.opinionId, limit: 5 });
  });

  it("lists a poll's top-level comments from the poll service", async () => {
    const page = recorded('poll.comments.json', I.PollCommentPage) as { items: { commentId: string; parentId: string | null }[] };
    const h = harness((call) => (call.path.endsWith('/comments') ? data(page) : twoServices()(call)));
    const body = await h.run(listTopicOpinions, { topic_id: POLL });
    expect(h.calls.at(-1)?.path).toBe(`/internal/poll/polls/${POLL}/comments`);
    // The recording holds a reply (9003), which a list of top-level comments leaves out.
    expect(page.items.find((c) => c.commentId === '9003')?.parentId).not.toBeNull();
    expect(body.data.map((c: { id: string }) => c.id)).toEqual(['9001', '9002']);
    expect(body.gated).toBe(false);
    expect(body.next_cursor).toBeNull();
  });

  it("turns the backend refusing a cursor's position into 400 on cursor; without a cursor it stays a fault", async () => {
    const refusing = (call: BackendCall) =>
      call.path.endsWith('/opinions') ? backendError(I.UpstreamErrCode.BAD_REQUEST) : twoServices()(call);
    const h = harness(refusing);
    const cursor = h.cursors.forList('list_topic_opinions').encode({ b: '00000000-0000-4000-8000-00000000e999' });
    await expect(h.run(listTopicOpinions, { topic_id: MARKET, cursor })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'cursor' },
    });
    expect(await codeOf(harness(refusing).run(listTopicOpinions, { topic_id: MARKET }))).toBe('INTERNAL');
  });
});
