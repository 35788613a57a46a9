/**
 * Error translation: any thrown value, or any fault Fastify and Node raise before a route runs,
 * becomes an ApiError with a code from the closed set (docs/contract/errors.md#error-codes).
 * Both surfaces and the HTTP layer translate through here, so a library's own code, message or
 * an echo of the caller's input never reaches a caller.
 */
import { ApiError } from './api-error.ts';

/** What this module reads of a library error: Fastify's and Node's carry a `code` and a status. */
interface CodedError {
  code?: unknown;
  statusCode?: unknown;
  validation?: unknown;
}

/** The faults of the request itself that the transport raises, by their library code. */
const TRANSPORT_FAULTS: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new ApiError('INVALID_ARGUMENT', { status: 413, message: 'The request body exceeds 16 KiB.', details: { field: 'body' } }),
  FST_ERR_CTP_INVALID_JSON_BODY: () => invalidBody(),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => invalidBody(),
  // 400, not 415: the contract's INVALID_ARGUMENT is a 400 (docs/contract/errors.md#request-errors).
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError('INVALID_ARGUMENT', {
      message: 'Request bodies must be JSON (Content-Type: application/json).',
      details: { field: 'content-type' },
    }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ApiError('INVALID_ARGUMENT', { message: 'The Content-Length header does not match the body.', details: { field: 'body' } }),
  // Raised by the router before routing: the path is never echoed back.
  FST_ERR_BAD_URL: () =>
    new ApiError('INVALID_ARGUMENT', { message: 'The request path is not validly percent-encoded.', details: { field: 'path' } }),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    new ApiError('INVALID_ARGUMENT', { status: 414, message: 'A path segment exceeds 200 characters.', details: { field: 'path' } }),
  // A method whose request must carry content (QUERY, RFC 10008) came without it.
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: () =>
    new ApiError('INVALID_ARGUMENT', { message: 'This request needs a Content-Type header.', details: { field: 'content-type' } }),
  FST_ERR_ROUTE_MISSING_CONTENT: () =>
    new ApiError('INVALID_ARGUMENT', { message: 'This request needs a body.', details: { field: 'body' } }),
  FST_ERR_INVALID_URL: () =>
    new ApiError('INVALID_ARGUMENT', { message: 'The request target is not a valid URL.', details: { field: 'path' } }),
};

/**
 * Any other fault the framework attributes to the request (a Fastify code with a 4xx status,
 * one a later Fastify version may add): the caller's request was refused, not a bug of ours, so
 * it is a 400 and never a 500.
 */
function otherRequestFault(e: CodedError): ApiError | null {
  const status = typeof e.statusCode === 'number' ? e.statusCode : 0;
  if (typeof e.code !== 'string' || !e.code.startsWith('FST_ERR_') || status < 400 || status > 499) return null;
  if (status === 404) return new ApiError('NOT_FOUND');
  return new ApiError('INVALID_ARGUMENT', { message: 'The request could not be read.', details: { field: 'request' } });
}

function invalidBody(): ApiError {
  return new ApiError('INVALID_ARGUMENT', { message: 'The request body is not valid JSON.', details: { field: 'body' } });
}

/** Map any thrown value to an ApiError; unknown ones are bugs and become INTERNAL. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as CodedError;
  const fault = typeof e.code === 'string' ? TRANSPORT_FAULTS[e.code] : undefined;
  if (fault !== undefined) return fault();
  // A Fastify (JSON Schema) validation failure: name the parameter like the zod path does.
  if (Array.isArray(e.validation)) {
    const first = e.validation[0] as { instancePath?: string; params?: { missingProperty?: string } } | undefined;
    const field = first?.params?.missingProperty ?? (first?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    return new ApiError('INVALID_ARGUMENT', { message: `${field || 'request'}: invalid value.`, details: { field: field || 'body' } });
  }
  // Body parse errors raised by Node's JSON.parse inside Fastify's parser carry a 400 status.
  if (e.statusCode === 400 && err instanceof SyntaxError) return invalidBody();
  if (e.statusCode === 404) return new ApiError('NOT_FOUND');
  return otherRequestFault(e) ?? new ApiError('INTERNAL', { cause: err });
}

/**
 * A fault Node's HTTP parser reports on the socket (`clientError`), before any request exists:
 * headers over the limit are 431, a request not received in time 408, anything unparsable 400.
 * Null for a connection already gone, which gets no answer.
 */
export function clientFaultError(err: unknown): ApiError | null {
  const code = (typeof err === 'object' && err !== null ? (err as CodedError).code : undefined) as string | undefined;
  if (code === 'ECONNRESET' || code === 'EPIPE') return null;
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError('INVALID_ARGUMENT', { status: 431, message: 'The request headers are too large.', details: { field: 'headers' } });
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT') {
    return new ApiError('INVALID_ARGUMENT', {
      status: 408,
      message: 'The request was not received in time.',
      details: { field: 'request' },
    });
  }
  return new ApiError('INVALID_ARGUMENT', { message: 'The request is not well-formed HTTP.', details: { field: 'request' } });
}
