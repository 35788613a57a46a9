/**
 * /mcp over Fastify. POST passes the same gates as REST (kill switch, failed-auth throttle,
 * authentication: a 401 with the challenge before any MCP handling), then its body goes to the
 * one protocol implementation (./protocol.ts), which counts every message against the caller's
 * limits (docs/mcp.md#limits) and runs every tool call through the invocation pipeline.
 *
 * GET, DELETE and every other method answer 405 before their body is read: no sessions, no
 * server-initiated streams.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { requireCaller } from '../../auth/plugin.ts';
import { MCP_PATH } from '../../http/paths.ts';
import type { Pipeline } from '../../operations/invoke.ts';
import type { ClientConfirmation } from './confirmation.ts';
import { answerMcp } from './protocol.ts';
import type { ToolRegistry } from './tools.ts';
import { refusalMeter } from '../refusal-meter.ts';

export interface McpRoutesOptions {
  pipeline: Pipeline;
  /** onRequest gates shared with REST: authentication (with its per-address throttle). */
  gates: onRequestHookHandler[];
  registry: ToolRegistry;
  /** The user's confirmation asked by the client (2026-07-28); null when turned off. */
  confirmation: ClientConfirmation | null;
}

const METHOD_NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; use POST.' },
  id: null,
} as const;

export async function mcpRoutes(app: FastifyInstance, opts: McpRoutesOptions): Promise<void> {
  const { pipeline, registry, confirmation } = opts;
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: MCP_PATH,
    // Answered before the body is parsed, so no header or body can turn it into a 400.
    onRequest: async (_request: FastifyRequest, reply: FastifyReply) => reply.code(405).header('allow', 'POST').send(METHOD_NOT_ALLOWED),
    handler: async () => undefined,
  });

  const refusals = refusalMeter(pipeline);
  app.post(MCP_PATH, {
    onRequest: opts.gates,
    // A request refused before the handler counts as one message (a read); the app's handler
    // then writes the JSON-RPC parse error or the envelope.
    errorHandler: refusals.errorHandler('read'),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      refusals.counted(request);
      const answer = await answerMcp(request.body, request.headers, {
        caller: requireCaller(request),
        requestId: request.id,
        log: request.log,
        pipeline,
        registry,
        confirmation,
        ...(typeof request.headers.traceparent === 'string' && { traceparent: request.headers.traceparent }),
      });
      reply.code(answer.status).headers(answer.headers);
      if (answer.body === undefined) return reply.send();
      return reply.header('content-type', 'application/json').send(answer.body);
    },
  });
}
