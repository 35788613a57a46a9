import { z } from 'zod';
import { mapMyProfile } from '../../../mappers/owner.ts';
import { MyProfile } from '../../contract/users.ts';
import * as platform from '../../upstream/api/platform.api.ts';
import { mapContextOf } from '../map-context.ts';
import { defineOperation } from '../operation.ts';

export const getMyProfile = defineOperation({
  name: 'get_my_profile',
  title: 'Get my profile',
  description:
    'Returns the key owner\'s profile and balances: coins (spent on orders, opinions and backs), gems and rubies ' +
    '(payouts). `sapphires` is a deprecated field, always "0.0000". Use it to check the balance before a preview.',
  scope: 'read',
  kind: 'read',
  localised: false,
  rest: { method: 'GET', path: '/me' },
  mcp: true,
  input: z.object({}),
  output: MyProfile,
  async execute(ctx) {
    return { body: mapMyProfile(await platform.getProfile(ctx.upstream, ctx.caller.userId), mapContextOf(ctx)) };
  },
});
