/**
 * Pieces shared by the six write operations (docs/contract/writes.md#two-phase-flow, #implementation): issuing a
 * confirm token for a preview, reading back what a token binds, the backend idempotency keys,
 * and the small reads every preview makes (the owner's coin balance, whether a topic is open).
 */
import { z } from 'zod';
import { toBig } from '../../../mappers/decimal.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { ConfirmAction, TokenClaims } from '../../confirm/token.ts';
import type { ExecuteDeps } from '../../confirm/execute-once.ts';
import * as platform from '../../upstream/api/platform.api.ts';
import * as prediction from '../../upstream/api/prediction.api.ts';
import type { Holding, MarketState, OpinionDetail } from '../../upstream/internal-api.ts';
import type { OperationContext } from '../operation.ts';

/** How the execution's idempotency key for the backend is derived: one key per token, forever. */
export function idempotencyKey(kind: 'order' | 'opinion' | 'back', claims: TokenClaims): string {
  return `openpm:${kind}:${claims.jti}`;
}

/** The execute-once collaborators of this request. */
export function confirmDeps(ctx: OperationContext): ExecuteDeps {
  return {
    tokens: ctx.services.confirm.tokens,
    claims: ctx.services.confirm.claims,
    log: ctx.log,
    onOutcome: (action, outcome) => ctx.services.metrics.token(action, outcome),
    ...(ctx.trail !== undefined && { trail: ctx.trail }),
  };
}

/** Issue the token of a preview whose action is possible: `{confirm_token, expires_at}`. */
export function issueToken<P extends Record<string, unknown>>(
  ctx: OperationContext,
  action: ConfirmAction,
  params: P,
): { confirm_token: string; expires_at: string } {
  const { token, claims } = ctx.services.confirm.tokens.issue(action, ctx.caller.userId, ctx.caller.keyId, params);
  ctx.services.metrics.token(action, 'issued');
  return { confirm_token: token, expires_at: new Date(claims.expiresAt).toISOString() };
}

/**
 * The parameters a verified token binds, read with the schema of its action. Only this gateway
 * signs tokens, so a mismatch means a token from an incompatible version: it is not valid.
 */
export function boundParams<S extends z.ZodType>(schema: S, claims: TokenClaims): z.infer<S> {
  const parsed = schema.safeParse(claims.params);
  if (!parsed.success) throw new ApiError('CONFIRM_TOKEN_INVALID');
  return parsed.data;
}

/** A decimal as text, exactly as the backend's float printed (its shortest round-trip form). */
export const DecimalText = z.string().regex(/^\d+(\.\d+)?$/);

/** The exact decimal text of a backend float, for binding into a token. */
export function decimalText(value: number): string {
  return toBig(value).toFixed();
}

/** The owner's coin balance, as the backend's float. */
/**
 * The caller's positions on one market (the backend filters by market; the filter is repeated
 * here so that a backend that ignored it cannot lend another market's position). A user holds
 * at most one position per market, so the first page is all of them.
 */
export async function holdingsOn(ctx: OperationContext, marketId: string): Promise<Holding[]> {
  const page = await prediction.listHoldings(ctx.upstream, ctx.caller.userId, { marketId, offset: 0, limit: 10 });
  return page.items.filter((h) => h.marketId === marketId);
}

/**
 * An opinion that is visible and on the given topic, and active when `active` is asked for;
 * anything else (unknown, deleted, hidden, of another topic) is `notFound`, a 404
 * OPINION_NOT_FOUND: whether it exists elsewhere does not leak.
 */
export async function opinionOnTopic(
  ctx: OperationContext,
  opinionId: string,
  topicId: string,
  opts: { active: boolean; notFound: () => ApiError },
): Promise<OpinionDetail> {
  let opinion: OpinionDetail;
  try {
    opinion = await prediction.getOpinion(ctx.upstream, opinionId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw opts.notFound();
    throw err;
  }
  if (opinion.marketId !== topicId || opinion.auditState === 'BLOCKED' || (opts.active && !opinion.active)) throw opts.notFound();
  return opinion;
}

export async function coinBalance(ctx: OperationContext): Promise<number> {
  const profile = await platform.getProfile(ctx.upstream, ctx.caller.userId);
  return profile.wallet.coin;
}

/**
 * A market accepts orders, opinions and backs only while ACTIVE and before its deadline. The
 * backend already reads an ACTIVE market past its deadline as EXPIRED; the deadline is checked
 * here too so that the rule holds whatever the backend answers.
 */
export function isClosed(state: MarketState, deadline: number, now: number): boolean {
  return state !== 'ACTIVE' || deadline <= now;
}

/** Sentences shared by the tool descriptions (the server's instructions say it at length). */
export const CONFIRM_FLOW_NOTE =
  'Charges nothing. Show the user the whole `summary` and get their explicit confirmation before the executing tool, ' +
  'whose only input is this `confirm_token` (valid 5 minutes); to change anything, preview again.';

export const EXECUTION_NOTE =
  "Call it only after the user explicitly confirmed the preview's summary, with only the `confirm_token` of that preview. ";
