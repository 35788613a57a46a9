/**
 * Errors of the Open Prediction-Market API as a typed exception. Every error the API sends is
 * `{"error": {"code", "message", "details"}}` with a code from a closed set; `code` and
 * `details` are for programs, `message` is for people.
 */

import type { ErrorCode } from './generated/types.gen.ts';

/** The closed set of error codes, as docs/openapi.json lists them. */
export type { ErrorCode };

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

export class OpenPmError extends Error {
  override readonly name = 'OpenPmError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  /** The `X-Request-Id` of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds to wait, from `Retry-After` (or `details.retry_after`), when the answer gave one. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: ErrorBody, requestId?: string, retryAfter?: number) {
    super(body.error.message);
    this.status = status;
    this.code = body.error.code;
    this.details = body.error.details ?? {};
    this.requestId = requestId;
    this.retryAfter = retryAfter;
  }

  /** The parameter a 400 INVALID_ARGUMENT names, if any. */
  get field(): string | undefined {
    return typeof this.details['field'] === 'string' ? this.details['field'] : undefined;
  }

  /** Builds the error from an answer that is not a success; undefined when it is not an API error. */
  static fromResponse(response: Response, body: unknown): OpenPmError | undefined {
    if (!isErrorBody(body)) return undefined;
    const header = response.headers.get('retry-after');
    const fromDetails = body.error.details?.['retry_after'];
    const retryAfter = header !== null && /^\d+$/.test(header) ? Number(header) : typeof fromDetails === 'number' ? fromDetails : undefined;
    return new OpenPmError(response.status, body, response.headers.get('x-request-id') ?? undefined, retryAfter);
  }
}

export function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}
