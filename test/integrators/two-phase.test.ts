/**
 * The client's two-phase helper against the sandbox: preview, the user's confirmation, the
 * execution, and the retries that are safe (a lost answer never makes the action run twice).
 * Calls go through plain fetch, as any transport would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenPmError } from '../../clients/typescript/src/errors.ts';
import { isRetryable, mayHaveRun, previewConfirmExecute } from '../../clients/typescript/src/two-phase.ts';
import type { Order, OrderPreview, OpinionPreview, OwnerOpinionList, PublishedOpinion } from '../../src/contract/index.ts';
import { KEYS, MARKETS, startStack, type Stack } from '../helpers/stack.ts';
import { genericMarketId, outcomeId } from '../../sandbox/index.ts';

let stack: Stack;
const noWait = async () => {};

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
});
afterAll(async () => {
  await stack?.close();
});

/** A minimal transport: the answer's body, or an OpenPmError. */
async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, key: string = KEYS.aliceWrite): Promise<T> {
  const res = await fetch(`${stack.url}/open/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw OpenPmError.fromResponse(res, json) ?? new Error(`HTTP ${res.status}`);
  return json as T;
}

const coins = async () => (await call<{ coins: string }>('GET', '/me')).coins;

/** The backend performs the next POST under `pathPrefix`, then its answer is replaced by `status`. */
const answerLostOnce = (pathPrefix: string, status: number) =>
  stack.admin('POST', '/faults', { method: 'POST', pathPrefix, status, times: 1, phase: 'after' });

/** Runs an execute step, noting the code of an error it meets before passing it on. */
async function noting<T>(seen: string[], execute: () => Promise<T>): Promise<T> {
  try {
    return await execute();
  } catch (err) {
    seen.push((err as OpenPmError).code);
    throw err;
  }
}

describe('previewConfirmExecute', () => {
  it('executes what the user confirmed, after showing the summary', async () => {
    const topic = genericMarketId(1);
    const shown: unknown[] = [];
    const before = Number(await coins());
    const outcome = await previewConfirmExecute({
      preview: () => call<OrderPreview>('POST', `/topics/${topic}/order-preview`, { option_id: outcomeId(topic, 1), amount_coins: 30 }),
      confirm: (p) => {
        shown.push(p.summary);
        return true;
      },
      execute: (token) => call<Order>('POST', '/orders', { confirm_token: token }),
    });
    expect(outcome.status).toBe('executed');
    if (outcome.status !== 'executed') return;
    expect(shown).toEqual([outcome.preview.summary]);
    expect(outcome.result.stake_coins).toBe('30.0000');
    expect(outcome.result.replayed).toBe(false);
    expect(Number(await coins())).toBe(before - 30);
  });

  it('does nothing when the user declines, and reports a refused preview without asking', async () => {
    const topic = genericMarketId(5);
    const before = await coins();
    let asked = 0;
    const declined = await previewConfirmExecute({
      preview: () => call<OrderPreview>('POST', `/topics/${topic}/order-preview`, { option_id: outcomeId(topic, 1), amount_coins: 10 }),
      confirm: () => {
        asked++;
        return false;
      },
      execute: () => Promise.reject(new Error('must not run')),
    });
    expect(declined.status).toBe('declined');
    expect(await coins()).toBe(before);

    const refused = await previewConfirmExecute({
      preview: () =>
        call<OrderPreview>('POST', `/topics/${topic}/order-preview`, { option_id: outcomeId(topic, 1), amount_coins: 999_999 }),
      confirm: () => {
        asked++;
        return true;
      },
      execute: () => Promise.reject(new Error('must not run')),
    });
    expect(refused).toMatchObject({ status: 'refused', reason: 'STAKE_OUT_OF_RANGE' });
    expect(asked).toBe(1);
  });

  it('retries an order whose answer failed after the backend placed it: placed once, answered once', async () => {
    const topic = genericMarketId(9);
    const before = Number(await coins());
    // The backend performs the order, then its answer is replaced by a 502.
    await answerLostOnce('/internal/prediction/orders', 502);
    const seen: string[] = [];
    const outcome = await previewConfirmExecute({
      preview: () => call<OrderPreview>('POST', `/topics/${topic}/order-preview`, { option_id: outcomeId(topic, 2), amount_coins: 20 }),
      confirm: () => true,
      execute: (token) => noting(seen, () => call<Order>('POST', '/orders', { confirm_token: token })),
      sleep: noWait,
    });
    expect(seen).toEqual(['INTERNAL']);
    expect(outcome.status).toBe('executed');
    expect(Number(await coins())).toBe(before - 20);
  });

  it('turns a lost answer of a single-use publish into "executed, answer lost", never a second opinion', async () => {
    const content = `Holding steady ${Date.now()}`;
    let attempts = 0;
    const outcome = await previewConfirmExecute({
      preview: () => call<OpinionPreview>('POST', `/topics/${MARKETS.aliceOpen}/opinion-preview`, { content }),
      confirm: () => true,
      execute: async (token) => {
        attempts++;
        const answer = await call<PublishedOpinion>('POST', '/opinions', { confirm_token: token });
        // The first answer never reaches the caller, as when a connection drops.
        if (attempts === 1) throw new TypeError('fetch failed');
        return answer;
      },
      sleep: noWait,
    });
    expect(attempts).toBe(2);
    expect(outcome.status).toBe('executed_answer_lost');
    const mine = await call<OwnerOpinionList>('GET', '/me/opinions?limit=100');
    expect(mine.data.filter((o) => o.content === content)).toHaveLength(1);
  });

  it('reads a 5xx answer then CONFIRM_TOKEN_USED on a publish as "executed, answer lost": never a second opinion', async () => {
    const content = `Still holding ${Date.now()}`;
    // The backend publishes, then its answer is replaced by a 500.
    await answerLostOnce(`/internal/prediction/markets/${MARKETS.aliceOpen}/opinions`, 500);
    const seen: string[] = [];
    const outcome = await previewConfirmExecute({
      preview: () => call<OpinionPreview>('POST', `/topics/${MARKETS.aliceOpen}/opinion-preview`, { content }),
      confirm: () => true,
      execute: (token) => noting(seen, () => call<PublishedOpinion>('POST', '/opinions', { confirm_token: token })),
      sleep: noWait,
    });
    expect(seen).toEqual(['INTERNAL', 'CONFIRM_TOKEN_USED']);
    expect(outcome.status).toBe('executed_answer_lost');
    const mine = await call<OwnerOpinionList>('GET', '/me/opinions?limit=100');
    expect(mine.data.filter((o) => o.content === content)).toHaveLength(1);
  });

  it('reports "unknown" when the retries run out after an answer that may have been lost', async () => {
    const busy = new OpenPmError(
      409,
      { error: { code: 'RETRY_IDEMPOTENCY_KEY', message: 'in flight', details: { retry_after: 1 } } },
      undefined,
      1,
    );
    const failures: unknown[] = [new TypeError('fetch failed'), busy, busy];
    const outcome = await previewConfirmExecute({
      preview: async () => ({ summary: {}, confirm_token: 't', expires_at: new Date(Date.now() + 300_000).toISOString() }),
      confirm: () => true,
      execute: async () => {
        throw failures.shift();
      },
      sleep: noWait,
    });
    expect(outcome).toMatchObject({ status: 'unknown', error: busy });
    expect(failures).toEqual([]);
  });

  it("does not wait past the token's expiry: a day window's Retry-After ends the flow at once", async () => {
    const waits: number[] = [];
    const limited = new OpenPmError(
      429,
      { error: { code: 'RATE_LIMITED', message: 'day', details: { retry_after: 58_238 } } },
      undefined,
      58_238,
    );
    const flow = (first: unknown) => {
      const failures = [first, limited];
      return previewConfirmExecute({
        preview: async () => ({ summary: {}, confirm_token: 't', expires_at: new Date(Date.now() + 300_000).toISOString() }),
        confirm: () => true,
        execute: async () => {
          throw failures.shift();
        },
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
    };
    // Nothing ran: the refusal itself is the answer.
    await expect(flow(limited)).rejects.toBe(limited);
    expect(waits).toEqual([]);
    // An earlier attempt may have run: that is not known, so the outcome says so.
    expect(await flow(new TypeError('fetch failed'))).toMatchObject({ status: 'unknown', error: limited });
    expect(waits).toEqual([500]);
  });

  it('does not retry what a retry cannot fix', async () => {
    let attempts = 0;
    await expect(
      previewConfirmExecute({
        preview: async () => ({ summary: {}, confirm_token: 'ct1.k1.bm90LWEtdG9rZW4.Zm9yZ2Vk' }),
        confirm: () => true,
        execute: (token) => {
          attempts++;
          return call<Order>('POST', '/orders', { confirm_token: token });
        },
        sleep: noWait,
      }),
    ).rejects.toMatchObject({ name: 'OpenPmError', status: 400, code: 'CONFIRM_TOKEN_INVALID' });
    expect(attempts).toBe(1);
  });
});

describe('OpenPmError', () => {
  it('carries status, code, field, request id and retry delay from the answer', async () => {
    const err = await call('GET', '/topics?limit=0').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenPmError);
    const e = err as OpenPmError;
    expect([e.status, e.code, e.field, e.message]).toEqual([400, 'INVALID_ARGUMENT', 'limit', 'limit must be an integer from 1 to 100.']);
    expect(e.requestId).toMatch(/\S+/);
    expect(isRetryable(e)).toBe(false);

    const unauthorized = (await call('GET', '/me', undefined, KEYS.carolRevoked).catch((x: unknown) => x)) as OpenPmError;
    expect([unauthorized.status, unauthorized.code]).toEqual([401, 'UNAUTHORIZED']);

    const limited = new OpenPmError(
      429,
      { error: { code: 'RATE_LIMITED', message: 'slow down', details: { retry_after: 7 } } },
      undefined,
      7,
    );
    expect(isRetryable(limited)).toBe(true);
    expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
    expect([mayHaveRun(limited), mayHaveRun(new TypeError('fetch failed')), mayHaveRun(e)]).toEqual([false, true, false]);
  });
});
