/**
 * /mcp over Fastify: POST is authenticated by the same hook as REST (401 with the challenge
 * before any MCP handling), then handed to a fresh stateless transport and server. GET and
 * DELETE answer 405: there are no sessions and no server-initiated streams.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireCaller } from '../auth/plugin.ts';
import type { KeyAuthenticator } from '../auth/authenticator.ts';
import { authenticationHook } from '../auth/plugin.ts';
import type { Services } from '../services.ts';
import { createMcpServer, type McpRequestContext } from './server.ts';
import type { ToolRegistry } from './tools.ts';

export interface McpRoutesOptions {
  services: Services;
  authenticator: KeyAuthenticator;
  registry: ToolRegistry;
  beforeCall?: (request: FastifyRequest) => McpRequestContext['beforeCall'];
}

export async function mcpRoutes(app: FastifyInstance, opts: McpRoutesOptions): Promise<void> {
  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; use POST.' }, id: null });
  app.get('/mcp', methodNotAllowed);
  app.delete('/mcp', methodNotAllowed);

  app.post('/mcp', { onRequest: authenticationHook(opts.authenticator) }, async (request, reply) => {
    const caller = requireCaller(request);
    const server = createMcpServer({
      caller,
      requestId: request.id,
      log: request.log,
      services: opts.services,
      registry: opts.registry,
      beforeCall: opts.beforeCall?.(request),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // Headers set on the reply before hijacking are not sent by Fastify any more: copy them.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string);
    }
    reply.hijack();
    reply.raw.on('close', () => {
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
