/**
 * The preview operations against a stub backend: what they declare to the surfaces (tool name,
 * limits class, localisation, the confirm-flow sentence of their tool text), and which opinions
 * preview_back treats as not there (docs/contract/writes.md: 404 OPINION_NOT_FOUND).
 */
import { describe, expect, it } from 'vitest';
import { ConfirmTokens, parseConfirmKeys } from '../../../src/confirm/token.ts';
import { ApiError } from '../../../src/errors/api-error.ts';
import type { OperationContext } from '../../../src/operations/operation.ts';
import { previewBack } from '../../../src/operations/writes/preview-back.ts';
import { previewOpinion } from '../../../src/operations/writes/preview-opinion.ts';
import { previewOrder } from '../../../src/operations/writes/preview-order.ts';
import { issueToken } from '../../../src/operations/writes/shared.ts';
import type { BoundUpstream } from '../../../src/upstream/bound.ts';

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
        limit: 'read',
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

describe('preview_opinion: text that would not publish as shown', () => {
  it('is refused as CONTENT_INVALID naming the field, before the backend is asked anything', async () => {
    let asked = 0;
    const upstream = {
      call: async () => {
        asked++;
        throw new ApiError('SERVICE_DISABLED');
      },
    } as unknown as BoundUpstream;
    const ctx = { ...withOpinion(() => ({})), upstream };
    const err = await refusal(previewOpinion.execute(ctx, { topic_id: TOPIC, content: 'ring\u0007bell' }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).toEnvelope()).toEqual({
      error: {
        code: 'CONTENT_INVALID',
        message: 'content: control characters (other than tab and newline) and bidirectional formatting characters are not allowed.',
        details: { field: 'content' },
      },
    });
    expect(asked).toBe(0);
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
