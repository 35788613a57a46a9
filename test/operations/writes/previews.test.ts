/**
 * The preview operations against a stub backend: what they declare to the surfaces (tool name,
 * limits class, localisation, the confirm-flow sentence of their tool text), and which opinions
 * preview_back treats as not there (docs/contract/writes.md: 404 OPINION_NOT_FOUND); then, against
 * the recorded backend answers, the rules that hang on those answers: only this topic's holdings
 * count, an author cannot back their own opinion, and a refused order preview stays a refusal
 * whatever its quote does.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { recordedData } from '../../../fixtures/recorded/index.ts';
import { ConfirmTokens, parseConfirmKeys } from '../../../src/confirm/token.ts';
import { ApiError } from '../../../src/errors/api-error.ts';
import type { OperationContext } from '../../../src/operations/operation.ts';
import { previewBack } from '../../../src/operations/writes/preview-back.ts';
import { previewOpinion } from '../../../src/operations/writes/preview-opinion.ts';
import { previewOrder } from '../../../src/operations/writes/preview-order.ts';
import { issueToken } from '../../../src/operations/writes/shared.ts';
import type { BoundUpstream } from '../../../src/upstream/bound.ts';
import { mapUpstreamError } from '../../../src/upstream/errors.ts';
import { HoldingPage, MarketDetail, OpinionDetail, UpstreamErrCode, UserProfile } from '../../../src/upstream/internal-api.ts';

const TOPIC = '11111111-1111-4111-8111-111111111111';
const OTHER_TOPIC = '55555555-5555-4555-8555-555555555555';
const OPINION = '44444444-4444-4444-8444-444444444444';

/**
 * A context whose backend answers GET opinion with `opinion`, GET market with a visible
 * prediction of TOPIC, and never answers anything else.
 */
function withOpinion(opinion: () => unknown): OperationContext {
  const upstream = {
    call: async (opts: { path: string }) => {
      if (opts.path.includes('/opinions/')) return opinion();
      if (opts.path.endsWith(`/markets/${TOPIC}`)) return { marketId: TOPIC, auditState: 'NORMAL', outcomes: [] };
      return new Promise(() => {});
    },
  } as unknown as BoundUpstream;
  return {
    caller: { userId: 'u1', keyId: 'key1', keyHash: 'h', scopes: new Set(['read', 'write']) },
    lang: 'en',
    requestId: 'r1',
    log: { info: () => {}, warn: () => {}, error: () => {} },
    services: { config: { PUBLIC_WEB_URL: 'https://web.example' }, metrics: { token: () => {} }, now: Date.now },
    upstream,
  } as unknown as OperationContext;
}

async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('the preview did not refuse');
}

describe('preview declarations', () => {
  it('exposes the three previews as MCP tools counted as reads, with their localisation and the confirm-flow text', () => {
    for (const [op, name] of [
      [previewOrder, 'preview_order'],
      [previewOpinion, 'preview_opinion'],
      [previewBack, 'preview_back'],
    ] as const) {
      expect(op).toMatchObject({
        name,
        kind: 'preview',
        scope: 'write',
        mcp: true,
        localised: true,
        rest: { method: 'POST' },
      });
      expect(op.execution).toBeUndefined();
      expect(op.description).toContain('Charges nothing. Show the user the whole `summary` and get their explicit confirmation');
      expect(op.description).toContain('whose only input is this `confirm_token` (valid 5 minutes)');
    }
  });
});

describe('preview_back: opinions that are not there', () => {
  const input = { opinion_id: OPINION, topic_id: TOPIC };
  const opinion = (o: { marketId?: string; auditState?: string }) => () => ({
    opinionId: OPINION,
    marketId: TOPIC,
    auditState: 'NORMAL',
    ...o,
  });

  it.each([
    ['an opinion the backend does not know', () => Promise.reject(new ApiError('NOT_FOUND'))],
    ['an opinion of another topic', opinion({ marketId: OTHER_TOPIC })],
    ['a blocked opinion', opinion({ auditState: 'BLOCKED' })],
  ])('answers 404 OPINION_NOT_FOUND for %s', async (_what, answer) => {
    const err = await refusal(previewBack.execute(withOpinion(answer), input));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('OPINION_NOT_FOUND');
  });
});

describe('preview_opinion: the opinion replied to', () => {
  const input = { topic_id: TOPIC, content: 'I agree', reply_to_opinion_id: OPINION };
  const opinion = (o: { marketId?: string; active?: boolean; auditState?: string }) => () => ({
    opinionId: OPINION,
    marketId: TOPIC,
    active: true,
    auditState: 'NORMAL',
    ...o,
  });

  it.each([
    ['an opinion the backend does not know', () => Promise.reject(new ApiError('NOT_FOUND'))],
    ['an opinion of another topic', opinion({ marketId: OTHER_TOPIC })],
    ['an opinion no longer active', opinion({ active: false })],
    ['a blocked opinion', opinion({ auditState: 'BLOCKED' })],
  ])('answers 404 OPINION_NOT_FOUND naming reply_to_opinion_id for %s', async (_what, answer) => {
    const err = await refusal(previewOpinion.execute(withOpinion(answer), input));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).toEnvelope()).toEqual({
      error: {
        code: 'OPINION_NOT_FOUND',
        message: 'reply_to_opinion_id: no such opinion on this topic.',
        details: { field: 'reply_to_opinion_id' },
      },
    });
  });
});

describe.each([
  ['preview_back', (ctx: OperationContext) => previewBack.execute(ctx, { opinion_id: OPINION, topic_id: TOPIC })],
  [
    'preview_opinion',
    (ctx: OperationContext) => previewOpinion.execute(ctx, { topic_id: TOPIC, content: 'I agree', reply_to_opinion_id: OPINION }),
  ],
])('%s, when looking up the opinion fails otherwise', (_name, preview) => {
  it.each([
    ['a refusal of the backend', new ApiError('SERVICE_DISABLED')],
    ['a bug', new TypeError('boom')],
  ])('passes %s on as it is', async (_what, failure) => {
    expect(await refusal(preview(withOpinion(() => Promise.reject(failure))))).toBe(failure);
  });
});

describe('issuing the token of a preview', () => {
  it("signs the caller's token for the action and counts it as issued", () => {
    const tokens = new ConfirmTokens(parseConfirmKeys(`k1:${'z'.repeat(40)}`, undefined), () => 1_000_000);
    const counted: string[] = [];
    const ctx = {
      caller: { userId: 'u1', keyId: 'key1' },
      services: { confirm: { tokens }, metrics: { token: (action: string, outcome: string) => counted.push(`${action}:${outcome}`) } },
    } as unknown as OperationContext;
    const issued = issueToken(ctx, 'back_opinion', { seq: 2 });
    const claims = tokens.verify(issued.confirm_token, 'back_opinion', { userId: 'u1', keyId: 'key1' });
    expect(claims.params).toEqual({ seq: 2 });
    expect(issued.expires_at).toBe(new Date(claims.expiresAt).toISOString());
    expect(counted).toEqual(['back_opinion:issued']);
  });
});

// ---------------------------------------------------------------------------------------------
// Previews against a stub backend answering from the recordings

/** The recorded user (alice) and topic (an open LMSR prediction, Yes / No). */
const ALICE = '00000000-0000-4000-8000-00000000a11c';
const M1 = '00000000-0000-4000-8000-00000000f001';
const YES = '00000000-0000-4000-8000-0000000f0011';
/** Before the recorded topic's deadline (2026-01-31). */
const NOW = Date.UTC(2026, 0, 10);

const market = recordedData('prediction.market.lmsr-boosted.json', MarketDetail);
const recordedHoldings = recordedData('prediction.holdings.json', HoldingPage).items;
/** Alice's open position on Yes of M1. */
const holdingHere = recordedHoldings.find((h) => h.holdingId === '770001');
/** Her open position on another topic (Away, of the final). */
const holdingElsewhere = recordedHoldings.find((h) => h.holdingId === '770004');
const holdingPage = (...items: unknown[]) => ({ items, total: items.length, offset: 0 });

interface StubAnswers {
  market?: () => unknown;
  /** The holdings page, given the query of the call. */
  holdings?: (query: Record<string, unknown>) => unknown;
  quote?: () => unknown;
  opinion?: () => unknown;
}

/**
 * A context whose backend answers from `answers` (each answer passes the call's own schema, as the
 * real client's would), with alice's recorded profile (10000 coins), a clock before the topic's
 * deadline, and real confirm tokens.
 */
function stubBackend(answers: StubAnswers, userId: string = ALICE): OperationContext {
  const profile = recordedData('users.profile.alice.json', UserProfile);
  const route = (opts: { path: string; query?: Record<string, unknown> }): unknown => {
    if (opts.path.endsWith('/profile')) return profile;
    if (opts.path.endsWith('/holdings')) return (answers.holdings ?? (() => holdingPage()))(opts.query ?? {});
    if (opts.path.endsWith('/quote')) return answers.quote?.();
    if (opts.path.includes('/opinions/')) return answers.opinion?.();
    if (opts.path.endsWith(`/markets/${M1}`)) return (answers.market ?? (() => market))();
    throw new Error(`unexpected backend call ${opts.path}`);
  };
  const upstream = {
    call: async (opts: { path: string; query?: Record<string, unknown>; schema: z.ZodType }) => opts.schema.parse(await route(opts)),
  } as unknown as BoundUpstream;
  const tokens = new ConfirmTokens(parseConfirmKeys(`k1:${'z'.repeat(40)}`, undefined), () => NOW);
  const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  return {
    caller: { userId, keyId: 'key1', keyHash: 'h', scopes: new Set(['read', 'write']) },
    lang: 'en',
    requestId: 'r1',
    log: silent,
    services: {
      config: { PUBLIC_WEB_URL: 'https://web.example' },
      confirm: { tokens },
      metrics: { token: () => {} },
      now: () => NOW,
    },
    upstream,
  } as unknown as OperationContext;
}

/** The body of a preview, held to the operation's own output schema. */
async function answerOf(op: typeof previewOrder | typeof previewOpinion | typeof previewBack, ctx: OperationContext, input: never) {
  const result = await op.execute(ctx, input);
  return op.output.parse(result.body) as Record<string, unknown> & { summary: Record<string, unknown> };
}

describe('preview_back: the author of the opinion', () => {
  it('cannot back their own opinion: ALREADY_BACKED, though the relay says they have not backed it', async () => {
    const opinion = recordedData('prediction.opinion-detail.json', OpinionDetail);
    expect(opinion.relay.viewerBacked).toBe(false);
    const ctx = stubBackend({ opinion: () => opinion }, opinion.author.userId);
    const answer = await answerOf(previewBack, ctx, { opinion_id: opinion.opinionId, topic_id: opinion.marketId } as never);
    expect(answer).toMatchObject({ can_back: false, reason: 'ALREADY_BACKED' });
    expect(answer).not.toHaveProperty('confirm_token');
    // Anyone else may: the same opinion previewed by alice.
    const other = await answerOf(previewBack, stubBackend({ opinion: () => opinion }), {
      opinion_id: opinion.opinionId,
      topic_id: opinion.marketId,
    } as never);
    expect(other).toMatchObject({ can_back: true });
  });
});

describe('preview_opinion: only the holdings of this topic give the side', () => {
  const input = { topic_id: M1, content: 'Rain, surely.' } as never;

  it('asks the backend for the holdings of this topic, not the newest of all topics', async () => {
    // The newest holdings of all topics hold only another topic's position; her position here is older.
    const holdings = (q: Record<string, unknown>) => (q.marketId === M1 ? holdingPage(holdingHere) : holdingPage(holdingElsewhere));
    const answer = await answerOf(previewOpinion, stubBackend({ holdings }), input);
    expect(answer).toMatchObject({ can_publish: true, summary: { side_option_label: 'Yes' } });
    expect(answer.confirm_token).toEqual(expect.any(String));
  });

  it("ignores a holding of another topic the backend mixes into this topic's answer", async () => {
    const holdings = (q: Record<string, unknown>) => (q.marketId === M1 ? holdingPage(holdingHere, holdingElsewhere) : holdingPage());
    const answer = await answerOf(previewOpinion, stubBackend({ holdings }), input);
    expect(answer).toMatchObject({ can_publish: true, summary: { side_option_label: 'Yes' } });
  });

  it('answers NO_POSITION when the only open holding is on another topic', async () => {
    const answer = await answerOf(previewOpinion, stubBackend({ holdings: () => holdingPage(holdingElsewhere) }), input);
    expect(answer).toMatchObject({ can_publish: false, reason: 'NO_POSITION', summary: { side_option_label: '' } });
  });
});

describe('preview_opinion: text that would not publish as shown', () => {
  const holdings = () => holdingPage(holdingHere);

  it('is the reason CONTENT_INVALID in a 200, without a token, showing each such character as U+FFFD', async () => {
    const answer = await answerOf(previewOpinion, stubBackend({ holdings }), {
      topic_id: M1,
      content: ' ring\u0007the \u202ebell ',
    } as never);
    expect(answer).toEqual({
      can_publish: false,
      reason: 'CONTENT_INVALID',
      summary: expect.objectContaining({
        content_preview: 'ring\uFFFDthe \uFFFDbell',
        balance_after: '10000.0000',
        side_option_label: 'Yes',
      }),
    });
    // JSON.stringify writes a control character as \u0007 and a bidirectional one as it is.
    expect(JSON.stringify(answer)).not.toContain('\\u0007');
    expect(JSON.stringify(answer)).not.toContain('\u202e');
  });

  it('refuses unpaired surrogates, which no token could carry compactly, showing each as U+FFFD', async () => {
    // 480 lone surrogates are 480 code points, within the length limit, yet escaped six
    // characters each they would make a token longer than any execution accepts.
    for (const content of ['\ud800'.repeat(480), 'rain \udc00 today', 'ends high \ud83d']) {
      const answer = await answerOf(previewOpinion, stubBackend({ holdings }), { topic_id: M1, content } as never);
      expect(answer).toMatchObject({ can_publish: false, reason: 'CONTENT_INVALID' });
      const shown = (answer as { summary: { content_preview: string } }).summary.content_preview;
      expect(shown.isWellFormed()).toBe(true);
      expect(shown).toContain('\uFFFD');
    }
    // A surrogate pair is a character like any other.
    const emoji = await answerOf(previewOpinion, stubBackend({ holdings }), { topic_id: M1, content: 'rain \ud83c\udf27 today' } as never);
    expect(emoji).toMatchObject({ can_publish: true });
  });

  it('loses to NO_POSITION, like any other content problem', async () => {
    const answer = await answerOf(previewOpinion, stubBackend({}), { topic_id: M1, content: 'ring\u0007bell' } as never);
    expect(answer).toMatchObject({ can_publish: false, reason: 'NO_POSITION' });
  });
});

describe('preview_opinion: a fee above the balance', () => {
  const holdings = () => holdingPage(holdingHere);
  const input = { topic_id: M1, content: 'Rain, surely.' } as never;

  it('is the reason INSUFFICIENT_BALANCE, without a token, and the balance unchanged', async () => {
    const dear = () => ({ ...market, opinionFee: 10000.0001 });
    const answer = await answerOf(previewOpinion, stubBackend({ holdings, market: dear }), input);
    expect(answer).toEqual({
      can_publish: false,
      reason: 'INSUFFICIENT_BALANCE',
      summary: expect.objectContaining({ fee_coins: '10000.0001', balance_after: '10000.0000', side_option_label: 'Yes' }),
    });
  });

  it('a fee equal to the balance can be paid: a token, and nothing left', async () => {
    const exact = () => ({ ...market, opinionFee: 10000 });
    const answer = await answerOf(previewOpinion, stubBackend({ holdings, market: exact }), input);
    expect(answer).toMatchObject({ can_publish: true, summary: { balance_after: '0.0000' } });
    expect(answer.confirm_token).toEqual(expect.any(String));
  });

  it('loses to CONTENT_INVALID', async () => {
    const dear = () => ({ ...market, opinionFee: 20000 });
    const answer = await answerOf(previewOpinion, stubBackend({ holdings, market: dear }), { topic_id: M1, content: '' } as never);
    expect(answer).toMatchObject({ can_publish: false, reason: 'CONTENT_INVALID' });
  });
});

describe('preview_order: the option and the holdings', () => {
  it('answers 400 INVALID_ARGUMENT naming option_id for an option of no outcome of the topic', async () => {
    const err = await refusal(
      previewOrder.execute(stubBackend({}), { topic_id: M1, option_id: '00000000-0000-4000-8000-0000000f0041', amount_coins: 50 }),
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).toEnvelope()).toEqual({
      error: { code: 'INVALID_ARGUMENT', message: 'option_id: not an option of this topic.', details: { field: 'option_id' } },
    });
  });

  it('answers ALREADY_STAKED from the holdings of this topic, not the newest of all topics', async () => {
    const holdings = (q: Record<string, unknown>) => (q.marketId === M1 ? holdingPage(holdingHere) : holdingPage(holdingElsewhere));
    const quote = () => ({ priceBefore: 0.6180339887498949, priceAfter: 0.6414, shares: 50 / 0.63, avgPrice: 0.63, boostMultiplier: 1.5 });
    const answer = await answerOf(previewOrder, stubBackend({ holdings, quote }), {
      topic_id: M1,
      option_id: YES,
      amount_coins: 50,
    } as never);
    expect(answer).toMatchObject({ can_place: false, reason: 'ALREADY_STAKED' });
    expect(answer).not.toHaveProperty('confirm_token');
  });
});

describe('preview_order refused as TOPIC_CLOSED or ALREADY_STAKED: the figures are only informative', () => {
  const input = { topic_id: M1, option_id: YES, amount_coins: 50 } as never;
  const closed = () => ({ ...market, state: 'JUDGING' });
  const staked = () => holdingPage(holdingHere);
  const noFigures = { price_now: '0.6180', price_after: '', avg_price: '', payout_if_correct_rubies: '', ruby_multiplier: '' };

  it.each([
    ['TOPIC_CLOSED', { market: closed }, UpstreamErrCode.MARKET_NOT_ACTIVE],
    ['ALREADY_STAKED', { holdings: staked }, UpstreamErrCode.MARKET_ALREADY_ORDERED],
  ])('%s, when the backend refuses the quote: the refusal, without figures', async (reason, answers, errCode) => {
    const quote = () => Promise.reject(mapUpstreamError(errCode));
    const answer = await answerOf(previewOrder, stubBackend({ ...answers, quote }), input);
    expect(answer).toMatchObject({ can_place: false, reason, summary: noFigures });
  });

  it.each([
    ['TOPIC_CLOSED', { market: closed }],
    ['ALREADY_STAKED', { holdings: staked }],
  ])('%s, when the quote breaks the invariants: the refusal, without figures (not 503)', async (reason, answers) => {
    // A price that falls when buying.
    const quote = () => ({ priceBefore: 0.6180339887498949, priceAfter: 0.6, shares: 50 / 0.61, avgPrice: 0.61, boostMultiplier: 1 });
    const answer = await answerOf(previewOrder, stubBackend({ ...answers, quote }), input);
    expect(answer).toMatchObject({ can_place: false, reason, summary: noFigures });
  });

  it('an open topic whose quote breaks the invariants is 503 PREVIEW_UNAVAILABLE, naming when to retry', async () => {
    const quote = () => ({ priceBefore: 0.6180339887498949, priceAfter: 0.6, shares: 50 / 0.61, avgPrice: 0.61, boostMultiplier: 1 });
    const err = (await refusal(previewOrder.execute(stubBackend({ quote }), input))) as ApiError;
    expect([err.code, err.status, err.headers, err.details]).toEqual([
      'PREVIEW_UNAVAILABLE',
      503,
      { 'retry-after': '2' },
      { retry_after: 2 },
    ]);
  });

  it("a quote the backend refuses after the preview's rules passed is 503 PREVIEW_UNAVAILABLE, not the execution's code", async () => {
    // 30002 market closed, 30004 coins insufficient, 30005 stake out of range, 30006 mechanism
    for (const errCode of [30002, 30004, 30005, 30006]) {
      const quote = () => {
        throw mapUpstreamError(errCode, 'POST');
      };
      const err = (await refusal(previewOrder.execute(stubBackend({ quote }), input))) as ApiError;
      expect([errCode, err.code, err.status]).toEqual([errCode, 'PREVIEW_UNAVAILABLE', 503]);
    }
    // A backend fault stays the fault it is.
    const broken = () => {
      throw mapUpstreamError(99999, 'POST');
    };
    expect(((await refusal(previewOrder.execute(stubBackend({ quote: broken }), input))) as ApiError).code).toBe('INTERNAL');
  });

  it('a topic gone between the rules and the quote is NOT_FOUND, as on any read of it', async () => {
    const quote = () => {
      throw mapUpstreamError(UpstreamErrCode.MARKET_NOT_FOUND, 'POST');
    };
    const err = (await refusal(previewOrder.execute(stubBackend({ quote }), input))) as ApiError;
    expect([err.code, err.status]).toEqual(['NOT_FOUND', 404]);
  });
});
