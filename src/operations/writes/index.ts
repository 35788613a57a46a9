/** The six write-scope operations of SPEC 4.1: three previews, three executions. */
import type { Operation } from '../operation.ts';

export const WRITE_OPERATIONS: readonly Operation[] = [];
