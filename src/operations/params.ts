/**
 * Input pieces shared by the operations, under their REST names (docs/contract/reads.md#parameter-names).
 * The same schemas validate REST parameters and MCP tool arguments.
 */
import { z } from 'zod';
import { UuidInput } from '../contract/common.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../pagination/page.ts';

export const Limit = z.int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT).meta({ description: 'Page size.' });

export const Cursor = z.string().min(1).max(512).optional().meta({ description: 'The `next_cursor` of the previous page.' });

export const Paging = { cursor: Cursor, limit: Limit };

export const TopicId = UuidInput.meta({ description: 'Topic id, from list_topics, search_topics or any topic card.' });
export const OpinionId = UuidInput.meta({ description: 'Opinion id, from list_topic_opinions.' });

export const TopicTypeParam = z
  .enum(['prediction', 'poll'])
  .default('prediction')
  .meta({ description: 'Which kind of topic to list: `prediction` (default) or `poll`.' });

/**
 * `cursor` and `limit` on a list that is always complete (categories, zones): accepted, so a
 * generic paginator works unchanged, validated like everywhere else, and ignored.
 */
export const CompleteListParams = {
  cursor: z.string().min(1).max(512).optional().meta({ description: 'Accepted and ignored: this list is always complete.' }),
  limit: z.int().min(1).max(MAX_LIMIT).optional().meta({ description: 'Accepted and ignored: this list is always complete.' }),
};
