/** The six write-scope operations (docs/contract/writes.md#write-operations): three previews, three executions (docs/contract/writes.md#implementation). */
import type { Operation } from '../operation.ts';
import { backOpinion } from './back-opinion.ts';
import { placeOrder } from './place-order.ts';
import { previewBack } from './preview-back.ts';
import { previewOpinion } from './preview-opinion.ts';
import { previewOrder } from './preview-order.ts';
import { publishOpinion } from './publish-opinion.ts';

export const WRITE_OPERATIONS: readonly Operation[] = [previewOrder, placeOrder, previewOpinion, publishOpinion, previewBack, backOpinion];
