/**
 * The catalog reads (src/operations/catalog/): categories and zones, always complete lists, and
 * one contest, against a stub backend answering recorded payloads.
 */
import { describe, expect, it } from 'vitest';
import { getContest } from '../../../src/operations/catalog/get-contest.ts';
import { listTopicCategories } from '../../../src/operations/catalog/list-topic-categories.ts';
import { listZones } from '../../../src/operations/catalog/list-zones.ts';
import * as I from '../../../src/upstream/internal-api.ts';
import { backendError, codeOf, data, harness, recorded, WEB } from './harness.ts';

const categories = () => recorded('prediction.categories.json', I.CategoryList);
const contest = (n: string) => `00000000-0000-4000-8000-00000000c00${n}`;

describe('list_topic_categories', () => {
  it("is one public call, the complete list in the caller's language", async () => {
    const h = harness(() => data(categories()));
    const body = await h.run(listTopicCategories, {}, 'ja');
    expect(h.calls).toEqual([{ path: '/internal/prediction/categories', query: {}, shared: true, actingUser: undefined }]);
    expect(body.next_cursor).toBeNull();
    expect(body.has_more).toBe(false);
    expect(body.data[0]).toMatchObject({
      id: '00000000-0000-4000-8000-0000000ca701',
      name: 'Politics (ja)',
      url: `${WEB}/categories/00000000-0000-4000-8000-0000000ca701`,
    });
  });

  it('accepts and ignores a valid cursor and limit, but still refuses invalid ones', async () => {
    const h = harness(() => data(categories()));
    const all = await h.run(listTopicCategories);
    const paged = await h.run(listTopicCategories, { cursor: 'anything', limit: 1 });
    expect(paged).toEqual(all);
    expect(h.calls[1]?.query).toEqual({});
    await expect(h.run(listTopicCategories, { limit: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'limit' } });
  });
});

describe('list_zones', () => {
  it('lists every zone, with a dropped cover link as null', async () => {
    const h = harness(() => data(recorded('zones.json', I.ZoneList)));
    const body = await h.run(listZones);
    expect(h.calls.map((c) => c.path)).toEqual(['/internal/zones']);
    expect(body.data.map((z: { slug: string }) => z.slug)).toEqual(['taipei', 'legacy']);
    expect(body.data[1].cover_image_url).toBeNull();
    expect(body.data[0].url).toBe(`${WEB}/zones/taipei`);
  });

  it('answers INTERNAL when the backend fails, never its message', async () => {
    const h = harness(() => backendError(99999));
    expect(await codeOf(h.run(listZones))).toBe('INTERNAL');
  });
});

describe('get_contest', () => {
  it('asks for the contest by id and shows settlement and voiding only when they apply', async () => {
    const answers: Record<string, string> = {
      [contest('4')]: 'contests.c004.settled.json',
      [contest('5')]: 'contests.c005.voided.json',
      [contest('2')]: 'contests.c002.open.json',
    };
    const h = harness((call) => data(recorded(answers[call.path.split('/').at(-1) ?? ''] ?? 'missing', I.Contest)));
    const settled = await h.run(getContest, { contest_id: contest('4') });
    const voided = await h.run(getContest, { contest_id: contest('5') });
    const open = await h.run(getContest, { contest_id: contest('2') });
    expect(h.calls.map((c) => c.path)).toEqual([4, 5, 2].map((n) => `/internal/contests/${contest(String(n))}`));
    expect(settled).toMatchObject({ status: 'settled', settled_at: expect.any(String) });
    expect(settled).not.toHaveProperty('void_reason');
    expect(voided.status).toBe('voided');
    expect(voided).not.toHaveProperty('settled_at');
    expect(open.status).toBe('open');
    expect(open).not.toHaveProperty('settled_at');
  });

  it('answers 404 for an unknown contest, and for a malformed id without asking', async () => {
    const h = harness(() => backendError(I.UpstreamErrCode.CONTEST_NOT_FOUND));
    expect(await codeOf(h.run(getContest, { contest_id: contest('9') }))).toBe('NOT_FOUND');
    expect(await codeOf(h.run(getContest, { contest_id: 'c009' }))).toBe('NOT_FOUND');
    expect(h.calls).toHaveLength(1);
  });
});
