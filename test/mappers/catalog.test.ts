import { describe, expect, it } from 'vitest';
import { recordedData } from '../../fixtures/recorded/index.ts';
import { CategoryList, Contest, ZoneList } from '../../src/contract/index.ts';
import * as api from '../../src/upstream/internal-api.ts';
import { mapCategoryList, mapContest, mapZoneList } from '../../mappers/catalog.ts';
import { ctx, expectContract, uuid, WEB } from './helpers.ts';

describe('categories', () => {
  const list = recordedData('prediction.categories.json', api.CategoryList);

  it.each([
    ['en', ['Politics', '體育', 'テック'], ['Elections and policy', '', '']],
    ['vi', ['Politics (vi)', '體育', 'テック'], ['Elections and policy (vi)', '', '']],
    ['ko', ['Politics (ko)', '體育', '테크'], ['Elections and policy (ko)', '', '']],
  ] as const)('in %s', (lang, names, descriptions) => {
    const out = expectContract(CategoryList, mapCategoryList(list, ctx(lang)));
    expect(out.data.map((x) => x.name)).toEqual(names);
    expect(out.data.map((x) => x.description)).toEqual(descriptions);
    expect(out.next_cursor).toBeNull();
    expect(out.data[0]?.url).toBe(`${WEB}/categories/${uuid('ca701')}`);
  });
});

describe('zones', () => {
  it('maps counts, covers and urls', () => {
    const out = expectContract(ZoneList, mapZoneList(recordedData('zones.json', api.ZoneList), ctx()));
    expect(out.data).toEqual([
      {
        slug: 'taipei',
        name: 'Taipei',
        cover_image_url: 'https://cdn.example.com/zones/taipei.jpg',
        members_count: 1200,
        topics_count: 31,
        active_users_count: 87,
        url: `${WEB}/zones/taipei`,
      },
      {
        slug: 'legacy',
        name: 'Legacy',
        cover_image_url: null,
        members_count: 0,
        topics_count: 1,
        active_users_count: 0,
        url: `${WEB}/zones/legacy`,
      },
    ]);
    expect(out).toMatchObject({ next_cursor: null, has_more: false });
  });
});

describe('contests in every status', () => {
  it.each([
    ['contests.c001.upcoming.json', 'c001', 'upcoming'],
    ['contests.c002.open.json', 'c002', 'open'],
    ['contests.c003.pending-reveal.json', 'c003', 'pending_reveal'],
    ['contests.c004.settled.json', 'c004', 'settled'],
    ['contests.c005.voided.json', 'c005', 'voided'],
  ] as const)('%s', (file, id, status) => {
    const out = expectContract(Contest, mapContest(recordedData(file, api.Contest), ctx()));
    expect(out.id).toBe(uuid(id));
    expect(out.status).toBe(status);
    expect(out.url).toBe(`${WEB}/contests/${uuid(id)}`);
    expect('settled_at' in out).toBe(status === 'settled');
    expect('void_reason' in out).toBe(status === 'voided');
  });

  it('settled: settled_at and the correct option', () => {
    const out = mapContest(recordedData('contests.c004.settled.json', api.Contest), ctx());
    expect(out.settled_at).toBe('2026-01-21T00:00:00.000Z');
    expect(out.options.map((o) => o.is_correct)).toEqual([false, true]);
  });

  it('voided: the reason, and no settled_at even though the backend sent one', () => {
    const out = mapContest(recordedData('contests.c005.voided.json', api.Contest), ctx());
    expect(out.void_reason).toBe('The match was cancelled.');
    expect(out).not.toHaveProperty('settled_at');
  });

  it('open: is_correct false while the backend says null', () => {
    const out = mapContest(recordedData('contests.c002.open.json', api.Contest), ctx());
    expect(out.options).toEqual([
      { id: 'c1', title: 'Team A', entries_count: 10, is_correct: false },
      { id: 'c2', title: 'Team B', entries_count: 5, is_correct: false },
    ]);
    expect(out.start_time).toBe('2026-01-03T00:00:00.000Z');
    expect(out.deadline).toBe('2026-01-10T00:00:00.000Z');
  });
});
