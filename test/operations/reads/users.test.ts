/**
 * list_user_topics (src/operations/users/list-user-topics.ts) against a stub backend: handles
 * as path segments (a leading `@` tolerated, anything that could walk to another route refused
 * as not found), the hidden list, paging and the unknown user.
 */
import { describe, expect, it } from 'vitest';
import { listUserTopics } from '../../../src/operations/users/list-user-topics.ts';
import * as I from '../../../src/upstream/internal-api.ts';
import { ALICE, backendError, codeOf, data, harness, recorded, type BackendCall } from './harness.ts';

function usersBackend(call: BackendCall) {
  if (call.path === '/internal/users/by-handle/bob/created') return data(recorded('users.created.by-handle.json', I.CreatedPage));
  if (call.path === '/internal/users/by-handle/quiet_quinn/created')
    return data(recorded('users.created.by-handle.hidden.json', I.CreatedPage));
  return backendError(I.UpstreamErrCode.USER_NOT_FOUND);
}

describe('list_user_topics', () => {
  it("reads the user's predictions by handle, tolerating a leading @, with a cursor to the next page", async () => {
    const h = harness(usersBackend);
    const body = await h.run(listUserTopics, { handle: '@bob', limit: 2 });
    expect(h.calls).toEqual([
      { path: '/internal/users/by-handle/bob/created', query: { kind: 'MARKET', offset: 0, limit: 2 }, shared: false, actingUser: ALICE },
    ]);
    expect(body.data).toHaveLength(2);
    expect(body).toMatchObject({ has_more: true, hidden: false });
    expect(body.data[0]).not.toHaveProperty('moderation_note');
    await h.run(listUserTopics, { handle: 'bob', type: 'poll', cursor: body.next_cursor });
    expect(h.calls[1]?.query).toEqual({ kind: 'POLL', offset: 2, limit: 20 });
  });

  it('answers an empty list marked hidden when the user hides it', async () => {
    const h = harness(usersBackend);
    expect(await h.run(listUserTopics, { handle: 'quiet_quinn' })).toEqual({ data: [], next_cursor: null, has_more: false, hidden: true });
  });

  it('answers 404 for an unknown user', async () => {
    const h = harness(usersBackend);
    expect(await codeOf(h.run(listUserTopics, { handle: 'nobody' }))).toBe('NOT_FOUND');
  });

  it.each(['.', '..', '@..', 'a/b', 'bob%2F..', '', 'x'.repeat(65)])(
    'answers 404 for a handle that cannot exist (%j) without asking',
    async (handle) => {
      const h = harness(usersBackend);
      expect(await codeOf(h.run(listUserTopics, { handle }))).toBe('NOT_FOUND');
      expect(h.calls).toEqual([]);
    },
  );
});
