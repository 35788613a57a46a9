/**
 * /mcp over Fastify. POST passes the same gates as REST (kill switch, failed-auth throttle,
 * authentication: a 401 with the challenge before any MCP handling), then every JSON-RPC message
 * it carries is counted against the caller's limits (docs/mcp.md#limits):
 *
 * - each `tools/call` is one operation call, counted by the invocation pipeline with the tool's
 *   declared limit class, so a batch of N calls consumes N units and runs at most what the
 *   budget allows (the rest are tool errors naming the delay);
 * - every other message (initialize, tools/list, ping, notifications) counts as a read, here,
 *   before the SDK sees the body; when one is refused the whole request is a 429, since every
 *   class also spends the read window;
 * - a body that cannot be read at all still counts as one read.
 *
 * GET, DELETE and every other method answer 405 before their body is read: no sessions, no
 * server-initiated streams.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { requireCaller } from '../../auth/plugin.ts';
import { MCP_PATH } from '../../http/paths.ts';
import { keepSdkClosuresYoung } from '../../patches/mcp-sdk-closures.ts';
import type { Pipeline } from '../../operations/invoke.ts';
import { answerDirect, createMcpServer, directToolCall } from './server.ts';
import type { ToolRegistry } from './tools.ts';

export interface McpRoutesOptions {
  pipeline: Pipeline;
  /** onRequest gates shared with REST: authentication (with its per-address throttle). */
  gates: onRequestHookHandler[];
  registry: ToolRegistry;
}

const METHOD_NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; use POST.' },
  id: null,
} as const;

export async function mcpRoutes(app: FastifyInstance, opts: McpRoutesOptions): Promise<void> {
  const { pipeline } = opts;
  const closures = keepSdkClosuresYoung();
  if (!closures.applied) app.log.warn({ reason: closures.reason }, 'MCP SDK closures left as they are (docs/performance.md, change 29)');
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: MCP_PATH,
    // Answered before the body is parsed, so no header or body can turn it into a 400.
    onRequest: async (_request: FastifyRequest, reply: FastifyReply) => reply.code(405).header('allow', 'POST').send(METHOD_NOT_ALLOWED),
    handler: async () => undefined,
  });

  // Requests whose messages were counted; any other authenticated request counts once on error.
  const counted = new WeakSet<FastifyRequest>();
  app.post(MCP_PATH, {
    onRequest: opts.gates,
    onError: async (request: FastifyRequest) => {
      if (request.caller === null || counted.has(request)) return;
      counted.add(request);
      await pipeline.meter(request.caller, 'read').catch(() => undefined);
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      counted.add(request);
      const caller = requireCaller(request);
      const messages: unknown[] = Array.isArray(request.body) ? request.body : [request.body];
      // Messages that met the limits, admitted or refused, and the headers of the last of them.
      let units = 0;
      let limitHeaders: Record<string, string> = {};
      const onMetered = (headers: Record<string, string>) => {
        units++;
        limitHeaders = headers;
      };
      // A refused call consumed nothing; the reply describes the window that refused it.
      const onRefused = (headers: Record<string, string>) => {
        units++;
        limitHeaders = rateLimitHeaders(headers);
      };
      for (const message of messages) {
        if (!isToolCall(message)) onMetered(await pipeline.meter(caller, 'read'));
      }

      const context = { caller, requestId: request.id, log: request.log, pipeline, registry: opts.registry, onMetered, onRefused };
      // One plain tool call, the common case: answered as the SDK would, without building it.
      const direct = directToolCall(request.body, request.headers, opts.registry);
      if (direct !== null) {
        const answer = await answerDirect(context, direct);
        if (units === 0) onMetered(await pipeline.meter(caller, 'read').catch(() => ({})));
        return reply.code(200).headers(limitHeaders).header('content-type', 'application/json').send(answer);
      }

      const server = createMcpServer(context);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // In JSON-response mode every handler has finished once the answer exists, and neither
      // object holds a timer or a listener outside itself, so both are simply dropped: closing
      // them would only build a "connection closed" error per request for nobody to read.
      await server.connect(transport);
      const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
      // Nothing counted (no message the SDK accepted as a call): the request itself counts.
      if (units === 0) onMetered(await pipeline.meter(caller, 'read').catch(() => ({})));
      reply.code(response.status).headers(limitHeaders);
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      return reply.send(response.body === null ? undefined : await response.text());
    },
  });
}

/**
 * The X-RateLimit-* headers of a refusal: a refused tool call is a tool error inside a 200, so
 * its Retry-After stays in the result's `details.retry_after`, not on the HTTP reply.
 */
function rateLimitHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.startsWith('x-ratelimit-')) out[name] = value;
  return out;
}

/** A `tools/call` request (not a notification): the pipeline counts it, with its tool's class. */
function isToolCall(message: unknown): boolean {
  if (message === null || typeof message !== 'object') return false;
  const m = message as { method?: unknown; id?: unknown };
  return m.method === 'tools/call' && m.id !== undefined;
}

/** The headers the SDK's transport checks (content negotiation, protocol version, session). */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const;
/** The transport needs a URL but routes nothing by it; the caller's Host is never parsed here. */
const TRANSPORT_URL = `http://gateway${MCP_PATH}`;

function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(TRANSPORT_URL, { method: 'POST', headers });
}
