/**
 * /mcp over Fastify. POST passes the same gates as REST (kill switch, failed-auth throttle,
 * authentication: a 401 with the challenge before any MCP handling), then the request is counted
 * against the caller's limits (docs/mcp.md#limits):
 *
 * - each `tools/call` is one operation call, counted by the invocation pipeline with the tool's
 *   declared limit class, so a batch of N calls consumes N units and runs at most what the
 *   budget allows (the rest are tool errors naming the delay);
 * - a request carrying no tool call (initialize, tools/list, ping, notifications, a batch of
 *   them) counts as one read, here, before the SDK sees the body; refused, the whole request is
 *   a 429 that consumed nothing;
 * - a request none of whose tool calls reached the pipeline (a body that cannot be read, a batch
 *   refused as a whole, one the SDK's transport refuses) counts as one read, and answers with the
 *   X-RateLimit-* headers; past the limit it is the 429 instead, as over REST.
 *
 * A batch is answered with an array, and one that cannot be answered one for one (empty, over
 * the SDK's size, two requests sharing an id) is refused before any message is counted or run
 * (./batch.ts).
 *
 * GET, DELETE and every other method answer 405 before their body is read: no sessions, no
 * server-initiated streams.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { requireCaller } from '../../auth/plugin.ts';
import { MCP_PATH } from '../../http/paths.ts';
import { keepSdkClosuresYoung } from '../../patches/mcp-sdk-closures.ts';
import type { Pipeline } from '../../operations/invoke.ts';
import { asBatchAnswer, refuseBatch } from './batch.ts';
import { answerDirect, createMcpServer, directToolCall, screenInitialize } from './server.ts';
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
    // A request refused before the handler (a body that cannot be read, too large) counts like
    // any other; the app's handler then writes the JSON-RPC parse error or the envelope.
    errorHandler: async (err: unknown, request: FastifyRequest, reply: FastifyReply) => {
      if (request.caller !== null && !counted.has(request)) {
        counted.add(request);
        reply.headers(await pipeline.meterRefused(request.caller, 'read'));
      }
      throw err;
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      counted.add(request);
      const caller = requireCaller(request);
      const batch = Array.isArray(request.body);
      const messages: unknown[] = batch ? (request.body as unknown[]) : [request.body];
      const refusal = batch ? refuseBatch(messages) : null;
      if (refusal !== null) {
        const headers = await pipeline.meterRefused(caller, 'read');
        return reply.code(400).headers(headers).send(refusal);
      }
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
      // A request is classed by the tool calls it carries, each metered by the pipeline; one that
      // carries none is one read, whatever else it holds (docs/contract/limits.md#limit-classes).
      // Checked once, its refusal throws the 429 with nothing consumed and nothing run.
      if (!messages.some(isToolCall)) onMetered(await pipeline.meter(caller, 'read'));

      const context = { caller, requestId: request.id, log: request.log, pipeline, registry: opts.registry, onMetered, onRefused };
      // One plain tool call, the common case: answered as the SDK would, without building it.
      const direct = directToolCall(request.body, request.headers, opts.registry);
      if (direct !== null) {
        const answer = await answerDirect(context, direct);
        if (units === 0) onMetered(await pipeline.meterRefused(caller, 'read'));
        return reply.code(200).headers(limitHeaders).header('content-type', 'application/json').send(answer);
      }

      const server = createMcpServer(context);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // In JSON-response mode every handler has finished once the answer exists, and neither
      // object holds a timer or a listener outside itself, so both are simply dropped: closing
      // them would only build a "connection closed" error per request for nobody to read.
      await server.connect(transport);
      screenInitialize(transport);
      const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
      // Nothing counted: the transport refused the request before any handler ran (bad headers,
      // not JSON-RPC), so nothing ran, and past the limit the answer is the 429 instead.
      if (units === 0) onMetered(await pipeline.meterRefused(caller, 'read'));
      reply.code(response.status).headers(limitHeaders);
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      if (response.body === null) return reply.send(undefined);
      const text = await response.text();
      return reply.send(batch && response.status === 200 ? asBatchAnswer(text) : text);
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
    if (typeof value === 'string') headers.set(name, name === 'mcp-protocol-version' ? shownVersion(value) : value);
  }
  return new Request(TRANSPORT_URL, { method: 'POST', headers });
}

/**
 * The protocol version as the transport may quote it back: the SDK's refusal of an unsupported
 * one names it, and an answer echoes no header beyond what names the problem
 * (docs/contract/errors.md#request-errors), so anything but a date-shaped version is shown as
 * `unsupported`.
 */
function shownVersion(value: string): string {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(value) || /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : 'unsupported';
}
