/** Top-level comments (opinions) of a topic (docs/contract/resources.md#comment; MCP tool `list_topic_opinions`). */
import { z } from 'zod';
import { Count, ListOf, ResourceUrl, Timestamp } from './common.ts';
import { AuthorPositionLabel } from './enums.ts';
import { UserRef } from './users.ts';

export const AuthorPosition = z
  .strictObject({
    label: AuthorPositionLabel,
    option_name: z.string().meta({ description: 'The option concerned, localised.' }),
  })
  .meta({ description: "The author's side on the topic when they published." });
export type AuthorPosition = z.infer<typeof AuthorPosition>;

export const Comment = z
  .strictObject({
    id: z.string().min(1).meta({ description: 'Comment id (a UUID on predictions, a numeric string on polls).' }),
    author: UserRef,
    content: z.string().meta({ description: 'Text, localised where the author provided translations.' }),
    created_at: Timestamp,
    like_count: Count,
    reply_count: Count.meta({ description: 'Replies; they are not inlined.' }),
    is_creator_comment: z.boolean().meta({ description: "Written by the topic's creator." }),
    author_position: AuthorPosition.nullable().meta({ description: "The author's position; null when not public or none." }),
    url: ResourceUrl,
  })
  .meta({ description: 'A top-level comment (opinion) of a topic.' });
export type Comment = z.infer<typeof Comment>;

export const CommentList = z
  .strictObject({
    ...ListOf(Comment).shape,
    gated: z.boolean().meta({
      description: "True when the poll's comments are hidden until the viewer votes; `data` is then empty.",
    }),
  })
  .meta({ description: 'A page of top-level comments.' });
export type CommentList = z.infer<typeof CommentList>;
