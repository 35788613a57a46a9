/**
 * One access-log line per request, written when the answer has been sent: Fastify's own
 * completion line with the request (method, URL, host, remote address) added to it. Fastify's
 * default writes a second, `incoming request` line as each request arrives; here that line is
 * at `debug`, for following a request that has not finished yet.
 *
 * Why: every line is a JSON serialisation and a write to stdout; below saturation the second
 * line cost about one write system call and 3% of an owner read's CPU (docs/performance.md,
 * change 16, measured when writes still went through libuv's thread pool). Nothing is lost at
 * `info`: the completion line carries everything the arrival line did, and the request id ties
 * it to the request's other lines.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * A duration in milliseconds to the hundredth, as the access line logs it. Why rounded: pino
 * writes a number into the line through V8's cache of converted numbers, and a fresh float per
 * request (the raw elapsed time) left its string to the old generation on every request
 * (number-text.ts says why that matters). Rounded, a replica's response times repeat and are
 * found in the cache.
 */
export function loggedMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}

export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: loggedMs(reply.elapsedTime) }, 'request errored');
    } else {
      reply.log.info({ req: request, res: reply, responseTime: loggedMs(reply.elapsedTime) }, 'request completed');
    }
  }
}
