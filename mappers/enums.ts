/**
 * The backend's words for states and kinds → the contract's lowercase values. Every table is
 * total over the backend's (zod-validated) enum, so a new upstream value fails validation
 * upstream instead of leaking out here.
 */
import type {
  AccountType,
  ContestStatus,
  LedgerEntryType,
  Mechanism,
  ModerationStatus,
  RefType,
  TopicStatus,
} from '../src/contract/index.ts';
import type {
  AuditState,
  Contest as UpstreamContest,
  LedgerEntry as UpstreamLedgerEntry,
  MarketState,
  PollState,
  PricingModel,
} from '../src/upstream/internal-api.ts';

const MARKET_STATUS: Readonly<Record<MarketState, TopicStatus>> = {
  ACTIVE: 'open',
  EXPIRED: 'closed',
  JUDGING: 'resolving',
  SETTLED: 'resolved',
  REFUNDED: 'refunded',
};
export function marketStatus(state: MarketState): TopicStatus {
  return MARKET_STATUS[state];
}

type PollStatus = Exclude<TopicStatus, 'resolving'>;
const POLL_STATUS: Readonly<Record<PollState, PollStatus>> = { 1: 'open', 2: 'closed', 3: 'resolved', 4: 'refunded' };
export function pollStatus(state: PollState): PollStatus {
  return POLL_STATUS[state];
}

const MODERATION: Readonly<Record<AuditState, ModerationStatus>> = {
  PASS: 'approved',
  REVIEWING: 'under_review',
  BLOCKED: 'hidden',
};
export function moderationStatus(state: AuditState): ModerationStatus {
  return MODERATION[state];
}

const MECHANISM: Readonly<Record<PricingModel, Mechanism>> = { SHARE_POOL: 'v2_share', LMSR: 'v21_lmsr' };
export function mechanism(model: PricingModel): Mechanism {
  return MECHANISM[model];
}

/**
 * App account types are integers: 1 user, 2 official, 3 bot. The backend schema admits any
 * integer; an unknown one is shown as an ordinary `user`, the type that claims nothing.
 */
export function accountType(code: number): AccountType {
  if (code === 2) return 'official';
  if (code === 3) return 'bot';
  return 'user';
}

const CONTEST_STATUS: Readonly<Record<UpstreamContest['phase'], ContestStatus>> = {
  UPCOMING: 'upcoming',
  OPEN: 'open',
  REVEAL_PENDING: 'pending_reveal',
  SETTLED: 'settled',
  VOIDED: 'voided',
};
export function contestStatus(phase: UpstreamContest['phase']): ContestStatus {
  return CONTEST_STATUS[phase];
}

/** Ledger business types are the same words, lowercased (`SAPPHIRE_CONVERSION` → `sapphire_conversion`). */
export function ledgerEntryType(bizType: UpstreamLedgerEntry['bizType']): LedgerEntryType {
  return bizType.toLowerCase() as Lowercase<typeof bizType>;
}

export function refType(kind: 'ORIGINAL' | 'FORWARD'): RefType {
  return kind === 'ORIGINAL' ? 'original' : 'forward';
}
