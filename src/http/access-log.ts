/**
 * One access-log line per request, written when the answer has been sent: Fastify's own
 * completion line with the request (method, URL, host, remote address) added to it. Fastify's
 * default writes a second, `incoming request` line as each request arrives; here that line is
 * at `debug`, for following a request that has not finished yet.
 *
 * Why: every line is a JSON serialisation and a write to stdout, and the arrival line says
 * nothing the completion line does not: it carries the same request, and the request id ties
 * it to the request's other lines.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
