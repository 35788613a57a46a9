/**
 * The list of every operation of the open contract. REST registers all of them; MCP exposes
 * those marked `mcp`, filtered by the caller's scopes.
 */
import type { Operation } from './operation.ts';
import { READ_OPERATIONS } from './reads.ts';
import { WRITE_OPERATIONS } from './writes/index.ts';

export const OPERATIONS: readonly Operation[] = [...READ_OPERATIONS, ...WRITE_OPERATIONS];
