import { z } from 'zod';
import { mapCategoryList } from '../../../mappers/catalog.ts';
import { CategoryList } from '../../contract/catalog.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { CompleteListParams } from '../params.ts';

export const listTopicCategories = defineOperation({
  name: 'list_topic_categories',
  title: 'List topic categories',
  description: 'Lists every category (id, name, description): a category `id` is the `category_id` filter of list_topics. Always complete.',
  scope: 'read',
  kind: 'read',
  localised: true,
  rest: { method: 'GET', path: '/topic-categories' },
  tag: 'Catalog',
  mcp: true,
  input: z.strictObject(CompleteListParams),
  output: CategoryList,
  async execute(ctx) {
    return { body: mapCategoryList(await prediction.listCategories(ctx.upstream), mapContextOf(ctx)) };
  },
});
