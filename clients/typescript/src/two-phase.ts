/**
 * The two-phase write flow, done right once: preview (nothing is charged), show the summary and
 * ask the user, then execute with the preview's token, retrying only what is safe to retry.
 *
 *   const outcome = await previewConfirmExecute({
 *     preview: () => api.previewOrder(topicId, { option_id, amount_coins: 25 }),
 *     confirm: (p) => askUser(p.summary),
 *     execute: (token) => api.placeOrder(token),
 *   });
 *
 * `preview` and `execute` are any functions that resolve with the answer's body and reject with
 * an OpenPmError (or a network error) otherwise.
 *
 * Retrying an execution with the same token never performs the action twice: the gateway
 * claims the token once and the backend deduplicates by a key derived from it. An order or a
 * back retried after a lost answer gets the same result back (`replayed: true`). A published
 * opinion is strictly single-use: a retry after a lost answer is refused with
 * CONFIRM_TOKEN_USED, which here means "it was published; the answer was lost".
 *
 * When the answer may have been lost (no answer, a 5xx, RETRY_IDEMPOTENCY_KEY) and no retry
 * settles it within the attempts or the token's 5 minutes, the outcome is `unknown`: the action
 * may have run. Look at the owner's data (GET /me/positions, /me/opinions, /me/backed-opinions)
 * before previewing again, or a second preview may charge twice.
 */
import { OpenPmError } from './errors.ts';

/** What every preview answers: a summary, and a token only when the action is possible. */
export interface PreviewAnswer {
  summary: unknown;
  confirm_token?: string;
  expires_at?: string;
  reason?: string;
}

export type Outcome<P extends PreviewAnswer, R> =
  /** Executed; `result` is the execution's answer. */
  | { status: 'executed'; preview: P; result: R }
  /** The user said no: nothing was executed. */
  | { status: 'declined'; preview: P }
  /** The preview says the action is not possible now (`reason`); nothing to confirm. */
  | { status: 'refused'; preview: P; reason: string }
  /** The action ran, but its answer was lost and cannot be replayed (a published opinion). */
  | { status: 'executed_answer_lost'; preview: P }
  /**
   * The action may or may not have run: an answer was lost and the retries allowed (attempts,
   * the token's expiry) did not settle it. `error` is the last failure. Check before retrying.
   */
  | { status: 'unknown'; preview: P; error: unknown };

export interface TwoPhaseFlow<P extends PreviewAnswer, R> {
  preview: () => Promise<P>;
  /** Show `preview.summary` to the user; resolve true only on their explicit yes. */
  confirm: (preview: P) => boolean | Promise<boolean>;
  execute: (confirmToken: string) => Promise<R>;
  /** Attempts of the execution in all (default 3). */
  attempts?: number;
  /** Wait before a retry when the answer named none, in ms (default 500, doubling). */
  backoffMs?: number;
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Injected for tests: the clock the token's `expires_at` is compared with. */
  now?: () => number;
}

/** Codes after which the same token may be presented again (the claim was given back). */
const RETRY_CODES = new Set([
  'RETRY_IDEMPOTENCY_KEY',
  'RATE_LIMITED',
  'INTERNAL',
  'CONFIRM_UNAVAILABLE',
  'OPINION_BACK_RETRY',
  'OPINIONS_UNAVAILABLE',
  'PREVIEW_UNAVAILABLE',
]);

/**
 * Failures that do not say the action did not run: the backend may have performed it before
 * the answer was lost (a 5xx), or is still performing it (RETRY_IDEMPOTENCY_KEY).
 */
const MAY_HAVE_RUN_CODES = new Set(['RETRY_IDEMPOTENCY_KEY', 'INTERNAL', 'CONFIRM_UNAVAILABLE']);

/** Whether an execution that failed this way may have run all the same. */
export function mayHaveRun(err: unknown): boolean {
  if (err instanceof OpenPmError) return MAY_HAVE_RUN_CODES.has(err.code);
  return isRetryable(err);
}

/** Whether an execution that failed this way may be retried with the same token. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof OpenPmError) return RETRY_CODES.has(err.code);
  // No answer at all (connection reset, timeout): the action may or may not have run.
  return err instanceof TypeError || (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError'));
}

export async function previewConfirmExecute<P extends PreviewAnswer, R>(flow: TwoPhaseFlow<P, R>): Promise<Outcome<P, R>> {
  const preview = await flow.preview();
  const token = preview.confirm_token;
  if (token === undefined) return { status: 'refused', preview, reason: preview.reason ?? 'UNKNOWN' };
  if (!(await flow.confirm(preview))) return { status: 'declined', preview };

  const attempts = Math.max(1, flow.attempts ?? 3);
  const sleep = flow.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = flow.now ?? Date.now;
  const expiresAt = preview.expires_at === undefined ? Number.POSITIVE_INFINITY : Date.parse(preview.expires_at);
  let backoff = flow.backoffMs ?? 500;
  let answerMaybeLost = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return { status: 'executed', preview, result: await flow.execute(token) };
    } catch (err) {
      if (answerMaybeLost && err instanceof OpenPmError && err.code === 'CONFIRM_TOKEN_USED') {
        return { status: 'executed_answer_lost', preview };
      }
      if (mayHaveRun(err)) answerMaybeLost = true;
      const wait = err instanceof OpenPmError && err.retryAfter !== undefined ? err.retryAfter * 1000 : backoff;
      backoff *= 2;
      // A wait past the token's expiry (a day window's Retry-After) would only end in
      // CONFIRM_TOKEN_EXPIRED, or in a used token's answer that can be had now.
      const giveUp = attempt >= attempts || !isRetryable(err) || now() + wait >= expiresAt;
      if (giveUp) {
        // A definitive refusal is the truth (a performed action answers its replay or
        // CONFIRM_TOKEN_USED instead); a failure that may have run is not.
        if (answerMaybeLost && isRetryable(err)) return { status: 'unknown', preview, error: err };
        throw err;
      }
      await sleep(wait);
    }
  }
}
