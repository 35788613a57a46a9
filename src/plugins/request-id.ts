/**
 * Echoes the request's id as `X-Request-Id` on every response, errors and 404s included, so a
 * caller can quote it and an operator can find the request in the logs and at the backend.
 *
 * Fastify itself picks the id (the server's `genReqId` option, src/http/request-id.ts); this
 * plugin only makes it visible. It skips encapsulation so that the hook covers every route.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { REQUEST_ID_HEADER } from '../http/request-id.ts';

const requestId: FastifyPluginAsync = async (app) => {
  // Callback style: an async hook would cost every request a promise and a turn of the
  // microtask queue for a hook that waits for nothing (docs/performance.md, kept optimisations).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
};

export default fp(requestId, { name: 'openpm-request-id', fastify: '5.x' });
