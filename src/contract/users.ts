/**
 * People: the embedded user reference (docs/contract/resources.md#user-reference) and the key
 * owner's profile (docs/contract/resources.md#my-profile).
 */
import { z } from 'zod';
import { retiredFields } from './aliases.ts';
import { Dec4, ResourceUrl, Timestamp, Url, Uuid } from './common.ts';
import { AccountType } from './enums.ts';

/** Embedded wherever a user appears. Deliberately carries no financial fields. */
export const UserRef = z
  .strictObject({
    id: Uuid,
    handle: z.string().min(1).meta({ description: 'Public handle, without `@`.' }),
    nickname: z.string().meta({ description: 'Display name (may be empty).' }),
    avatar_url: Url.nullable().meta({ description: 'Avatar image; null when the user has none.' }),
    account_type: AccountType,
    url: ResourceUrl,
  })
  .meta({ description: 'A user, as embedded in other resources.' });
export type UserRef = z.infer<typeof UserRef>;

export const MyProfile = z
  .strictObject({
    ...UserRef.shape,
    coins: Dec4.meta({ description: 'Coin balance.' }),
    gems: Dec4.meta({ description: 'Gem balance.' }),
    rubies: Dec4.meta({ description: 'Ruby balance (sapphires were merged into it 1:1).' }),
    ...retiredFields(),
    created_at: Timestamp.meta({ description: 'When the account was registered.' }),
  })
  .meta({ description: "The key owner's profile and balances." });
export type MyProfile = z.infer<typeof MyProfile>;
