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
    "The key owner's profile and balances: coins (spent on orders, opinions, backs), gems and rubies (payouts; `sapphires` is a deprecated alias, always 0). " +
    'Check the balance before a preview.',
  scope: 'read',
  kind: 'read',
  localised: false,
  rest: { method: 'GET', path: '/me' },
  tag: 'Account',
  mcp: true,
  input: z.strictObject({}),
  output: MyProfile,
  async execute(ctx) {
    return { body: mapMyProfile(await platform.getProfile(ctx.upstream, ctx.caller.userId), mapContextOf(ctx)) };
  },
});
