import { describe, expect, it } from 'vitest';
import { recordedData } from '../../fixtures/recorded/index.ts';
import { CommentList } from '../../src/contract/index.ts';
import * as api from '../../src/upstream/internal-api.ts';
import { mapPollCommentList, mapPredictionCommentList } from '../../mappers/comments.ts';
import { ctx, expectContract, uuid, WEB } from './helpers.ts';

const M1 = uuid('f001');
const P1 = uuid('b001');

describe('prediction opinions', () => {
  const page = recordedData('prediction.opinions.json', api.OpinionPage);

  it('keep top-level, unblocked opinions only', () => {
    const list = expectContract(CommentList, mapPredictionCommentList(page, ctx(), 'next'));
    expect(page.items).toHaveLength(5);
    expect(list.data.map((x) => x.id)).toEqual([uuid('e001'), uuid('e002'), uuid('e003')]);
    expect(list).toMatchObject({ gated: false, next_cursor: 'next', has_more: true });
  });

  it('map the author position, creator flag, url and localised content', () => {
    const [first, second, third] = mapPredictionCommentList(page, ctx('zh-CN'), null).data;
    expect(first).toMatchObject({
      content: '会下雨',
      author_position: { label: 'holder', option_name: 'Yes (简)' },
      is_creator_comment: false,
      reply_count: 2,
      like_count: 1,
      created_at: '2026-01-01T01:00:00.000Z',
      url: `${WEB}/predictions/${M1}/opinions/${uuid('e001')}`,
    });
    expect(first?.author.handle).toBe('bob');
    expect(first?.author.avatar_url).toBeNull();
    expect(second).toMatchObject({ is_creator_comment: true, author_position: { label: 'sold', option_name: '' } });
    expect(third?.author_position).toBeNull();
    expect(third?.content).toBe(''); // empty locale map
  });

  it('fall back from a missing language to English, then to what exists', () => {
    const [first] = mapPredictionCommentList(page, ctx('th'), null).data;
    expect(first?.content).toBe('會下雨'); // no th, no en: zh_TW comes first in the fixed order
  });
});

describe('poll comments', () => {
  it('unlocked: top-level only, with the author vote', () => {
    const page = recordedData('poll.comments.json', api.PollCommentPage);
    const list = expectContract(CommentList, mapPollCommentList(page, P1, ctx('ko'), null));
    expect(list).toMatchObject({ gated: false, next_cursor: null, has_more: false });
    expect(list.data.map((x) => x.id)).toEqual(['9001', '9002']);
    expect(list.data[0]).toMatchObject({
      is_creator_comment: true,
      author_position: { label: 'voter', option_name: 'North (ko)' },
      url: `${WEB}/polls/${P1}/comments/9001`,
    });
    expect(list.data[1]).toMatchObject({ content: '남쪽', author_position: null });
  });

  it('vote-gated: empty and final, whatever came with it', () => {
    const page = recordedData('poll.comments.locked.json', api.PollCommentPage);
    expect(page.items).toHaveLength(1);
    const list = expectContract(CommentList, mapPollCommentList(page, uuid('b002'), ctx(), 'ignored'));
    expect(list).toEqual({ data: [], next_cursor: null, has_more: false, gated: true });
  });
});
