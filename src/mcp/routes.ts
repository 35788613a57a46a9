/**
 * /mcp over Fastify: POST passes the same gates as REST (throttle, then authentication: 401 with
 * the challenge before any MCP handling), then the per-key limits, then a fresh stateless
 * transport and server. GET and DELETE answer 405: no sessions, no server-initiated streams.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { requireCaller } from '../auth/plugin.ts';
import { MCP_PATH } from '../http/paths.ts';
import { rateLimited, type Decision } from '../limits/decision.ts';
import { limitClassOf } from '../limits/limiter.ts';
import type { LimitClass } from '../limits/windows.ts';
import type { Services } from '../services.ts';
import { createMcpServer } from './server.ts';
import type { ToolRegistry } from './tools.ts';

export interface McpRoutesOptions {
  services: Services;
  /** onRequest gates shared with REST: authentication (with its per-address throttle). */
  gates: onRequestHookHandler[];
  registry: ToolRegistry;
}

interface JsonRpcCall {
  method?: unknown;
  params?: { name?: unknown };
}

export async function mcpRoutes(app: FastifyInstance, opts: McpRoutesOptions): Promise<void> {
  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; use POST.' }, id: null });
  app.get(MCP_PATH, methodNotAllowed);
  app.delete(MCP_PATH, methodNotAllowed);

  app.post(MCP_PATH, { onRequest: opts.gates }, async (request, reply) => {
    const caller = requireCaller(request);
    const decision = await countRequest(opts, request, reply);
    const server = createMcpServer({
      caller,
      requestId: request.id,
      log: request.log,
      services: opts.services,
      registry: opts.registry,
      // Over MCP a quota is a tool error naming the delay (SPEC 8).
      beforeCall: decision !== null && !decision.allowed ? async () => Promise.reject(rateLimited(decision)) : undefined,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // Headers set on the reply are not sent by Fastify once hijacked: copy them over.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string);
    }
    reply.hijack();
    const started = process.hrtime.bigint();
    reply.raw.on('close', () => {
      opts.services.metrics.request(MCP_PATH, 'POST', reply.raw.statusCode, 'mcp', Number(process.hrtime.bigint() - started) / 1e9);
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (err) {
      request.log.error({ err }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      }
    }
  });
}

/**
 * Count the POST in the caller's windows, by what it asks: a tools/call of search_topics or of
 * an executing tool also uses the search or write budget (shared with REST). A refused
 * tools/call continues as a tool error; any other refused request is an HTTP 429.
 */
async function countRequest(opts: McpRoutesOptions, request: FastifyRequest, reply: FastifyReply): Promise<Decision | null> {
  const limiter = opts.services.limiter;
  if (limiter === null) return null;
  const calls = (Array.isArray(request.body) ? request.body : [request.body]) as JsonRpcCall[];
  let cls: LimitClass = 'read';
  let isToolCall = false;
  for (const call of calls) {
    if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') continue;
    isToolCall = true;
    const tool = opts.registry.find(call.params.name, requireCaller(request).scopes);
    const c = tool === undefined ? 'read' : limitClassOf(tool.operation);
    if (c === 'write' || (c === 'search' && cls === 'read')) cls = c;
  }
  const decision = await limiter.check(requireCaller(request).keyId, cls);
  if (decision === null) return null;
  reply.headers(decision.headers);
  if (!decision.allowed && !isToolCall) throw rateLimited(decision);
  return decision;
}
