/**
 * The execution half of the confirm flow (docs/contract/writes.md#executions): verify the
 * token, claim it once across replicas, run the action, store its outcome.
 *
 * - First success: the action's answer with `replayed: false` (201).
 * - Retried under the `replay` policy (orders, backs): the stored answer with `replayed: true`
 *   (200). While the first execution is still running, a retry waits for it (up to `waitMs`),
 *   then answers `409 RETRY_IDEMPOTENCY_KEY` with Retry-After if it is still not done.
 * - Retried under the `refuse` policy (opinions), finished or not: `409 CONFIRM_TOKEN_USED`.
 * - A definitive refusal (4xx) is stored and replayed like a success; a failure that may not
 *   have happened (5xx, timeout) gives the claim back, so the same token can be retried. The
 *   backend's idempotency key, derived from the token, makes that retry safe.
 * - No claim, no execution: if the claim store cannot answer, the write is refused.
 * - Past its 5 minutes a token is never claimed, only looked up: a stored outcome answers as a
 *   retry within the 5 minutes would, an execution in flight is waited for, and nothing stored
 *   is 410 CONFIRM_TOKEN_EXPIRED.
 * - The backend has the last word: when it says the action is a replay of an earlier call with
 *   the same idempotency key (the claim store lost its record: Redis came back empty, or the
 *   first answer was lost after the backend performed it), the answer is the replay (`200`,
 *   `replayed: true`; `409 CONFIRM_TOKEN_USED` under `refuse`), never a second `201`.
 */
import { randomUUID } from 'node:crypto';
import { MAX_UPSTREAM_TIMEOUT_MS } from '../config.ts';
import { ApiError } from '../errors/api-error.ts';
import type { ClaimState, ClaimStore, StoredOutcome } from './claims.ts';
import type { ConfirmAction, ConfirmTokens, TokenClaims } from './token.ts';
import type { ExecutionTrail } from '../audit/trail.ts';

/**
 * What a second presentation of an executed token gets, declared by each executing operation:
 * `replay` answers the stored outcome again (`replayed: true`); `refuse` answers
 * `409 CONFIRM_TOKEN_USED`, finished or not.
 */
export type RetryPolicy = 'replay' | 'refuse';

/** An executing operation's confirm action and retry policy. */
export interface Execution {
  action: ConfirmAction;
  retry: RetryPolicy;
}

/** What happened to a token at execution, for metrics. */
export type TokenOutcome = 'executed' | 'refused' | 'replayed' | 'used' | 'in_flight' | 'invalid' | 'expired' | 'unavailable' | 'failed';

export interface ExecuteDeps {
  tokens: ConfirmTokens;
  claims: ClaimStore;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  onOutcome?: (action: ConfirmAction, outcome: TokenOutcome) => void;
  /** The audit attempt of this call (src/audit/trail.ts): told what the execution reaches. */
  trail?: ExecutionTrail;
  /** How long a retry waits for an execution in flight before answering 409. */
  waitMs?: number;
  pollMs?: number;
}

/**
 * How long an outcome is kept: a day, like Stripe's idempotency keys, so a used token stays
 * used (replayed, or 409 CONFIRM_TOKEN_USED) long after its 5 minutes. Once the outcome is gone
 * the token answers 410 CONFIRM_TOKEN_EXPIRED, and still never runs again.
 */
export const CLAIM_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim in progress expires much sooner: an execution is bounded by the backend deadline,
 * so a claim left behind by a crashed replica (or one that landed after Redis stalled) frees
 * the token within a minute, and the retry meets the backend's idempotent answer. Three times
 * the longest backend deadline (src/config.ts): two calls one after the other, and a third
 * for the claim store and scheduling.
 */
export const PENDING_TTL_MS = 3 * MAX_UPSTREAM_TIMEOUT_MS;

/**
 * What `run` returns when the backend performed nothing and answered the stored outcome of an
 * earlier execution of the same token (docs/internal-api.md, "Writes and idempotency").
 */
export class ReplayedByBackend<T> {
  readonly body: T;

  constructor(body: T) {
    this.body = body;
  }
}

export interface Executed<T> {
  status: number;
  body: T & { replayed: boolean };
}

export async function executeOnce<T extends object>(
  deps: ExecuteDeps,
  execution: Execution,
  token: string,
  caller: { userId: string; keyId: string },
  run: (claims: TokenClaims) => Promise<T | ReplayedByBackend<T>>,
): Promise<Executed<T>> {
  const { action } = execution;
  const outcome = (o: TokenOutcome) => deps.onOutcome?.(action, o);
  let claims: TokenClaims;
  try {
    claims = deps.tokens.authenticate(token, action, caller);
  } catch (err) {
    outcome('invalid');
    throw err;
  }
  deps.trail?.verified(claims);
  const waitMs = deps.waitMs ?? 5_000;
  const pollMs = deps.pollMs ?? 50;
  const deadline = Date.now() + waitMs;
  const owner = randomUUID();

  for (;;) {
    // Judged on every pass: a retry that waited past the token's expiry must not claim it.
    const expired = deps.tokens.expired(claims);
    let state: ClaimState | null;
    try {
      // Past its expiry a token is only looked up, never claimed, so it can never run the action;
      // a used one still finds its outcome (a used token stays used).
      state = expired ? await deps.claims.peek(claims.jti) : await deps.claims.claim(claims.jti, PENDING_TTL_MS, owner);
    } catch (err) {
      deps.log.error({ err: (err as Error).message, action }, 'confirm claim store unavailable: write refused');
      outcome('unavailable');
      if (!expired) releaseLater(deps, claims.jti, owner);
      throw new ApiError('CONFIRM_UNAVAILABLE', { cause: err });
    }

    if (state === null) {
      // Never executed (or its outcome is older than CLAIM_TTL_MS, or was given back after a failure).
      outcome('expired');
      throw new ApiError('CONFIRM_TOKEN_EXPIRED');
    }
    if (state.state === 'acquired') return runClaimed(deps, execution, claims, owner, run);
    if (execution.retry === 'refuse') {
      outcome('used');
      throw new ApiError('CONFIRM_TOKEN_USED');
    }
    if (state.state === 'done') {
      outcome('replayed');
      return replay<T>(state.outcome);
    }

    // In flight elsewhere: wait for its outcome rather than run the action a second time.
    while (Date.now() < deadline) {
      await sleep(pollMs);
      const now = await deps.claims.peek(claims.jti).catch(() => ({ state: 'pending' as const }));
      if (now === null) break; // given back after a failure: claim it ourselves (or, once expired, answer 410)
      if (now.state === 'done') {
        outcome('replayed');
        return replay<T>(now.outcome);
      }
    }
    if (Date.now() >= deadline) {
      outcome('in_flight');
      throw new ApiError('RETRY_IDEMPOTENCY_KEY', {
        message: 'The first execution of this confirm token is still in progress; retry shortly.',
        headers: { 'retry-after': '1' },
        details: { retry_after: 1 },
      });
    }
  }
}

async function runClaimed<T extends object>(
  deps: ExecuteDeps,
  execution: Execution,
  claims: TokenClaims,
  owner: string,
  run: (claims: TokenClaims) => Promise<T | ReplayedByBackend<T>>,
): Promise<Executed<T>> {
  const { action } = execution;
  let result: T | ReplayedByBackend<T>;
  deps.trail?.running();
  try {
    result = await run(claims);
  } catch (err) {
    const apiError = err instanceof ApiError ? err : new ApiError('INTERNAL', { cause: err });
    if (apiError.status < 500 && apiError.code !== 'RETRY_IDEMPOTENCY_KEY') {
      deps.onOutcome?.(action, 'refused');
      await store(deps, execution, claims.jti, { status: apiError.status, body: apiError.toEnvelope(), headers: apiError.headers });
    } else {
      deps.onOutcome?.(action, 'failed');
      await deps.claims
        .release(claims.jti, owner)
        .catch((e: unknown) => deps.log.warn({ err: (e as Error).message, action }, 'confirm claim release failed; it expires by itself'));
    }
    throw apiError;
  }
  if (result instanceof ReplayedByBackend) {
    // The audit record first: the backend's answer is in, whatever fails from here on.
    deps.trail?.performed(result.body, true);
    // Executed before, by an attempt this store no longer remembers: keep that first outcome
    // again, and answer as any later presentation of the token is answered.
    const first = { status: 201, body: { ...result.body, replayed: false } };
    await store(deps, execution, claims.jti, first);
    deps.log.warn({ action }, 'confirm token executed before without a stored outcome: answered the backend replay');
    if (execution.retry === 'refuse') {
      deps.onOutcome?.(action, 'used');
      throw new ApiError('CONFIRM_TOKEN_USED');
    }
    deps.onOutcome?.(action, 'replayed');
    return replay<T>(first);
  }
  deps.trail?.performed(result, false);
  deps.onOutcome?.(action, 'executed');
  const done = { status: 201, body: { ...result, replayed: false } };
  await store(deps, execution, claims.jti, done);
  return done;
}

/**
 * A claim that timed out may still land once a stalled Redis resumes; give it back a few times
 * in the background (only ours: the owner nonce guards anyone else's), so the token is not held
 * until the pending TTL runs out.
 */
function releaseLater(deps: ExecuteDeps, jti: string, owner: string): void {
  for (const delay of [1_000, 5_000, 15_000]) {
    setTimeout(() => void deps.claims.release(jti, owner).catch(() => undefined), delay).unref();
  }
}

async function store(deps: ExecuteDeps, execution: Execution, jti: string, outcome: StoredOutcome): Promise<void> {
  try {
    await deps.claims.complete(jti, kept(execution, outcome), CLAIM_TTL_MS);
  } catch (err) {
    // The action ran; retries will wait, then meet the backend's idempotent replay.
    deps.log.error({ err: (err as Error).message, action: execution.action }, 'confirm outcome not stored');
  }
}

/**
 * What is kept of an outcome for its 24 hours: all of it where a retry is answered with it
 * (`replay`); under `refuse` every later presentation is 409 CONFIRM_TOKEN_USED whatever the
 * outcome was, so only its status is kept, not the answer's body (an opinion's is most of
 * what one execution would otherwise hold in Redis or in memory).
 */
function kept(execution: Execution, outcome: StoredOutcome): StoredOutcome {
  return execution.retry === 'replay' ? outcome : { status: outcome.status, body: null };
}

function replay<T>(outcome: StoredOutcome): Executed<T> {
  if (outcome.status >= 400) {
    const env = outcome.body as {
      error: { code: ConstructorParameters<typeof ApiError>[0]; message: string; details?: Record<string, unknown> };
    };
    throw new ApiError(env.error.code, {
      message: env.error.message,
      details: env.error.details,
      headers: outcome.headers,
      status: outcome.status,
    });
  }
  return { status: 200, body: { ...(outcome.body as T), replayed: true } };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
