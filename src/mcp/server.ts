/**
 * The per-request MCP server (stateless Streamable HTTP). A low-level `Server` with two
 * handlers over precomputed tool definitions: no zod-to-JSON-Schema conversion or validator
 * construction happens per request. Each tool call runs the same operation as its REST route;
 * the result carries exactly the REST response JSON, and a contract error is an `isError`
 * result holding the REST error envelope.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../errors/api-error.ts';
import { toApiError } from '../http/error-handler.ts';
import type { Caller } from '../auth/caller.ts';
import { foldLanguage } from '../i18n/fold.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../i18n/languages.ts';
import { operationContext, type OperationLogger } from '../operations/operation.ts';
import { validateInput } from '../operations/validate-input.ts';
import { writesDisabled } from '../operations/writes-gate.ts';
import type { Services } from '../services.ts';
import type { ToolRegistry } from './tools.ts';

export const SERVER_INFO = { name: 'open-prediction-market', version: '2.1.0' } as const;

export interface McpRequestContext {
  caller: Caller;
  requestId: string;
  log: OperationLogger;
  services: Services;
  registry: ToolRegistry;
  /** Runs around every tool call (rate limits, metrics); may throw an ApiError. */
  beforeCall?: (toolName: string) => Promise<void>;
}

/**
 * One validator for every per-request server: the SDK would otherwise build a new Ajv instance
 * for each (it validates elicitation answers, which this server never requests).
 */
const sharedValidator = new AjvJsonSchemaValidator();

export function createMcpServer(ctx: McpRequestContext): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    jsonSchemaValidator: sharedValidator,
  });
  const tools = ctx.registry.visibleTo(ctx.caller.scopes);
  const definitions = tools.map((t) => t.definition);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: definitions }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = ctx.registry.find(request.params.name, ctx.caller.scopes);
    // A tool outside the caller's scopes is unknown to it: listed nowhere, never run.
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const op = tool.operation;
    try {
      await ctx.beforeCall?.(op.name);
      if (op.scope === 'write' && writesDisabled(ctx.services)) throw new ApiError('SERVICE_DISABLED');
      const args = { ...(request.params.arguments ?? {}) } as Record<string, unknown>;
      const lang = op.localised ? languageOf(args) : DEFAULT_LANGUAGE;
      delete args['language'];
      const input = validateInput(op, args, 'mcp');
      const result = await op.execute(
        operationContext(ctx.services, { caller: ctx.caller, lang, requestId: ctx.requestId, log: ctx.log }),
        input,
      );
      const body = result.body as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.code === 'INTERNAL') ctx.log.error({ err: apiError.cause ?? err, tool: op.name }, 'tool call failed');
      return { content: [{ type: 'text', text: JSON.stringify(apiError.toEnvelope()) }], isError: true };
    }
  });

  return server;
}

/** DECISIONS.md section 6: aliases fold; anything else is refused, naming the supported codes. */
function languageOf(args: Record<string, unknown>): Language {
  const raw = args['language'];
  if (raw === undefined || raw === null) return DEFAULT_LANGUAGE;
  const folded = typeof raw === 'string' ? foldLanguage(raw) : null;
  if (folded === null) {
    throw new ApiError('INVALID_ARGUMENT', {
      message: `language: unsupported value; use one of ${LANGUAGES.join(', ')}.`,
      details: { field: 'language', supported: [...LANGUAGES] },
    });
  }
  return folded;
}
