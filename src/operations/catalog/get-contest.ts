import { z } from 'zod';
import { mapContest } from '../../../mappers/catalog.ts';
import { Contest } from '../../contract/catalog.ts';
import { UuidInput } from '../../contract/common.ts';
import * as platform from '../../upstream/api/platform.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';

export const getContest = defineOperation({
  name: 'get_contest',
  title: 'Get a contest',
  description: 'Returns one contest with its options, entry counts and status; `settled_at` once settled, `void_reason` when voided.',
  scope: 'read',
  kind: 'read',
  localised: false,
  rest: { method: 'GET', path: '/contests/{contest_id}' },
  tag: 'Catalog',
  mcp: false,
  input: z.strictObject({ contest_id: UuidInput.meta({ description: 'Contest id (UUID).' }) }),
  output: Contest,
  async execute(ctx, input) {
    return { body: mapContest(await platform.getContest(ctx.upstream, input.contest_id), mapContextOf(ctx)) };
  },
});
