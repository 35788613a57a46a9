import { z } from 'zod';
import { mapZoneList } from '../../../mappers/catalog.ts';
import { ZoneList } from '../../contract/catalog.ts';
import * as platform from '../../upstream/api/platform.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';
import { CompleteListParams } from '../params.ts';

export const listZones = defineOperation({
  name: 'list_zones',
  title: 'List zones',
  description: 'Lists every zone (community). A zone `slug` filters predictions with `zone` on GET /topics. Complete list, no pagination.',
  scope: 'read',
  kind: 'read',
  localised: false,
  rest: { method: 'GET', path: '/zones' },
  tag: 'Catalog',
  mcp: false,
  input: z.strictObject(CompleteListParams),
  output: ZoneList,
  async execute(ctx) {
    return { body: mapZoneList(await platform.listZones(ctx.upstream), mapContextOf(ctx)) };
  },
});
