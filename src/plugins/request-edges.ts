/**
 * Requests that well-formed HTTP never produces, refused in the envelope before any gate runs
 * (docs/contract/errors.md#request-errors):
 *
 * - an HTTP/1.1 request without a `Host` header, or with more than one (RFC 9112 §3.2: a server
 *   MUST answer 400). Node answers the missing one itself with an empty 400 unless told not to
 *   (`requireHostHeader: false`, set by `requestEdgeHttpOptions`), and keeps only the first of
 *   several, so both are judged here on the headers as they were sent;
 * - a request target with a fragment (`/open/v1/me#x`): a client never sends one (RFC 9110
 *   §4.2.4), and read as part of the query it would be answered with a misleading message.
 */
import type { IncomingMessage, ServerOptions } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors/api-error.ts';

/** Options of Node's HTTP server that leave these refusals to the hook below. */
export const requestEdgeHttpOptions = { requireHostHeader: false } satisfies ServerOptions;

/** Why the request cannot be served as sent, or null. */
export function requestEdgeFault(req: Pick<IncomingMessage, 'rawHeaders' | 'url' | 'httpVersion'>): ApiError | null {
  let hosts = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') hosts += 1;
  }
  if (hosts > 1)
    return new ApiError('INVALID_ARGUMENT', { message: 'The request has more than one Host header.', details: { field: 'host' } });
  if (hosts === 0 && req.httpVersion !== '1.0') {
    return new ApiError('INVALID_ARGUMENT', { message: 'HTTP/1.1 requests need a Host header.', details: { field: 'host' } });
  }
  if (req.url?.includes('#') === true) {
    return new ApiError('INVALID_ARGUMENT', { message: 'A request target never carries a fragment (#…).', details: { field: 'path' } });
  }
  return null;
}

const requestEdges: FastifyPluginAsync = async (app) => {
  // Callback style, as every hook that waits for nothing (docs/performance.md, kept optimisations).
  app.addHook('onRequest', function requestEdges(request, _reply, done) {
    done(requestEdgeFault(request.raw) ?? undefined);
  });
};

export default fp(requestEdges, { name: 'openpm-request-edges', fastify: '5.x' });
