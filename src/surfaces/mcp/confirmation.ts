/**
 * The user's confirmation asked by the MCP client itself (docs/mcp.md#client-confirmation), on
 * the 2026-07-28 revision's multi round-trip requests: a `tools/call` of an execution from a
 * client that declared form elicitation first answers an InputRequiredResult whose elicitation
 * shows the user, in plain words, what the confirm token would do, and asks yes or no. The
 * client retries the same call with the answer and the `requestState` it was given; only a yes
 * runs the execution, exactly as without this step (once; the token's replay and 409 rules).
 *
 * What the user is shown: the figures the token binds (stake and quoted units, opinion text and
 * fee, relay seat and price: what the execution will use) and the token's expiry, read from the
 * token's own claims; the words around them (topic title, option, opinion excerpt, author) and
 * the balance come from the matching preview run again through the pipeline with the token's
 * parameters, which charges nothing. A preview quoting other figures now does not change what
 * is shown: the token's figures are what the execution uses.
 *
 * `requestState` is the SDK's HMAC codec (createRequestStateCodec) keyed from the confirm keys,
 * with the key id in front so that it rotates with them; its payload binds the API key, the
 * user, the tool, a digest of the token and an expiry no later than the token's. Nothing is
 * kept between the rounds: any replica takes the retry.
 */
import { createHash } from 'node:crypto';
import {
  type CallToolResult,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { hasScope } from '../../auth/caller.ts';
import type { ConfirmAction, ConfirmTokens, TokenClaims } from '../../confirm/token.ts';
import { toBig } from '../../../mappers/decimal.ts';
import type { Invocation, Pipeline } from '../../operations/invoke.ts';
import type { Operation } from '../../operations/operation.ts';
import { takesLanguage } from '../../operations/operation.ts';
import { errorResult } from './error-result.ts';
import type { ToolRegistry } from './tools.ts';

/** What a `tools/call` of an execution does next. */
export type ConfirmationStep =
  /** Run the execution as without client confirmation. */
  | { kind: 'proceed' }
  /** The user said yes through the client: run it. */
  | { kind: 'confirmed' }
  /** Ask the user first: an InputRequiredResult. */
  | { kind: 'ask'; result: Record<string, unknown> }
  /** Answer without running anything (a no, no answer, a preview that failed): a tool result. */
  | { kind: 'answer'; result: CallToolResult }
  /** A `requestState` that cannot be trusted here: a -32602. */
  | { kind: 'refused'; message: string };

export interface ClientConfirmation {
  /** Whether a call of this operation is confirmed through the client. */
  asks(op: Operation): boolean;
  step(
    op: Operation,
    args: Readonly<Record<string, unknown>>,
    params: Readonly<Record<string, unknown>>,
    call: Invocation,
    elicitation: boolean,
  ): Promise<ConfirmationStep>;
}

/** The key of the one input request, and of the yes/no field in its form. */
export const CONFIRM_INPUT = 'confirm';
const REQUESTED_SCHEMA: {
  type: 'object';
  properties: Record<string, { type: 'boolean'; title: string; description: string }>;
  required: string[];
} = {
  type: 'object',
  properties: { [CONFIRM_INPUT]: { type: 'boolean', title: 'Go ahead?', description: 'Yes runs it now; no does nothing.' } },
  required: [CONFIRM_INPUT],
};
/** Domain separation: the requestState keys are not the confirm keys themselves. */
const KEY_LABEL = 'openpm.mcp.requestState.v1';

interface StatePayload {
  /** API key id, user id, tool name, SHA-256 of the confirm token (base64url), expiry in ms. */
  k: string;
  u: string;
  t: string;
  d: string;
  e: number;
}

type Summary = Record<string, unknown>;
/** What each confirm action needs: the preview to run again, and the words to show. */
interface ActionWords {
  preview: string;
  /** The yes/no question that ends the message. */
  question: string;
  previewArgs(claims: TokenClaims): Record<string, unknown>;
  message(summary: Summary, claims: TokenClaims): string[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const coins = (v: string): string => `${toBig(v).toFixed(4)} coins`;
const minus = (a: unknown, b: string): string | null => (typeof a === 'string' && a !== '' ? toBig(a).minus(toBig(b)).toFixed(4) : null);

const ACTIONS: Record<ConfirmAction, ActionWords> = {
  place_order: {
    preview: 'preview_order',
    question: 'Place this order?',
    previewArgs: (c) => ({
      topic_id: c.params['topic_id'],
      option_id: c.params['option_id'],
      amount_coins: c.params['stake'],
      language: c.params['lang'],
    }),
    message(s, c) {
      const stake = String(c.params['stake']);
      const option = str(s['option_label']);
      const lines = [`Place an order on "${str(s['topic_title'])}": ${option}.`, `Stake: ${coins(stake)}.`];
      const after = minus(s['balance_before'], stake);
      if (after !== null) lines.push(`Balance after: ${after} coins.`);
      const multiplier = str(s['ruby_multiplier']);
      if (multiplier !== '') {
        const payout = toBig(str(c.params['units'])).times(toBig(multiplier)).toFixed(4);
        lines.push(`Guaranteed payout if "${option}" wins: at least ${payout} rubies.`);
      }
      return lines;
    },
  },
  publish_opinion: {
    preview: 'preview_opinion',
    question: 'Publish this opinion?',
    previewArgs: (c) => ({
      topic_id: c.params['topic_id'],
      content: c.params['content'],
      reply_to_opinion_id: c.params['reply_to_opinion_id'],
    }),
    message(s, c) {
      const fee = str(c.params['fee']);
      const side = str(s['side_option_label']);
      const lines = [
        `Publish an opinion on "${str(s['topic_title'])}"${side === '' ? '' : ` (your side: ${side})`}:`,
        `"${str(c.params['content'])}"`,
      ];
      lines.push(`Fee: ${coins(fee)}.`);
      // The balance before is what the preview shows after its own fee.
      const before =
        typeof s['balance_after'] === 'string' && typeof s['fee_coins'] === 'string'
          ? toBig(s['balance_after']).plus(toBig(s['fee_coins'])).toFixed(4)
          : '';
      const after = minus(before, fee);
      if (after !== null) lines.push(`Balance after: ${after} coins.`);
      lines.push('There is no payout: publishing costs the fee.');
      return lines;
    },
  },
  back_opinion: {
    preview: 'preview_back',
    question: 'Back this opinion?',
    previewArgs: (c) => ({ opinion_id: c.params['opinion_id'], topic_id: c.params['topic_id'] }),
    message(s, c) {
      const price = str(c.params['price']);
      const author = (s['author'] as { handle?: unknown } | undefined)?.handle;
      const lines = [
        `Back the opinion "${str(s['opinion_excerpt'])}"${typeof author === 'string' ? ` by @${author}` : ''} on "${str(s['topic_title'])}".`,
        `Price: ${coins(price)}, for seat ${String(c.params['seq'])} of the backing relay.`,
      ];
      const after = minus(s['balance_before'], price);
      if (after !== null) lines.push(`Balance after: ${after} coins.`);
      const payback = str(s['max_relay_payback_rubies']);
      lines.push(
        s['my_seq_if_now'] === c.params['seq'] && payback !== ''
          ? `No guaranteed payout: at most ${payback} rubies, only if two more backers follow.`
          : 'No guaranteed payout: it pays only if more backers follow.',
      );
      return lines;
    },
  },
};

export interface ClientConfirmationDeps {
  tokens: ConfirmTokens;
  pipeline: Pipeline;
  registry: ToolRegistry;
  now: () => number;
}

export function createClientConfirmation(deps: ClientConfirmationDeps): ClientConfirmation {
  return new ElicitedConfirmation(deps);
}

/** No request context binds the codec: the binding is in the payload, checked here. */
const NO_CONTEXT = undefined as unknown as ServerContext;

class ElicitedConfirmation implements ClientConfirmation {
  readonly #deps: ClientConfirmationDeps;
  readonly #codecs = new Map<string, RequestStateCodec<StatePayload>>();
  readonly #signingKid: string | null;

  constructor(deps: ClientConfirmationDeps) {
    this.#deps = deps;
    const derived = deps.tokens.derivedKeys(KEY_LABEL);
    this.#signingKid = derived.signingKid;
    // The token's 5 minutes bound the codec's own expiry; the payload's is the token's.
    for (const [kid, key] of derived.keys) this.#codecs.set(kid, createRequestStateCodec<StatePayload>({ key, ttlSeconds: 300 }));
  }

  asks(op: Operation): boolean {
    return op.kind === 'execute' && op.execution !== undefined;
  }

  async step(
    op: Operation,
    args: Readonly<Record<string, unknown>>,
    params: Readonly<Record<string, unknown>>,
    call: Invocation,
    elicitation: boolean,
  ): Promise<ConfirmationStep> {
    const action = op.execution?.action;
    const token = args['confirm_token'];
    const state = params['requestState'];
    if (action === undefined || typeof token !== 'string') return { kind: 'proceed' };
    if (typeof state === 'string') return this.#retry(op, token, state, params['inputResponses'], call);
    if (state !== undefined) return { kind: 'refused', message: 'Invalid requestState: it must be the string the server returned.' };
    if (!elicitation) return { kind: 'proceed' };
    return this.#ask(op, action, token, call);
  }

  async #ask(op: Operation, action: ConfirmAction, token: string, call: Invocation): Promise<ConfirmationStep> {
    const codec = this.#signingKid === null ? undefined : this.#codecs.get(this.#signingKid);
    // Whatever cannot be asked about cannot charge either: without the write scope, or with a
    // token that does not verify or is past its time, the execution refuses as it always did.
    if (codec === undefined || !hasScope(call.caller, 'write')) return { kind: 'proceed' };
    let claims: TokenClaims;
    try {
      claims = this.#deps.tokens.authenticate(token, action, call.caller);
    } catch {
      return { kind: 'proceed' };
    }
    if (this.#deps.tokens.expired(claims)) return { kind: 'proceed' };

    const words = ACTIONS[action];
    const preview = this.#deps.registry.find(words.preview);
    if (preview === undefined) return { kind: 'proceed' };
    const previewArgs = words.previewArgs(claims);
    if (!takesLanguage(preview.operation) || previewArgs['language'] === undefined) delete previewArgs['language'];
    let summary: Summary;
    try {
      const shown = await this.#deps.pipeline.invoke(preview.operation, previewArgs, { ...call, language: 'argument' });
      summary = ((shown.body as { summary?: Summary }).summary ?? {}) as Summary;
    } catch (err) {
      // The preview could not be shown: nothing runs, the token stays usable.
      return { kind: 'answer', result: errorResult(err) };
    }
    const expiry = new Date(claims.expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const message = [...words.message(summary, claims), `This offer expires at ${expiry}.`, words.question].join('\n');
    const payload: StatePayload = { k: call.caller.keyId, u: call.caller.userId, t: op.name, d: digest(token), e: claims.expiresAt };
    const requestState = `${this.#signingKid}.${await codec.mint(payload)}`;
    const result = inputRequired({
      inputRequests: { [CONFIRM_INPUT]: inputRequired.elicit({ message, requestedSchema: REQUESTED_SCHEMA }) },
      requestState,
    });
    return { kind: 'ask', result: result as unknown as Record<string, unknown> };
  }

  async #retry(op: Operation, token: string, state: string, responses: unknown, call: Invocation): Promise<ConfirmationStep> {
    const dot = state.indexOf('.');
    const codec = dot > 0 ? this.#codecs.get(state.slice(0, dot)) : undefined;
    let payload: StatePayload;
    try {
      if (codec === undefined) throw new Error('kid');
      payload = await codec.verify(state.slice(dot + 1), NO_CONTEXT);
    } catch (err) {
      const expired = err instanceof Error && err.message === 'expired';
      return { kind: 'refused', message: expired ? EXPIRED : TAMPERED };
    }
    const c = call.caller;
    if (payload.k !== c.keyId || payload.u !== c.userId || payload.t !== op.name || payload.d !== digest(token)) {
      return { kind: 'refused', message: MISMATCHED };
    }
    if (this.#deps.now() >= payload.e) return { kind: 'refused', message: EXPIRED };
    const answer = inputResponse(responses as Record<string, unknown> | undefined, CONFIRM_INPUT);
    if (answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.[CONFIRM_INPUT] === true) return { kind: 'confirmed' };
    const why = answer.kind !== 'elicit' ? 'gave no answer' : answer.action === 'accept' ? 'answered no' : `chose ${answer.action}`;
    const until = new Date(payload.e).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      kind: 'answer',
      result: {
        content: [
          { type: 'text', text: `Not done: the user ${why}, so nothing was charged. The confirm token stays usable until ${until}.` },
        ],
        isError: true,
      },
    };
  }
}

const TAMPERED =
  'Invalid requestState: it was not issued by this server or was altered. Call the tool again without it to ask the user again.';
const MISMATCHED =
  'Invalid requestState: it was issued for another key, user, tool or confirm token. Call the tool again without it to ask the user again.';
const EXPIRED = 'Expired requestState: the confirmation it carried is past its time. Preview again, then call the tool again.';

function digest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}
