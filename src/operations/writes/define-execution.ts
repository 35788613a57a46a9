/**
 * The shape shared by the three executing operations (POST /orders, /opinions, /backs): a body
 * of exactly `{confirm_token}`, the write scope and windows, and the execute-once protocol around
 * the action (verify, claim once across replicas, run, store the outcome; docs/contract/writes.md#claims). Each
 * execution declares only what differs: its confirm action, its retry policy, the parameters its
 * token binds and the backend call that performs it.
 */
import type { z } from 'zod';
import { ConfirmRequest } from '../../contract/writes.ts';
import { ReplayedByBackend, executeOnce, type Execution } from '../../confirm/execute-once.ts';
import type { Written } from '../../upstream/bound.ts';
import type { TokenClaims } from '../../confirm/token.ts';
import type { ErrorCode } from '../../errors/codes.ts';
import type { CoinField, TargetField } from '../../audit/record.ts';
import { defineOperation, type Operation, type OperationContext, type OperationTag } from '../operation.ts';
import { boundParams, confirmDeps } from './shared.ts';

export interface ExecutionSpec<P extends z.ZodType, O extends z.ZodType> extends Execution {
  name: string;
  title: string;
  description: string;
  localised: boolean | 'preview';
  path: string;
  tag: OperationTag;
  output: O;
  /** What the token of the matching preview binds (besides user, key and action). */
  params: P;
  /** The codes it answers beyond every operation's (docs/contract/writes.md#execution-refusals). */
  errors: readonly ErrorCode[];
  /**
   * Its audit record (docs/audit.md): which parameters of the token name the targets and the
   * coins, and which field of the answer is the backend's reference.
   */
  audit: {
    targets: Partial<Record<TargetField, keyof z.infer<P> & string>>;
    coins: Partial<Record<CoinField, keyof z.infer<P> & string>>;
    reference: keyof Body<O> & string;
  };
  /**
   * Performs the action once; its answer becomes the body, with `replayed` added. When the
   * backend replayed an earlier call instead, it returns the body through `performed`.
   */
  run(ctx: OperationContext, params: z.infer<P>, claims: TokenClaims): Promise<Executable<O>>;
}

type Body<O extends z.ZodType> = Omit<z.infer<O>, 'replayed'>;
type Executable<O extends z.ZodType> = Body<O> | ReplayedByBackend<Body<O>>;

/** The body of an execution, marked when the backend's write was an idempotent replay. */
export function performed<T>(body: T, write: Pick<Written<unknown>, 'replayed'>): T | ReplayedByBackend<T> {
  return write.replayed ? new ReplayedByBackend(body) : body;
}

export function defineExecution<P extends z.ZodType, O extends z.ZodType>(spec: ExecutionSpec<P, O>): Operation<typeof ConfirmRequest, O> {
  const execution: Execution = { action: spec.action, retry: spec.retry };
  return defineOperation({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    scope: 'write',
    kind: 'execute',
    execution,
    audit: { action: spec.action, ...spec.audit },
    localised: spec.localised,
    rest: { method: 'POST', path: spec.path },
    tag: spec.tag,
    mcp: true,
    input: ConfirmRequest,
    output: spec.output,
    errors: spec.errors,
    async execute(ctx, input) {
      const done = await executeOnce<Body<O>>(confirmDeps(ctx), execution, input.confirm_token, ctx.caller, (claims) =>
        spec.run(ctx, boundParams(spec.params, claims), claims),
      );
      return { status: done.status, body: done.body as z.infer<O> };
    },
  });
}
