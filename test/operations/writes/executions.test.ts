/**
 * The three executing operations (POST /orders, /backs, /opinions) against a stub backend: what
 * each declares to the surfaces (tool name, path, retry policy, localisation), the backend call it
 * makes with the token's idempotency key (docs/contract/writes.md#claims), and, for opinions, the position and
 * fee checks made again at execution time.
 */
import { describe, expect, it } from 'vitest';
import { MemoryClaimStore } from '../../../src/confirm/claims.ts';
import { type ConfirmAction, ConfirmTokens, parseConfirmKeys } from '../../../src/confirm/token.ts';
import { ApiError } from '../../../src/errors/api-error.ts';
import type { OperationContext } from '../../../src/operations/operation.ts';
import { backOpinion } from '../../../src/operations/writes/back-opinion.ts';
import { placeOrder } from '../../../src/operations/writes/place-order.ts';
import { publishOpinion } from '../../../src/operations/writes/publish-opinion.ts';
import type { BoundUpstream } from '../../../src/upstream/bound.ts';

const TOPIC = '11111111-1111-4111-8111-111111111111';
const OPTION = '22222222-2222-4222-8222-222222222222';
const OTHER_OPTION = '33333333-3333-4333-8333-333333333333';
const OPINION = '44444444-4444-4444-8444-444444444444';

interface Call {
  method?: string;
  path: string;
  body?: unknown;
  query?: Record<string, unknown>;
  idempotencyKey?: string;
}

/** A gateway context whose backend answers by path; every call is recorded. */
function harness(answer: (call: Call) => unknown) {
  const calls: Call[] = [];
  const outcomes: string[] = [];
  const tokens = new ConfirmTokens(parseConfirmKeys(`k1:${'z'.repeat(40)}`, undefined));
  const upstream = {
    call: async (opts: Call) => {
      calls.push(opts);
      return answer(opts);
    },
  } as unknown as BoundUpstream;
  const ctx = {
    caller: { userId: 'u1', keyId: 'key1', keyHash: 'h', scopes: new Set(['read', 'write']) },
    lang: 'en',
    requestId: 'r1',
    log: { info: () => {}, warn: () => {}, error: () => {} },
    services: {
      config: { PUBLIC_WEB_URL: 'https://web.example' },
      confirm: { tokens, claims: new MemoryClaimStore() },
      metrics: { token: (action: string, outcome: string) => outcomes.push(`${action}:${outcome}`) },
      now: Date.now,
    },
    upstream,
  } as unknown as OperationContext;
  const issue = (action: ConfirmAction, params: Record<string, unknown>) => tokens.issue(action, 'u1', 'key1', params);
  return { calls, ctx, issue, outcomes };
}

/** The error an execution refused with, as its code. */
async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('the execution did not refuse');
}

describe('execution declarations', () => {
  it('exposes the three executions as MCP tools under their contract names, with their retry policy and localisation', () => {
    for (const [op, name, path, retry, localised] of [
      [placeOrder, 'place_order', '/orders', 'replay', 'preview'],
      [backOpinion, 'back_opinion', '/backs', 'replay', false],
      [publishOpinion, 'publish_opinion', '/opinions', 'refuse', true],
    ] as const) {
      expect(op).toMatchObject({
        name,
        kind: 'execute',
        scope: 'write',
        mcp: true,
        localised,
        rest: { method: 'POST', path },
      });
      expect(op.execution).toEqual({ action: name, retry });
      // The tool text tells the agent to execute only what the user confirmed.
      expect(op.description).toContain("Call it only after the user explicitly confirmed the preview's summary");
    }
  });
});

describe('place_order', () => {
  it('orders once with the key openpm:order:<jti>, and answers a retry from the stored Order', async () => {
    const { calls, ctx, issue, outcomes } = harness(() => ({
      orderId: '7',
      marketId: TOPIC,
      outcomeId: OPTION,
      outcomeLabel: { en: 'Yes' },
      stake: 10,
      shares: 20,
      avgPrice: 0.5,
      boostMultiplier: 1,
      coinBalance: 90,
      createdAt: 1_700_000_000_000,
    }));
    const { token, claims } = issue('place_order', { topic_id: TOPIC, option_id: OPTION, stake: 10, units: '20', lang: 'en' });
    const first = await placeOrder.execute(ctx, { confirm_token: token });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id: '7', topic_id: TOPIC, option_id: OPTION, option_label: 'Yes', replayed: false });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/internal/prediction/orders', idempotencyKey: `openpm:order:${claims.jti}` });
    expect(calls[0]?.body).toMatchObject({ marketId: TOPIC, outcomeId: OPTION, stake: 10 });
    const again = await placeOrder.execute(ctx, { confirm_token: token });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: '7', replayed: true });
    expect(calls).toHaveLength(1);
    expect(outcomes).toEqual(['place_order:executed', 'place_order:replayed']);
  });
});

describe('back_opinion', () => {
  it('backs the previewed seat once with the key openpm:back:<jti>, and answers a retry from the stored Back', async () => {
    const { calls, ctx, issue } = harness(() => ({
      backId: '9',
      opinionId: OPINION,
      marketId: TOPIC,
      seq: 3,
      price: 2.5,
      coinBalance: 97.5,
      maxRelayPayback: 4,
      maxRelayPaybackSapphire: 0,
      createdAt: 1_700_000_000_000,
    }));
    const { token, claims } = issue('back_opinion', { opinion_id: OPINION, topic_id: TOPIC, seq: 3, price: '2.5' });
    const first = await backOpinion.execute(ctx, { confirm_token: token });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ id: '9', opinion_id: OPINION, seq: 3, replayed: false });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      idempotencyKey: `openpm:back:${claims.jti}`,
      body: { expectedSeq: 3, expectedPrice: 2.5 },
    });
    const again = await backOpinion.execute(ctx, { confirm_token: token });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: '9', replayed: true });
    expect(calls).toHaveLength(1);
  });
});

describe('publish_opinion', () => {
  const params = { topic_id: TOPIC, content: 'I think so', reply_to_opinion_id: null, side_option_id: OPTION, fee: '5' };
  const holding = (h: { marketId?: string; outcomeId?: string; sold?: boolean }) => ({
    marketId: TOPIC,
    outcomeId: OPTION,
    sold: false,
    ...h,
  });

  /** A backend with these holdings and fee, which refuses the publication itself (so nothing needs mapping). */
  function backend(holdings: unknown[], fee = 5) {
    return harness((call) => {
      if (call.path.endsWith('/holdings')) return { items: holdings, total: holdings.length, offset: 0, limit: 10 };
      if (call.path.endsWith('/opinions')) throw new ApiError('TOPIC_CLOSED');
      return { marketId: TOPIC, opinionFee: fee };
    });
  }

  it("reads the owner's holdings of this topic, then publishes with the key openpm:opinion:<jti>", async () => {
    const { calls, ctx, issue } = backend([holding({})]);
    const { token, claims } = issue('publish_opinion', params);
    expect((await refusal(publishOpinion.execute(ctx, { confirm_token: token }))).code).toBe('TOPIC_CLOSED');
    const holdings = calls.find((c) => c.path.endsWith('/holdings'));
    expect(holdings?.path).toBe('/internal/prediction/users/u1/holdings');
    expect(holdings?.query).toEqual({ marketId: TOPIC, offset: 0, limit: 10 });
    const published = calls.find((c) => c.path.endsWith('/opinions'));
    expect(published).toMatchObject({ method: 'POST', idempotencyKey: `openpm:opinion:${claims.jti}` });
    expect(published?.body).toEqual({ content: 'I think so', replyToOpinionId: null, sideOutcomeId: OPTION });
  });

  it('refuses with OPINION_SIDE_REQUIRED when only sold holdings or holdings of other topics remain', async () => {
    const other = '55555555-5555-4555-8555-555555555555';
    const { calls, ctx, issue } = backend([holding({ sold: true }), holding({ marketId: other })]);
    const err = await refusal(publishOpinion.execute(ctx, { confirm_token: issue('publish_opinion', params).token }));
    expect(err.code).toBe('OPINION_SIDE_REQUIRED');
    expect(calls.some((c) => c.path.endsWith('/opinions'))).toBe(false);
  });

  it('refuses with OPINION_SIDE_INVALID when any open holding is on another option', async () => {
    const { ctx, issue } = backend([holding({}), holding({ outcomeId: OTHER_OPTION })]);
    const err = await refusal(publishOpinion.execute(ctx, { confirm_token: issue('publish_opinion', params).token }));
    expect(err.code).toBe('OPINION_SIDE_INVALID');
  });

  it('ignores a sold holding on another option', async () => {
    const { ctx, issue } = backend([holding({}), holding({ outcomeId: OTHER_OPTION, sold: true })]);
    const err = await refusal(publishOpinion.execute(ctx, { confirm_token: issue('publish_opinion', params).token }));
    expect(err.code).toBe('TOPIC_CLOSED');
  });

  it('refuses a token whose text carries control characters, saying why, asking the backend nothing', async () => {
    const { calls, ctx, issue } = backend([holding({})]);
    const token = issue('publish_opinion', { ...params, content: 'hidden\u0007bell' }).token;
    const err = await refusal(publishOpinion.execute(ctx, { confirm_token: token }));
    expect(err.code).toBe('CONTENT_INVALID');
    expect(err.message).toBe(
      'content: control characters (other than tab and newline), bidirectional formatting characters and unpaired surrogates are not allowed.',
    );
    expect(err.details).toEqual({ field: 'content' });
    expect(calls).toEqual([]);
  });

  it('refuses with TOPIC_QUOTE_INVALID, saying why, when the fee changed since the preview', async () => {
    const { calls, ctx, issue } = backend([holding({})], 6);
    const err = await refusal(publishOpinion.execute(ctx, { confirm_token: issue('publish_opinion', params).token }));
    expect(err.code).toBe('TOPIC_QUOTE_INVALID');
    expect(err.message).toBe('The opinion fee changed since the preview; preview the opinion again.');
    expect(calls.some((c) => c.path.endsWith('/opinions'))).toBe(false);
  });
});
