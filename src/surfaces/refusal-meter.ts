/**
 * Counting a request refused before any operation ran (a body that cannot be read or is too
 * large, a trailing slash, a repeated or misplaced parameter), shared by REST and MCP: it
 * counts against the caller's limits like any other outcome, once, and answers with the
 * X-RateLimit-* headers; past the limit it is the 429, which consumes nothing
 * (docs/contract/limits.md#counting). The app's error handler then writes the answer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pipeline } from '../operations/invoke.ts';
import type { LimitClass } from '../limits/windows.ts';

export interface RefusalMeter {
  /** From here the pipeline counts the request: a later error does not count it again. */
  counted(request: FastifyRequest): void;
  /** A route's error handler: counts an authenticated request not yet counted as one `cls` call. */
  errorHandler(cls: LimitClass): (err: unknown, request: FastifyRequest, reply: FastifyReply) => Promise<never>;
}

export function refusalMeter(pipeline: Pick<Pipeline, 'meterRefused'>): RefusalMeter {
  const counted = new WeakSet<FastifyRequest>();
  return {
    counted: (request) => {
      counted.add(request);
    },
    errorHandler: (cls) => async (err, request, reply) => {
      if (request.caller !== null && !counted.has(request)) {
        counted.add(request);
        reply.headers(await pipeline.meterRefused(request.caller, cls));
      }
      throw err;
    },
  };
}
