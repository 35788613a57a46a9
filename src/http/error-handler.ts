/**
 * Every error Fastify can raise, and every error a route throws, leaves as the contract's
 * envelope with a code from the closed set: unknown routes, bad JSON, oversized bodies, schema
 * failures and bugs alike. A stack trace or a library's own message never reaches a caller.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.ts';
import { surfaceOf } from './paths.ts';

/** Map any thrown value to an ApiError; unknown ones are bugs and become INTERNAL. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as Partial<FastifyError> | undefined;
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('INVALID_ARGUMENT', { status: 413, message: 'The request body exceeds 16 KiB.', details: { field: 'body' } });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_ARGUMENT', { message: 'The request body is not valid JSON.', details: { field: 'body' } });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // 400, not 415: the contract's INVALID_ARGUMENT is a 400 (only an oversized body is 413).
      return new ApiError('INVALID_ARGUMENT', {
        message: 'Request bodies must be JSON (Content-Type: application/json).',
        details: { field: 'content-type' },
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('INVALID_ARGUMENT', { message: 'The Content-Length header does not match the body.', details: { field: 'body' } });
    default:
      break;
  }
  // A Fastify (JSON Schema) validation failure: name the parameter like the zod path does.
  const validation = (err as { validation?: { instancePath?: string; params?: { missingProperty?: string } }[] } | undefined)?.validation;
  if (Array.isArray(validation)) {
    const first = validation[0];
    const field = first?.params?.missingProperty ?? (first?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    return new ApiError('INVALID_ARGUMENT', { message: `${field || 'request'}: invalid value.`, details: { field: field || 'body' } });
  }
  // Body parse errors raised by Node's JSON.parse inside Fastify's parser carry a 400 status.
  if (e?.statusCode === 400 && err instanceof SyntaxError) {
    return new ApiError('INVALID_ARGUMENT', { message: 'The request body is not valid JSON.', details: { field: 'body' } });
  }
  if (e?.statusCode === 404) return new ApiError('NOT_FOUND');
  return new ApiError('INTERNAL', { cause: err });
}

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.code(err.status).type('application/json; charset=utf-8').send(err.toEnvelope());
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(err);
    // On /mcp an unreadable body is a protocol fault: a JSON-RPC parse error (docs/contract/mcp.md#tool-errors).
    if (apiError.status === 400 && apiError.details?.['field'] === 'body' && surfaceOf(request.url) === 'mcp') {
      return reply.code(400).send({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${apiError.message}` }, id: null });
    }
    if (apiError.code === 'INTERNAL') {
      request.log.error({ err: apiError.cause ?? err }, 'request failed');
    } else if (apiError.status >= 500) {
      request.log.warn({ code: apiError.code }, 'request refused');
    }
    return sendApiError(reply, apiError);
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    return sendApiError(reply, new ApiError('NOT_FOUND', { message: `No route ${request.method} ${request.url.split('?')[0]}.` }));
  });
}
