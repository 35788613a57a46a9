/**
 * GET /users/{handle}/topics (docs/contract/reads.md#user-topics): a leading `@` is tolerated; a list the user
 * hides is empty with `hidden: true`; an unknown handle is 404.
 */
import { z } from 'zod';
import { mapUserTopicList } from '../../../mappers/topics.ts';
import { UserTopicList } from '../../contract/topics.ts';
import { nextOffsetCursor } from '../../pagination/page.ts';
import * as platform from '../../upstream/api/platform.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { Paging, TopicTypeParam } from '../params.ts';

export const listUserTopics = defineOperation({
  name: 'list_user_topics',
  title: 'List the topics a user created',
  description:
    'Topics created by a user, one kind at a time (`type`, default prediction). When the user hides the list, `data` is empty and `hidden` is true.',
  scope: 'read',
  kind: 'read',
  localised: true,
  rest: { method: 'GET', path: '/users/{handle}/topics' },
  tag: 'Users',
  mcp: false,
  input: z.strictObject({
    handle: z
      .string()
      .transform((h) => h.replace(/^@/, ''))
      // Not `.` or `..` alone: as a path segment upstream they would walk to another route.
      .pipe(z.string().regex(/^(?!\.+$)[A-Za-z0-9_.]{1,64}$/))
      .meta({ description: "The user's handle, without `@` (a leading `@` is tolerated)." }),
    type: TopicTypeParam,
    ...Paging,
  }),
  output: UserTopicList,
  async execute(ctx, input) {
    const offset = ctx.cursors.offsetOf(input.cursor);
    const page = await platform.listCreatedByHandle(ctx.upstream, input.handle, {
      kind: input.type === 'prediction' ? 'MARKET' : 'POLL',
      offset,
      limit: input.limit,
    });
    return { body: mapUserTopicList(page, mapContextOf(ctx), nextOffsetCursor(ctx.cursors, page, offset)) };
  },
});
