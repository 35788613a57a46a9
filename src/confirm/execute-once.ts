/**
 * The execution half of the confirm flow (SPEC 1.2, 3.3; DECISIONS.md section 4): verify the
 * token, claim it once across replicas, run the action, store its outcome.
 *
 * - First success: the action's answer with `replayed: false` (201).
 * - `place_order` / `back_opinion` retried: the stored answer with `replayed: true` (200). While
 *   the first execution is still running, a retry waits for it (up to `waitMs`), then answers
 *   `409 RETRY_IDEMPOTENCY_KEY` with Retry-After if it is still not done.
 * - `publish_opinion` retried, finished or not: `409 CONFIRM_TOKEN_USED`.
 * - A definitive refusal (4xx) is stored and replayed like a success; a failure that may not
 *   have happened (5xx, timeout) gives the claim back, so the same token can be retried. The
 *   backend's idempotency key, derived from the token, makes that retry safe.
 * - No claim, no execution: if the claim store cannot answer, the write is refused.
 */
import { ApiError } from '../errors/api-error.ts';
import type { ClaimStore, StoredOutcome } from './claims.ts';
import type { ConfirmAction, ConfirmTokens, TokenClaims } from './token.ts';

export interface ExecuteDeps {
  tokens: ConfirmTokens;
  claims: ClaimStore;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** How long a retry waits for an execution in flight before answering 409. */
  waitMs?: number;
  pollMs?: number;
}

/** Claims outlive the token, so any retry inside its 5 minutes finds the first outcome. */
export const CLAIM_TTL_MS = 10 * 60 * 1000;

export interface Executed<T> {
  status: number;
  body: T & { replayed: boolean };
}

export async function executeOnce<T extends object>(
  deps: ExecuteDeps,
  action: ConfirmAction,
  token: string,
  caller: { userId: string; keyId: string },
  run: (claims: TokenClaims) => Promise<T>,
): Promise<Executed<T>> {
  const claims = deps.tokens.verify(token, action, caller);
  const waitMs = deps.waitMs ?? 5_000;
  const pollMs = deps.pollMs ?? 50;
  const deadline = Date.now() + waitMs;

  for (;;) {
    let state;
    try {
      state = await deps.claims.claim(claims.jti, CLAIM_TTL_MS);
    } catch (err) {
      deps.log.error({ err: (err as Error).message, action }, 'confirm claim store unavailable: write refused');
      throw new ApiError('CONFIRM_UNAVAILABLE', { cause: err });
    }

    if (state.state === 'acquired') return runClaimed(deps, action, claims, run);
    if (action === 'publish_opinion') throw new ApiError('CONFIRM_TOKEN_USED');
    if (state.state === 'done') return replay<T>(state.outcome);

    // In flight elsewhere: wait for its outcome rather than run the action a second time.
    while (Date.now() < deadline) {
      await sleep(pollMs);
      const now = await deps.claims.peek(claims.jti).catch(() => ({ state: 'pending' as const }));
      if (now === null) break; // given back after a failure: claim it ourselves
      if (now.state === 'done') return replay<T>(now.outcome);
    }
    if (Date.now() >= deadline) {
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
  action: ConfirmAction,
  claims: TokenClaims,
  run: (claims: TokenClaims) => Promise<T>,
): Promise<Executed<T>> {
  let body: T;
  try {
    body = await run(claims);
  } catch (err) {
    const apiError = err instanceof ApiError ? err : new ApiError('INTERNAL', { cause: err });
    if (apiError.status < 500 && apiError.code !== 'RETRY_IDEMPOTENCY_KEY') {
      await store(deps, action, claims.jti, { status: apiError.status, body: apiError.toEnvelope(), headers: apiError.headers });
    } else {
      await deps.claims.release(claims.jti).catch((e: unknown) =>
        deps.log.warn({ err: (e as Error).message, action }, 'confirm claim release failed; it expires by itself'),
      );
    }
    throw apiError;
  }
  const outcome = { status: 201, body: { ...body, replayed: false } };
  await store(deps, action, claims.jti, outcome);
  return outcome;
}

async function store(deps: ExecuteDeps, action: ConfirmAction, jti: string, outcome: StoredOutcome): Promise<void> {
  try {
    await deps.claims.complete(jti, outcome, CLAIM_TTL_MS);
  } catch (err) {
    // The action ran; retries will wait, then meet the backend's idempotent replay.
    deps.log.error({ err: (err as Error).message, action }, 'confirm outcome not stored');
  }
}

function replay<T>(outcome: StoredOutcome): Executed<T> {
  if (outcome.status >= 400) {
    const env = outcome.body as { error: { code: ConstructorParameters<typeof ApiError>[0]; message: string; details?: Record<string, unknown> } };
    throw new ApiError(env.error.code, { message: env.error.message, details: env.error.details, headers: outcome.headers, status: outcome.status });
  }
  return { status: 200, body: { ...(outcome.body as T), replayed: true } };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
