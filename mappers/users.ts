/** Users: the embedded reference (docs/contract/resources.md#user-reference). The owner's profile is in owner.ts. */
import type { UserRef } from '../src/contract/index.ts';
import type { UserRef as UpstreamUserRef } from '../src/upstream/internal-api.ts';
import { urls, type MapContext } from './context.ts';
import { accountType } from './enums.ts';
import { externalUrl } from './links.ts';

export function mapUserRef(user: UpstreamUserRef, ctx: MapContext): UserRef {
  return {
    id: user.userId,
    handle: user.handle,
    nickname: user.nickName,
    avatar_url: externalUrl(user.avatar, ctx),
    account_type: accountType(user.accountType),
    url: urls.user(ctx, user.handle),
  };
}
