/**
 * One mapping from the backend's numeric error codes to the open contract's closed code set
 * (docs/internal-api.md, "Error codes"). Anything unknown is INTERNAL; the upstream's message
 * is never passed on.
 */
import { ApiError } from '../errors/api-error.ts';
import type { ErrorCode } from '../errors/codes.ts';
import { UpstreamErrCode as E } from './internal-api.ts';

const TABLE: ReadonlyMap<number, ErrorCode> = new Map<number, ErrorCode>([
  [E.NOT_FOUND, 'NOT_FOUND'],
  // The authenticator reads this one itself; mapped so that it is never taken for a backend fault.
  [E.API_KEY_NOT_FOUND, 'UNAUTHORIZED'],
  [E.MARKET_NOT_FOUND, 'NOT_FOUND'],
  [E.POLL_NOT_FOUND, 'NOT_FOUND'],
  [E.USER_NOT_FOUND, 'NOT_FOUND'],
  [E.CONTEST_NOT_FOUND, 'NOT_FOUND'],
  [E.MARKET_NOT_ACTIVE, 'TOPIC_CLOSED'],
  [E.MARKET_ALREADY_ORDERED, 'TOPIC_ALREADY_STAKED'],
  [E.COINS_INSUFFICIENT, 'INSUFFICIENT_BALANCE'],
  [E.STAKE_OUT_OF_RANGE, 'STAKE_OUT_OF_RANGE'],
  [E.PRICING_MODEL_UNSUPPORTED, 'MECHANISM_UNSUPPORTED'],
  [E.SLIPPAGE_EXCEEDED, 'TOPIC_QUOTE_EXPIRED'],
  [E.OUTCOME_INVALID, 'TOPIC_QUOTE_INVALID'],
  [E.IDEMPOTENCY_KEY_REUSED, 'RETRY_IDEMPOTENCY_KEY'],
  [E.IDEMPOTENCY_IN_FLIGHT, 'RETRY_IDEMPOTENCY_KEY'],
  [E.OPINION_NOT_FOUND, 'OPINION_NOT_FOUND'],
  [E.OPINION_INACTIVE, 'OPINION_NOT_FOUND'],
  [E.OPINION_ALREADY_BACKED, 'OPINION_ALREADY_BACKED'],
  [E.OPINION_RELAY_FULL, 'OPINION_BACK_FULL'],
  [E.OPINION_RELAY_MOVED, 'OPINION_BACK_PRICE_MOVED'],
  [E.OPINION_RELAY_BROKEN, 'OPINION_BACK_CHAIN_BROKEN'],
  [E.CONTENT_MODERATED, 'CONTENT_MODERATED'],
  [E.CONTENT_INVALID, 'CONTENT_INVALID'],
  [E.OPINION_SIDE_INVALID, 'OPINION_SIDE_INVALID'],
  [E.OPINION_SIDE_REQUIRED, 'OPINION_SIDE_REQUIRED'],
  [E.OPINION_MARKET_CLOSED, 'OPINION_TOPIC_CLOSED'],
  [E.OPINION_BUSY, 'OPINION_BACK_RETRY'],
  [E.OPINION_MARKET_HIDDEN, 'OPINION_TOPIC_HIDDEN'],
  [E.USER_PUNISHED, 'USER_PUNISHED'],
]);

/** Seconds a caller should wait before retrying the codes that invite a retry. */
const RETRY_AFTER: Partial<Record<ErrorCode, number>> = { OPINION_BACK_RETRY: 2, RETRY_IDEMPOTENCY_KEY: 1 };

/** An open error that came from a backend error code; the code stays for callers and logs. */
export class UpstreamApiError extends ApiError {
  readonly errCode: number;

  constructor(code: ErrorCode, errCode: number, opts: ConstructorParameters<typeof ApiError>[1] = {}) {
    super(code, opts);
    this.errCode = errCode;
  }
}

/**
 * What a backend read (a GET) may answer besides its data: that the thing is not there. A read
 * answering a rule of the write surface (a balance, a stake range, an idempotency key) or a key
 * verdict is a backend fault, so the caller of a read never meets a code the contract keeps for
 * writes or authentication (docs/internal-api.md, "Error codes").
 */
const READ_ANSWERS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['NOT_FOUND', 'OPINION_NOT_FOUND']);

/**
 * The open error for a backend error code. `method` is the call's: a GET keeps only the
 * not-found codes (READ_ANSWERS); without it the code is mapped as the table says, which is how
 * the breaker tells a healthy backend's refusal from a fault.
 */
export function mapUpstreamError(errCode: number, method?: 'GET' | 'POST'): UpstreamApiError {
  const known = TABLE.get(errCode) ?? 'INTERNAL';
  const code = method === 'GET' && !READ_ANSWERS.has(known) ? 'INTERNAL' : known;
  const retryAfter = RETRY_AFTER[code];
  return retryAfter === undefined
    ? new UpstreamApiError(code, errCode)
    : new UpstreamApiError(code, errCode, {
        headers: { 'retry-after': String(retryAfter) },
        details: { retry_after: retryAfter },
      });
}

/**
 * How loud a mapped backend error is in the logs: a backend fault pages (`error`); an unknown
 * key is a client's mistake, routine on a public API (`info`); something not there is routine
 * too, and looked for on purpose (a poll's id is tried as a market first), so `debug`; other
 * refusals are `warn`.
 */
export function logLevelOf(err: ApiError): 'error' | 'warn' | 'info' | 'debug' {
  if (err.code === 'INTERNAL') return 'error';
  if (err.code === 'UNAUTHORIZED') return 'info';
  return READ_ANSWERS.has(err.code) ? 'debug' : 'warn';
}

/** Whether an error is the backend's answer with this very code. */
export function hasUpstreamCode(err: unknown, errCode: number): boolean {
  return err instanceof UpstreamApiError && err.errCode === errCode;
}

/** The upstream codes that mean "no such thing"; operations turn them into their own 404. */
export function isUpstreamNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'NOT_FOUND';
}
