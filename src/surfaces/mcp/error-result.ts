import type { CallToolResult } from '@modelcontextprotocol/server';
import { toApiError } from '../../errors/translate.ts';

/** A contract error as a tool result: the REST error envelope, flagged `isError`. */
export function errorResult(err: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(toApiError(err).toEnvelope()) }], isError: true };
}
