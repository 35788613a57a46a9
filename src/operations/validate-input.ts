/**
 * Input validation shared by both surfaces: the operation's zod schema decides, and the first
 * problem is reported as `400 INVALID_ARGUMENT` naming the parameter (`details.field`). A
 * malformed path id is `404 NOT_FOUND` instead: ids that cannot exist are simply not found.
 */
import type { z } from 'zod';
import { ApiError } from '../errors/api-error.ts';
import type { Operation } from './operation.ts';

export function validateInput<I extends z.ZodType>(op: Operation<I>, raw: unknown, _surface: 'rest' | 'mcp'): z.infer<I> {
  const result = op.input.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? unknownKeyOf(issue) ?? 'body' : issue.path.map(String).join('.');
  if (op.pathParams?.includes(field)) throw new ApiError('NOT_FOUND');
  throw new ApiError('INVALID_ARGUMENT', { message: `${field}: ${describeIssue(issue)}`, details: { field } });
}

function unknownKeyOf(issue: z.core.$ZodIssue | undefined): string | undefined {
  return issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'invalid';
  if (issue.code === 'unrecognized_keys') return 'unknown field';
  return issue.message;
}
