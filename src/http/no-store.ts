/**
 * Answers of the API (REST and MCP, errors included) are the caller's own (balances, positions,
 * what a key may see) and change with every call, so no cache, private or shared, may keep them:
 * `Cache-Control: no-store`, as Stripe's API sends (docs/contract/resources.md#caching).
 * Set when the request arrives, so every answer of the scope carries it, a 401 or 429 too.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** Callback style, as every hook that waits for nothing (docs/performance.md, change 27). */
export function noStore(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('cache-control', 'no-store');
  done();
}
