/** The TypeScript client in one import: the generated SDK and types, and the helpers around them. */
export * from './generated/index.ts';
export type { Client } from './generated/client/index.ts';
export { createOpenPmClient, toOpenPmError, type OpenPmClientOptions } from './client.ts';
export { OpenPmError, isErrorBody, type ErrorBody, type ErrorCode } from './errors.ts';
export { previewConfirmExecute, isRetryable, mayHaveRun, type Outcome, type PreviewAnswer, type TwoPhaseFlow } from './two-phase.ts';
