import { DEFAULT_MESSAGES, ERROR_STATUS, type ErrorCode } from './codes.ts';

export type ErrorDetails = Record<string, unknown>;

/** The contract's error envelope (docs/contract/errors.md#error-envelope). */
export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: ErrorDetails };
}

/**
 * An error that reaches the caller as the contract envelope. Operations throw it; the REST
 * error handler and the MCP adapter turn it into a response. Anything else thrown is a bug and
 * becomes `500 INTERNAL`.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  /** Extra response headers (Retry-After, WWW-Authenticate). */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    opts: { message?: string; details?: ErrorDetails; headers?: Record<string, string>; status?: number; cause?: unknown } = {},
  ) {
    super(opts.message ?? DEFAULT_MESSAGES[code], opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = opts.status ?? ERROR_STATUS[code];
    this.details = opts.details;
    this.headers = opts.headers ?? {};
  }

  toEnvelope(): ErrorEnvelope {
    const error: ErrorEnvelope['error'] = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

export function invalidArgument(field: string, message: string): ApiError {
  return new ApiError('INVALID_ARGUMENT', { message, details: { field } });
}
