/**
 * A stub backend for unit tests of the read operations: each test says what the backend answers
 * per call, the answers pass the call's own internal schema (as the real client's would), and
 * every call is recorded so a test can check what the operation asked for. Backend errors are
 * thrown as the client throws them (mapUpstreamError). Inputs go through the operation's own
 * validation first, so defaults apply as they do on either surface.
 */
import type { z } from 'zod';
import { recordedData } from '../../../fixtures/recorded/index.ts';
import type { Caller } from '../../../src/auth/caller.ts';
import type { Language } from '../../../src/i18n/languages.ts';
import { Metrics } from '../../../src/metrics/metrics.ts';
import type { Operation, OperationContext, OperationDeps } from '../../../src/operations/operation.ts';
import { validateInput } from '../../../src/operations/validate-input.ts';
import { CursorCodec } from '../../../src/pagination/cursor.ts';
import { bindUpstream } from '../../../src/upstream/bound.ts';
import type { CallContext, CallOptions } from '../../../src/upstream/client.ts';
import { mapUpstreamError } from '../../../src/upstream/errors.ts';

export const WEB = 'https://app.example.test';
export const ALICE = '00000000-0000-4000-8000-00000000a11c';

/** One recorded backend call: what an operation asked, and as whom. */
export interface BackendCall {
  path: string;
  query: Record<string, unknown>;
  shared: boolean;
  actingUser: string | undefined;
}

/** What the stub answers for a call: data for the call's schema, or a backend error code. */
export type Answer = { data: unknown } | { errCode: number };
export type Backend = (call: BackendCall) => Answer;

export const data = (value: unknown): Answer => ({ data: value });
export const backendError = (errCode: number): Answer => ({ errCode });
/** A recorded success's `data`, as the backend sent it. */
export const recorded = (file: string, schema: z.ZodType): unknown => recordedData(file, schema);

export function harness(backend: Backend) {
  const calls: BackendCall[] = [];
  const cursors = new CursorCodec('reads-test-cursor-secret');
  const deps: OperationDeps = {
    config: { PUBLIC_WEB_URL: WEB },
    cursors,
    confirm: {} as OperationDeps['confirm'],
    metrics: new Metrics({ defaultMetrics: false }),
    now: Date.now,
  };
  const client = {
    async call<S extends z.ZodType>(ctx: CallContext, opts: CallOptions<S>): Promise<z.infer<S>> {
      const shared = opts.shared === true && (opts.method ?? 'GET') === 'GET';
      const query = Object.fromEntries(Object.entries(opts.query ?? {}).filter(([, v]) => v !== undefined));
      const call: BackendCall = { path: opts.path, query, shared, actingUser: shared ? undefined : ctx.actingUser };
      calls.push(call);
      const answer = backend(call);
      if ('errCode' in answer) throw mapUpstreamError(answer.errCode);
      return opts.schema.parse(answer.data);
    },
  };
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const caller: Caller = { userId: ALICE, keyId: 'key-1', keyHash: 'hash', scopes: new Set(['read']) };

  /** Validate `raw` like the pipeline does, then execute; resolves to the answer's body. */
  async function run(op: Operation, raw: Record<string, unknown> = {}, lang: Language = 'en'): Promise<any> {
    const input = validateInput(op, raw, 'rest');
    const upstream = bindUpstream(client, { requestId: 'req-1', actingUser: caller.userId, log: silent });
    const ctx: OperationContext = {
      caller,
      lang,
      requestId: 'req-1',
      log: silent,
      cursors: cursors.forList(op.name),
      services: deps,
      upstream,
    };
    const result = await op.execute(ctx, input);
    // Every answer must be what the contract promises.
    return op.output.parse(result.body);
  }

  return { calls, cursors, run };
}

/** The contract error code a promise rejects with, or `ok`. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? `not a contract error: ${String(err)}`;
  }
}
