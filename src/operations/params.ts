/**
 * Input pieces shared by the operations, under their REST names (DECISIONS.md sections 1, 2).
 * The same schemas validate REST parameters and MCP tool arguments.
 */
import { z } from 'zod';
import { Uuid } from '../contract/common.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../pagination/page.ts';

export const Limit = z
  .int()
  .min(1)
  .max(MAX_LIMIT)
  .default(DEFAULT_LIMIT)
  .meta({ description: `Page size, 1..${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` });

export const Cursor = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .meta({ description: 'Opaque cursor from a previous response\'s `next_cursor`, to fetch the next page.' });

export const Paging = { cursor: Cursor, limit: Limit };

export const TopicId = Uuid.meta({ description: 'Topic id (UUID), from a topic list, search result or `get_topic`.' });
export const OpinionId = Uuid.meta({ description: 'Opinion id (UUID), from `list_topic_opinions` (the `id` of a comment).' });

export const TopicTypeParam = z
  .enum(['prediction', 'poll'])
  .default('prediction')
  .meta({ description: 'Which kind of topic to list: `prediction` (default) or `poll`.' });
