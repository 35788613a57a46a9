/** The read operations of SPEC 4.2 and DECISIONS.md section 2. */
import type { Operation } from './operation.ts';

export const READ_OPERATIONS: readonly Operation[] = [];
