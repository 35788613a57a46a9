/**
 * Answers of the API (REST and MCP, errors included) are the caller's own (balances, positions,
 * what a key may see) and change with every call, so no cache, private or shared, may keep them:
 * `Cache-Control: no-store`, as Stripe's API sends (docs/contract/resources.md#caching).
 * An app-wide hook, set when the request arrives and before any gate, so every answer on either
 * surface carries it: a 401, 429, the kill switch's 503, an unknown route's 404 and /mcp's 405
 * too. Faults met before routing run no hook; src/http/error-handler.ts sets it for them.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { NO_STORE, surfaceOf } from '../http/paths.ts';

const noStore: FastifyPluginAsync = async (app) => {
  // Callback style, as every hook that waits for nothing (docs/performance.md, kept optimisations).
  app.addHook('onRequest', function noStore(request, reply, done) {
    if (surfaceOf(request) !== 'other') reply.header('cache-control', NO_STORE);
    done();
  });
};

export default fp(noStore, { name: 'openpm-no-store', fastify: '5.x' });
