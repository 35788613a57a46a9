/**
 * The user's confirmation asked by the MCP client itself (docs/mcp.md#client-confirmation).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Invocation } from '../../operations/invoke.ts';
import type { Operation } from '../../operations/operation.ts';

/** What a `tools/call` of an execution does next. */
export type ConfirmationStep =
  /** Run the execution as without client confirmation (no elicitation declared). */
  | { kind: 'proceed' }
  /** The user said yes through the client: run it. */
  | { kind: 'confirmed' }
  /** Ask the user first: an InputRequiredResult. */
  | { kind: 'ask'; result: Record<string, unknown> }
  /** Answer without running (a decline, an unusable token): a tool result. */
  | { kind: 'answer'; result: CallToolResult }
  /** A requestState that cannot be trusted: a -32602. */
  | { kind: 'refused'; message: string };

export interface ClientConfirmation {
  asks(op: Operation): boolean;
  step(
    op: Operation,
    args: Record<string, unknown>,
    params: Record<string, unknown>,
    call: Invocation,
    elicitation: boolean,
  ): Promise<ConfirmationStep>;
}
