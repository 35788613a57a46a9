/**
 * Calls to the backend's poll service (docs/internal-api.md). None is `shared`: tallies
 * (`votesVisible`) and comment gating (`locked`) follow the acting user.
 */
import type { z } from 'zod';
import type { BoundUpstream } from '../bound.ts';
import * as I from '../internal-api.ts';

const enc = encodeURIComponent;

export const listPolls = (
  up: BoundUpstream,
  q: { state?: I.PollState; sort?: z.infer<typeof I.PollSort>; categoryId?: string; offset: number; limit: number },
) => up.call({ path: '/internal/poll/polls', query: { ...q }, schema: I.PollPage });

export const getPoll = (up: BoundUpstream, pollId: string) =>
  up.call({ path: `/internal/poll/polls/${enc(pollId)}`, schema: I.PollDetail });

export const listPollComments = (up: BoundUpstream, pollId: string, q: { before?: string; limit: number }) =>
  up.call({
    path: `/internal/poll/polls/${enc(pollId)}/comments`,
    query: { rootOnly: 1, before: q.before, limit: q.limit },
    schema: I.PollCommentPage,
  });
