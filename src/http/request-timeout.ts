/**
 * The deadline for receiving a whole request (headers and body): past it Node answers through
 * the client-error handler (408 in the envelope, src/http/error-handler.ts) and closes the
 * connection, so a client that never finishes a body cannot hold one. Fastify's default has
 * none. The deadline must reach Node's server at construction (`http`): set afterwards, as
 * Fastify's own option alone does, Node 24 never applies it. Node checks it every
 * connectionsCheckingInterval, kept well below it.
 */
import type { ServerOptions } from 'node:http';

export function requestTimeoutOptions(ms: number): { requestTimeout: number; http: ServerOptions } {
  return {
    requestTimeout: ms,
    http: { requestTimeout: ms, connectionsCheckingInterval: Math.min(30_000, Math.ceil(ms / 4)) },
  };
}
