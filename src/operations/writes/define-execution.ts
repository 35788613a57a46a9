/**
 * The shape shared by the three executing operations (POST /orders, /opinions, /backs): a body
 * of exactly `{confirm_token}`, the write scope and windows, and the execute-once protocol around
 * the action (verify, claim once across replicas, run, store the outcome; docs/writes.md). Each
 * execution declares only what differs: its confirm action, its retry policy, the parameters its
 * token binds and the backend call that performs it.
 */
import type { z } from 'zod';
import { ConfirmRequest } from '../../contract/writes.ts';
import { executeOnce, type Execution } from '../../confirm/execute-once.ts';
import type { TokenClaims } from '../../confirm/token.ts';
import { defineOperation, type Operation, type OperationContext } from '../operation.ts';
import { boundParams, confirmDeps } from './shared.ts';

export interface ExecutionSpec<P extends z.ZodType, O extends z.ZodType> extends Execution {
  name: string;
  title: string;
  description: string;
  localised: boolean;
  path: string;
  output: O;
  /** What the token of the matching preview binds (besides user, key and action). */
  params: P;
  /** Performs the action once; its answer becomes the body, with `replayed` added. */
  run(ctx: OperationContext, params: z.infer<P>, claims: TokenClaims): Promise<Omit<z.infer<O>, 'replayed'>>;
}

export function defineExecution<P extends z.ZodType, O extends z.ZodType>(spec: ExecutionSpec<P, O>): Operation<typeof ConfirmRequest, O> {
  const execution: Execution = { action: spec.action, retry: spec.retry };
  return defineOperation({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    scope: 'write',
    kind: 'execute',
    limit: 'write',
    execution,
    localised: spec.localised,
    rest: { method: 'POST', path: spec.path },
    mcp: true,
    input: ConfirmRequest,
    output: spec.output,
    async execute(ctx, input) {
      const done = await executeOnce(confirmDeps(ctx), execution, input.confirm_token, ctx.caller, (claims) =>
        spec.run(ctx, boundParams(spec.params, claims), claims),
      );
      return { status: done.status, body: done.body as z.infer<O> };
    },
  });
}
