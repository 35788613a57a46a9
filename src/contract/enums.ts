/**
 * Enumerated values of the open contract: lowercase strings (docs/contract/resources.md#vocabulary). The mappers in
 * mappers/enums.ts translate the backend's words into these; docs/conventions.md lists both.
 */
import { z } from 'zod';

export const TopicType = z.enum(['prediction', 'poll']).meta({ description: 'Kind of topic.' });
export type TopicType = z.infer<typeof TopicType>;

export const TopicStatus = z.enum(['open', 'closed', 'resolving', 'resolved', 'refunded']).meta({
  description:
    '`open` accepts activity; `closed` is past its deadline, not yet settled; `resolving` means the outcome is being determined (predictions only); `resolved` is settled; `refunded` is refunded.',
});
export type TopicStatus = z.infer<typeof TopicStatus>;

export const ModerationStatus = z.enum(['approved', 'under_review', 'hidden']).meta({
  description:
    "Moderation verdict. Public listings show only `approved` and `under_review` topics; `hidden` appears only on the owner's own topics.",
});
export type ModerationStatus = z.infer<typeof ModerationStatus>;

export const Mechanism = z.enum(['v2_share', 'v21_lmsr']).meta({
  description: 'Trading mechanism: `v21_lmsr` is live and tradable; `v2_share` is legacy, readable only.',
});
export type Mechanism = z.infer<typeof Mechanism>;

export const AccountType = z.enum(['user', 'official', 'bot']).meta({
  description: '`user` is an ordinary account, `official` an account run by the platform, `bot` an automated account.',
});
export type AccountType = z.infer<typeof AccountType>;

export const ContestStatus = z.enum(['upcoming', 'open', 'pending_reveal', 'settled', 'voided']).meta({
  description:
    'Contest lifecycle: `upcoming`, `open` for entries, `pending_reveal` until the answer is revealed, then `settled` or `voided`.',
});
export type ContestStatus = z.infer<typeof ContestStatus>;

export const RefType = z.enum(['original', 'forward']).meta({
  description: '`original` when the topic credits its own source, `forward` when it forwards another publication.',
});
export type RefType = z.infer<typeof RefType>;

export const AuthorPositionLabel = z.enum(['holder', 'sold', 'creator', 'voter']).meta({
  description:
    "`holder`: holds a position on the option; `sold`: held one and sold it in the app; `creator`: the topic creator's side; `voter`: voted for the option (polls).",
});
export type AuthorPositionLabel = z.infer<typeof AuthorPositionLabel>;

export const PositionStatus = z.enum(['pending', 'won', 'lost', 'refunded', 'sold']).meta({
  description:
    '`pending` until the topic settles; `won` / `lost` once settled; `refunded` when the topic was refunded; `sold` when sold in the app (final).',
});
export type PositionStatus = z.infer<typeof PositionStatus>;

export const LedgerCurrency = z.enum(['coin', 'ruby']).meta({ description: 'Which balance moved.' });
export type LedgerCurrency = z.infer<typeof LedgerCurrency>;

export const LedgerEntryType = z
  .enum([
    'signup_bonus',
    'daily_bonus',
    'order_stake',
    'order_refund',
    'opinion_fee',
    'opinion_back',
    'poll_vote',
    'poll_payout',
    'settlement_payout',
    'position_sale',
    'opinion_payback',
    'sapphire_conversion',
  ])
  .meta({
    description:
      'What moved the balance. Ruby movements are `settlement_payout`, `position_sale`, `opinion_payback` and the one-off `sapphire_conversion`.',
  });
export type LedgerEntryType = z.infer<typeof LedgerEntryType>;
