/**
 * The per-request MCP server (stateless Streamable HTTP: the SDK refuses to reuse a server or a
 * transport across requests). A low-level `Server` whose `tools/list` and `tools/call` are
 * answered by one fallback handler over definitions built once at start-up, so nothing is
 * converted, compiled or re-validated per request, and malformed `tools/call` params are a
 * readable `-32602` instead of the SDK's raw schema dump; so are malformed `initialize` params
 * (screenInitialize).
 *
 * Every tool call goes through the invocation pipeline (src/operations/invoke.ts), exactly like
 * its REST route: the result carries the REST response JSON, and a contract error is an
 * `isError` result holding the REST error envelope (docs/mcp.md).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  type CallToolResult,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createServer } from '../../patches/mcp-sdk-closures.ts';
import type { Caller } from '../../auth/caller.ts';
import { toApiError } from '../../errors/translate.ts';
import type { Pipeline } from '../../operations/invoke.ts';
import type { OperationLogger } from '../../operations/operation.ts';
import { SERVER_INSTRUCTIONS } from './instructions.ts';
import type { Tool, ToolRegistry } from './tools.ts';

export const SERVER_INFO = { name: 'open-prediction-market', version: '2.1.0' } as const;

export interface McpRequestContext {
  caller: Caller;
  requestId: string;
  log: OperationLogger;
  pipeline: Pipeline;
  registry: ToolRegistry;
  /** Receives the X-RateLimit-* headers of each counted call (the HTTP reply carries the last). */
  onMetered(headers: Record<string, string>): void;
  /** A call refused by the limits (429): it consumed nothing; receives the refusal's headers. */
  onRefused(headers: Record<string, string>): void;
}

/**
 * One validator for every per-request server: the SDK would otherwise build a new Ajv instance
 * for each (it validates elicitation answers, which this server never requests).
 */
const sharedValidator = new AjvJsonSchemaValidator();

/** `tools/call` params as the protocol defines them; anything else is -32602. */
const CallParams = z.looseObject({
  name: z.string({ error: 'params.name must be the name of a tool (a string).' }).min(1, 'params.name must not be empty.'),
  arguments: z.record(z.string(), z.unknown(), { error: 'params.arguments must be an object of named arguments.' }).optional(),
});

/** A tool name is echoed only as far as a real one could reach. */
const MAX_ECHOED_NAME = 64;

export function createMcpServer(ctx: McpRequestContext): Server {
  const server = createServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: SERVER_INSTRUCTIONS,
    jsonSchemaValidator: sharedValidator,
  });
  server.fallbackRequestHandler = fallbackHandler(ctx, ctx.registry.listingFor(ctx.caller.scopes));
  return server;
}

/**
 * The handler of every request the SDK has none for. Made by a function of its own, not written
 * inline in the assignment above: V8 allocates a function literal assigned straight to a property
 * in the old generation until its code is optimised (src/patches/mcp-sdk-closures.ts).
 */
function fallbackHandler(ctx: McpRequestContext, listing: ReturnType<ToolRegistry['listingFor']>): Server['fallbackRequestHandler'] {
  return async (request) => {
    if (request.method === 'tools/list') return listing;
    if (request.method === 'tools/call') return callTool(ctx, request.params);
    throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method.slice(0, MAX_ECHOED_NAME)}`);
  };
}

/**
 * Answers a malformed `initialize` before the server sees it. The SDK parses its params with its
 * own schema, and answers a failure `-32603` Internal error whose message is the raw issue list:
 * a client's mistake is `-32602` with a readable message instead (docs/mcp.md#results-and-errors).
 * Every other message goes to the server as before. Call it once the server is connected.
 */
export function screenInitialize(transport: Transport): void {
  transport.onmessage = screened(transport, transport.onmessage);
}

/** Made by a function, not written inline where it is assigned (see fallbackHandler). */
function screened(transport: Transport, next: Transport['onmessage']): NonNullable<Transport['onmessage']> {
  return (message, extra) => {
    const refusal = initializeRefusal(message);
    if (refusal === null) next?.(message, extra);
    else transport.send(refusal).catch((err: unknown) => transport.onerror?.(err as Error));
  };
}

function initializeRefusal(message: JSONRPCMessage): JSONRPCErrorResponse | null {
  if (!isJSONRPCRequest(message) || message.method !== 'initialize') return null;
  // The schema the SDK's own handler parses with: what passes here passes there.
  const parsed = InitializeRequestSchema.safeParse(message);
  if (parsed.success) return null;
  const path = parsed.error.issues[0]?.path.map(String).join('.') || 'params';
  const error = new McpError(
    ErrorCode.InvalidParams,
    `Invalid params: ${path.slice(0, MAX_ECHOED_NAME)} is missing or malformed; initialize needs params {protocolVersion, capabilities, clientInfo: {name, version}}.`,
  );
  return { jsonrpc: '2.0', id: message.id, error: { code: error.code, message: error.message } };
}

/** A tool call that qualifies for the direct path: its id, the tool, and its arguments. */
export interface DirectCall {
  id: string | number;
  tool: Tool;
  arguments?: Record<string, unknown>;
}

/**
 * The common request, one `tools/call` of a known tool, answered without the SDK's
 * per-request server and transport (web Request and Response objects, a zod parse of the
 * message, a stream mapping), which cost more than the call itself. Only a message the SDK
 * would answer the same way qualifies: one JSON-RPC request with exactly the protocol's keys,
 * params of only `name` and `arguments`, the headers the transport requires, a supported
 * protocol version. Anything else (batches, other methods, unknown tools, odd headers, `_meta`)
 * goes through the SDK as before, so every refusal and edge case keeps its one implementation.
 * The answer is the same JSON-RPC response the SDK would send, `{result, jsonrpc, id}`, as text.
 */
export function directToolCall(
  body: unknown,
  headers: { accept?: string; 'content-type'?: string; 'mcp-protocol-version'?: string | string[] },
  registry: ToolRegistry,
): DirectCall | null {
  const accept = headers.accept;
  if (typeof accept !== 'string' || !accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
  if (headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase() !== 'application/json') return null;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const m = body as Record<string, unknown>;
  for (const key of Object.keys(m)) if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return null;
  if (m['jsonrpc'] !== '2.0' || m['method'] !== 'tools/call') return null;
  const id = m['id'];
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return null;
  const params = m['params'];
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return null;
  for (const key of Object.keys(params)) if (key !== 'name' && key !== 'arguments') return null;
  const parsed = CallParams.safeParse(params);
  const tool = parsed.success ? registry.find(parsed.data.name) : undefined;
  if (tool === undefined || !parsed.success) return null;
  return { id, tool, arguments: parsed.data.arguments };
}

export async function answerDirect(ctx: McpRequestContext, call: DirectCall): Promise<string> {
  const result = await runTool(ctx, call.tool, call.arguments);
  const text = OWN_TEXT.get(result);
  if (text === undefined) return JSON.stringify({ result, jsonrpc: '2.0', id: call.id });
  // JSON.stringify of the same response, byte for byte, with the structured content written as
  // the text it was serialised to once already, instead of serialising the body a second time.
  return `{"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
}

/**
 * Results built by callTool whose only content is the text of their `structuredContent`,
 * that is JSON.stringify(structuredContent), and which hold nothing else.
 */
const OWN_TEXT = new WeakMap<CallToolResult, string>();

async function callTool(ctx: McpRequestContext, rawParams: unknown): Promise<CallToolResult> {
  const parsed = CallParams.safeParse(rawParams ?? null);
  const params = parsed.success ? parsed.data : undefined;
  const tool = params === undefined ? undefined : ctx.registry.find(params.name);
  if (tool === undefined || params === undefined) {
    // Not an operation call, but a message all the same: it counts as a read.
    try {
      ctx.onMetered(await ctx.pipeline.meter(ctx.caller, 'read'));
    } catch (err) {
      return errorResult(err);
    }
    if (params === undefined) throw new McpError(ErrorCode.InvalidParams, paramsProblem(parsed.error));
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name.slice(0, MAX_ECHOED_NAME)}`);
  }
  return runTool(ctx, tool, params.arguments);
}

/** One call of a known tool through the pipeline, as a tool result (either path). */
async function runTool(ctx: McpRequestContext, tool: Tool, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  try {
    const result = await ctx.pipeline.invoke(
      tool.operation,
      { ...args },
      {
        caller: ctx.caller,
        requestId: ctx.requestId,
        log: ctx.log,
        surface: 'mcp',
        language: 'argument',
        onMetered: ctx.onMetered,
        onRefused: ctx.onRefused,
      },
    );
    const body = result.body as Record<string, unknown>;
    const text = JSON.stringify(body);
    const toolResult: CallToolResult = { content: [{ type: 'text', text }], structuredContent: body };
    OWN_TEXT.set(toolResult, text);
    return toolResult;
  } catch (err) {
    return errorResult(err);
  }
}

/** A contract error as a tool result: the REST error envelope, flagged `isError`. */
function errorResult(err: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(toApiError(err).toEnvelope()) }], isError: true };
}

function paramsProblem(error: z.ZodError | undefined): string {
  const issue = error?.issues[0];
  if (issue === undefined || issue.path.length === 0) return 'Invalid params: tools/call needs params {name, arguments}.';
  return `Invalid params: ${issue.message}`;
}
