/**
 * The list of every operation of the open contract. REST registers all of them; MCP exposes
 * those marked `mcp`, filtered by the caller's scopes.
 */
import type { Operation } from './operation.ts';

export const OPERATIONS: readonly Operation[] = [];
