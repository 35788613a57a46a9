import { z } from 'zod';
import { mapCategoryList } from '../../../mappers/catalog.ts';
import { CategoryList } from '../../contract/catalog.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';

export const listTopicCategories = defineOperation({
  name: 'list_topic_categories',
  title: 'List topic categories',
  description:
    'Lists every category channel (id, localised name and description). Use a category `id` as `category_id` ' +
    'with list_topics to browse one category. The list is complete: it never paginates.',
  scope: 'read',
  kind: 'read',
  localised: true,
  rest: { method: 'GET', path: '/topic-categories' },
  mcp: true,
  input: z.object({}),
  output: CategoryList,
  async execute(ctx) {
    return { body: mapCategoryList(await prediction.listCategories(ctx.upstream), mapContextOf(ctx)) };
  },
});
