/**
 * Every error Fastify can raise, and every error a route throws, leaves as the contract's
 * envelope with a code from the closed set: unknown routes, bad JSON, oversized bodies, schema
 * failures and bugs alike, and also what the router and Node's HTTP parser refuse before any
 * route runs (bad percent-encoding, an over-long path segment, headers over the limit, bytes
 * that are not HTTP). A stack trace, a library's own message or an echo of the request never
 * reaches a caller. The translation itself lives in src/errors/translate.ts.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ApiError } from '../errors/api-error.ts';
import { clientFaultError, toApiError } from '../errors/translate.ts';
import { DuplicateMemberError } from './json-bodies.ts';
import { NO_STORE, surfaceOf } from './paths.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.code(err.status).type('application/json; charset=utf-8').send(err.toEnvelope());
}

/**
 * Faults the router meets before routing (FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH…): no hook
 * has run, so the request id and no-store headers are set here (an envelope is never cacheable).
 */
function frameworkErrors(err: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(err);
  if (apiError.code === 'INTERNAL') request.log.error({ err }, 'request failed before routing');
  reply.header(REQUEST_ID_HEADER, request.id);
  reply.header('cache-control', NO_STORE);
  void sendApiError(reply, apiError);
}

/** The socket of a clientError; Node keeps the response in flight, if any, on `_httpMessage`. */
type ClientSocket = Duplex & { _httpMessage?: { headersSent?: boolean } | null };

/**
 * Node's HTTP parser refused the bytes (`clientError`): there is no request to reply through,
 * so the envelope is written raw on the socket and the connection closed. Nothing is written
 * when a response has already started on it (the bytes would corrupt that response).
 */
function clientErrorHandler(this: FastifyInstance, err: Error, socket: Duplex): void {
  const apiError = clientFaultError(err);
  if (apiError !== null) writeRawError(socket, apiError);
  this.log.debug({ code: (err as { code?: unknown }).code }, 'malformed request refused');
  socket.destroy();
}

/**
 * The envelope written raw on a socket that has no Fastify reply (a clientError, a CONNECT),
 * unless a response has already started on it; the connection is closed after it.
 */
export function writeRawError(socket: Duplex, apiError: ApiError): void {
  const s = socket as ClientSocket;
  if (!s.writable || s._httpMessage?.headersSent === true) return;
  const body = JSON.stringify(apiError.toEnvelope());
  s.write(
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Cache-Control: ${NO_STORE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * CONNECT asks for a tunnel, which this server never opens. Node hands such a request to the
 * server's `connect` event, outside Fastify, and without a listener drops the connection
 * unanswered; the listener answers the envelope instead.
 */
function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  writeRawError(
    socket,
    new ApiError('INVALID_ARGUMENT', { message: 'CONNECT is not served: this is not a proxy.', details: { field: 'method' } }),
  );
  socket.destroy();
}

/** The id of a JSON-RPC request, when the document is one with a valid id; null otherwise. */
function jsonRpcId(document: unknown): string | number | null {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return null;
  const id = (document as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** Options of the Fastify factory that route pre-routing faults through the envelope. */
export const errorServerOptions = {
  frameworkErrors,
  clientErrorHandler,
} satisfies Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>;

export function installErrorHandling(app: FastifyInstance): void {
  app.server.on('connect', refuseConnect);
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(err);
    // On /mcp a member name given twice is a request the server will not read: JSON-RPC's
    // Invalid Request, naming the member (docs/contract/mcp.md#tool-errors).
    if (apiError instanceof DuplicateMemberError && surfaceOf(request) === 'mcp') {
      return reply.code(400).send({
        jsonrpc: '2.0',
        error: { code: -32600, message: `Invalid Request: ${apiError.message}`, data: { field: apiError.field } },
        id: jsonRpcId(apiError.document),
      });
    }
    // On /mcp an unreadable body is a protocol fault: a JSON-RPC parse error (docs/contract/mcp.md#tool-errors).
    if (apiError.status === 400 && apiError.details?.['field'] === 'body' && surfaceOf(request) === 'mcp') {
      return reply.code(400).send({ jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${apiError.message}` }, id: null });
    }
    if (apiError.code === 'INTERNAL') {
      request.log.error({ err: apiError.cause ?? err }, 'request failed');
    } else if (apiError.status >= 500) {
      request.log.warn({ code: apiError.code }, 'request refused');
    }
    return sendApiError(reply, apiError);
  });

  // The path is not echoed: it is the caller's input, and may be long or hostile.
  app.setNotFoundHandler((_request: FastifyRequest, reply: FastifyReply) => {
    return sendApiError(reply, new ApiError('NOT_FOUND', { message: 'No such route.' }));
  });
}
