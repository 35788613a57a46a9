/**
 * The MCP protocol at /mcp: one implementation of every message, for every revision served
 * (docs/mcp.md#revisions). Everything the SDK's own handler would do and the SDK offers as a
 * building block is taken from it: the era classification and its ladder of refusals
 * (`classifyInboundRequest`, which proves the JSON-RPC shape with the SDK's guards and checks the
 * 2026-07-28 `_meta` envelope and the header/body cross-checks), the request schemas
 * (`InitializeRequestSchema`, `CallToolRequestParamsSchema`), the protocol version constants and
 * meta keys, and the multi round-trip builders (./confirmation.ts). What the SDK does not offer
 * as a building block, or does at a cost a tool call cannot afford (a server and a transport per
 * request, about three times a REST read), is here and only here:
 *
 * - the presence half of the 2026-07-28 standard headers (`MCP-Protocol-Version`, `Mcp-Method`,
 *   `Mcp-Name` on a `tools/call`), which the SDK checks only inside its handler;
 * - the 2025 handshake (`initialize`, `ping`, notifications), answered without a session;
 * - JSON-RPC batches of the 2025-03-26 revision, every message counted as if it came alone, the
 *   answer capped in size; later revisions refuse arrays;
 * - dispatch of `server/discover`, `tools/list` and `tools/call` over the tool registry, every
 *   call through the invocation pipeline (src/operations/invoke.ts), as its REST route.
 */
import { CallToolRequestParamsSchema, InitializeRequestSchema } from '@modelcontextprotocol/core';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  classifyInboundRequest,
  type InboundLadderRejection,
  isJSONRPCRequest,
  type JSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import type { Caller } from '../../auth/caller.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { Invocation, Pipeline } from '../../operations/invoke.ts';
import type { OperationLogger } from '../../operations/operation.ts';
import type { ClientConfirmation } from './confirmation.ts';
import { CONTRACT_VERSION } from '../../contract/version.ts';
import { errorResult } from './error-result.ts';
import { SERVER_INSTRUCTIONS } from './instructions.ts';
import type { Tool, ToolRegistry } from './tools.ts';

export const SERVER_INFO = { name: 'open-prediction-market', version: CONTRACT_VERSION } as const;

/** The stateless revision: no handshake, a `_meta` envelope on every request. */
export const MODERN_REVISION = '2026-07-28';
/** Every revision served: the modern one and the SDK's 2025-era list (2025-11-25 back to 2024-11-05). */
const SERVED_REVISIONS: readonly string[] = [MODERN_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS];
/** The revisions before it that still allowed JSON-RPC batches (removed in 2025-06-18). */
const BATCHING_REVISIONS: ReadonlySet<string> = new Set(['2025-03-26', '2024-11-05']);
/** A 2025-era request without `MCP-Protocol-Version` is 2025-03-26, as Streamable HTTP says. */
const VERSION_WITHOUT_HEADER = '2025-03-26';
/** The most messages one batch may hold (the bound of the SDK's own transport). */
export const MAX_BATCH_MESSAGES = 100;
/**
 * The largest answer the gateway writes for one batch (docs/mcp.md#batches). A single message's
 * answer is bounded by the operations' own page sizes, and is not measured a second time.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/** Headers and body disagree (2026-07-28, Streamable HTTP): not yet in the SDK's code enum. */
const HEADER_MISMATCH = -32020;
/** A protocol fault outside JSON-RPC's own codes (the transport's, as the SDK answers it). */
const SERVER_ERROR = -32000;
/** How long a client may keep `tools/list` and `server/discover`: the lists change only with a deployment. */
const LIST_TTL_MS = 10 * 60 * 1000;
/** A tool name is echoed only as far as a real one could reach. */
const MAX_ECHOED = 64;

const CAPABILITIES = { tools: { listChanged: false } } as const;

export interface McpHeaders {
  accept?: string | undefined;
  'mcp-protocol-version'?: string | string[] | undefined;
  'mcp-method'?: string | string[] | undefined;
  'mcp-name'?: string | string[] | undefined;
}

/** What a POST needs besides its body: who calls, and the one pipeline. */
export interface McpExchange {
  caller: Caller;
  requestId: string;
  log: OperationLogger;
  pipeline: Pipeline;
  registry: ToolRegistry;
  /** Asks the user through the client before an execution; null when the operator turned it off. */
  confirmation: ClientConfirmation | null;
  /** The HTTP request's W3C `traceparent` header (the audit record's trace id when `_meta` has none). */
  traceparent?: string;
}

/** The HTTP answer of one POST: a JSON body (or none, 202) and the X-RateLimit-* headers. */
export interface McpAnswer {
  status: number;
  body?: unknown;
  headers: Record<string, string>;
}

type Id = string | number | null;
type Answer =
  | { jsonrpc: '2.0'; id: Id; result: unknown }
  | { jsonrpc: '2.0'; id: Id; error: { code: number; message: string; data?: unknown } };

function failure(id: Id, code: number, message: string, data?: unknown): Answer {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * The messages of one POST as they meet the limits: the X-RateLimit-* headers of the last
 * counted one, and whether anything was counted at all (a request that ran nothing still counts
 * once, as a read; docs/mcp.md#limits).
 */
class RequestMeter {
  units = 0;
  headers: Record<string, string> = {};
  readonly #caller: Caller;
  readonly #pipeline: Pipeline;

  constructor(caller: Caller, pipeline: Pipeline) {
    this.#caller = caller;
    this.#pipeline = pipeline;
  }

  readonly onMetered = (headers: Record<string, string>): void => {
    this.units++;
    this.headers = headers;
  };

  /** A refused call consumed nothing; the reply describes the window that refused it. */
  readonly onRefused = (headers: Record<string, string>): void => {
    this.units++;
    this.headers = rateLimitHeaders(headers);
  };

  /** One read for a message that is not a tool call; throws RATE_LIMITED when refused. */
  async read(): Promise<void> {
    try {
      this.onMetered(await this.#pipeline.meter(this.#caller, 'read'));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'RATE_LIMITED') this.onRefused(err.headers);
      throw err;
    }
  }

  /** The one read of a request refused before any message ran: past the limit, the 429 instead. */
  async refusedRequest(): Promise<void> {
    if (this.units === 0) this.onMetered(await this.#pipeline.meterRefused(this.#caller, 'read'));
  }
}

/** The X-RateLimit-* headers of a refusal (its Retry-After belongs to a 429 only). */
function rateLimitHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.startsWith('x-ratelimit-')) out[name] = value;
  return out;
}

function header(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

/**
 * Answers one POST /mcp. A 429 of the whole request is thrown as the RATE_LIMITED ApiError (the
 * app writes the envelope with Retry-After), as over REST.
 */
export async function answerMcp(body: unknown, headers: McpHeaders, ex: McpExchange): Promise<McpAnswer> {
  const meter = new RequestMeter(ex.caller, ex.pipeline);
  const refused = async (status: number, answer: unknown): Promise<McpAnswer> => {
    await meter.refusedRequest();
    return { status, body: answer, headers: meter.headers };
  };

  // Streamable HTTP: a client accepts both a JSON answer and a stream, whichever the server picks.
  const accept = headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return refused(406, failure(null, SERVER_ERROR, 'Not Acceptable: Client must accept both application/json and text/event-stream'));
  }
  const versionHeader = header(headers['mcp-protocol-version']);
  // Checked before the SDK's classifier, which takes any version it does not know for a later one.
  if (versionHeader !== undefined && !SERVED_REVISIONS.includes(versionHeader))
    return refused(400, unsupportedVersion(null, versionHeader));
  if (Array.isArray(body)) return answerBatch(body, versionHeader, ex, meter);

  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    ...(versionHeader !== undefined && { protocolVersionHeader: versionHeader }),
    ...(header(headers['mcp-method']) !== undefined && { mcpMethodHeader: header(headers['mcp-method']) }),
    ...(header(headers['mcp-name']) !== undefined && { mcpNameHeader: header(headers['mcp-name']) }),
    body,
  });
  if (outcome.kind === 'reject') return refused(outcome.httpStatus, ladderRefusal(outcome, body));
  if (outcome.kind === 'modern') {
    const revision = outcome.classification.revision;
    const id = outcome.messageKind === 'request' ? outcome.message.id : null;
    if (revision !== MODERN_REVISION) return refused(400, unsupportedVersion(id, revision ?? 'unknown', [MODERN_REVISION]));
    if (outcome.messageKind === 'notification') {
      await meter.read();
      return { status: 202, headers: meter.headers };
    }
    const mismatch = standardHeaderProblem(outcome.message, versionHeader, header(headers['mcp-method']), header(headers['mcp-name']));
    if (mismatch !== null)
      return refused(400, failure(id, HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${mismatch}`));
    const answer = await modernRequest(outcome.message, ex, meter);
    await meter.refusedRequest();
    return { status: answer.status, body: answer.answer, headers: meter.headers };
  }

  // The 2025 era: one message (batches are answered above).
  if (outcome.reason === 'response' || outcome.reason === 'notification') {
    // Nothing to answer: a notification, or a response to a request this server never sends.
    await meter.read();
    return { status: 202, headers: meter.headers };
  }
  const message = body as JSONRPCRequest;
  // Alone, a message refused by the limits is the 429; a tool call is the RATE_LIMITED tool error.
  const answer = await legacyRequest(message, ex, meter, { first: true, batch: false });
  await meter.refusedRequest();
  return { status: 200, body: answer, headers: meter.headers };
}

/** A 2025-era batch: refused as a whole, or every message answered as if it came alone. */
async function answerBatch(
  messages: unknown[],
  versionHeader: string | undefined,
  ex: McpExchange,
  meter: RequestMeter,
): Promise<McpAnswer> {
  const refuse = async (message: string): Promise<McpAnswer> => {
    await meter.refusedRequest();
    return { status: 400, body: failure(null, ProtocolErrorCode.InvalidRequest, `Invalid Request: ${message}`), headers: meter.headers };
  };
  const version = versionHeader ?? VERSION_WITHOUT_HEADER;
  if (!BATCHING_REVISIONS.has(version))
    return refuse(`JSON-RPC batches are not part of protocol revision ${shownVersion(version)}; send one message per request.`);
  const problem = batchProblem(messages);
  if (problem !== null) return refuse(problem);
  // The SDK's checks of every element: each a JSON-RPC message, none of a later revision.
  const outcome = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: version, body: messages });
  if (outcome.kind === 'reject') return refuse(outcome.message.replace(/^Bad Request: /, ''));

  // Every answer counts toward the cap, refusals included: each request keeps room for the
  // refusal it would get, so the answers that ran never crowd out the ones after them.
  const tooLarge = (id: Id): Answer =>
    failure(
      id,
      SERVER_ERROR,
      `Answer too large: the answer reached its limit of ${MAX_ANSWER_BYTES} bytes; send this message in another request.`,
    );
  const notRun = (id: Id): Answer =>
    failure(id, SERVER_ERROR, `Not run: the answer reached its limit of ${MAX_ANSWER_BYTES} bytes; send the rest in another request.`);
  const sizeOf = (answer: Answer): number => Buffer.byteLength(JSON.stringify(answer)) + 1;
  const reserved = messages.map((m) => (isJSONRPCRequest(m) ? sizeOf(tooLarge(m.id)) : 0));
  let reserve = reserved.reduce((sum, n) => sum + n, 0);
  const answers: Answer[] = [];
  let bytes = 2;
  let full = false;
  for (const [index, message] of messages.entries()) {
    if (!isJSONRPCRequest(message)) {
      // Notifications and posted responses are answered by nothing, but counted all the same.
      if (!full) await countOrRefuse(meter, index);
      continue;
    }
    reserve -= reserved[index] ?? 0;
    if (full) {
      answers.push(notRun(message.id));
      continue;
    }
    let answer = await legacyRequest(message, ex, meter, { first: index === 0, batch: true });
    const size = sizeOf(answer);
    if (bytes + size + reserve > MAX_ANSWER_BYTES) {
      full = true;
      answer = tooLarge(message.id);
    } else {
      bytes += size;
    }
    answers.push(answer);
  }
  if (answers.length === 0) return { status: 202, headers: meter.headers };
  return { status: 200, body: answers, headers: meter.headers };
}

/** Counts a message that is not a tool call; the first one refused refuses the whole request. */
async function countOrRefuse(meter: RequestMeter, index: number): Promise<void> {
  try {
    await meter.read();
  } catch (err) {
    if (index === 0) throw err;
  }
}

/** What makes a batch impossible to answer one for one, or null. */
function batchProblem(messages: readonly unknown[]): string | null {
  if (messages.length === 0) return 'a batch must hold at least one message.';
  if (messages.length > MAX_BATCH_MESSAGES) return `a batch must hold at most ${MAX_BATCH_MESSAGES} messages.`;
  // Answers are matched to requests by id alone; 1 and "1" are different ids.
  const ids = new Set<string | number>();
  for (const message of messages) {
    if (message === null || typeof message !== 'object') continue;
    const m = message as { method?: unknown; id?: unknown };
    if (typeof m.method !== 'string' || (typeof m.id !== 'string' && typeof m.id !== 'number')) continue;
    if (ids.has(m.id)) return 'each request of a batch needs an id of its own.';
    ids.add(m.id);
  }
  return null;
}

/** A refusal of the SDK's classification ladder, with the request's id when it has a usable one. */
function ladderRefusal(r: InboundLadderRejection, body: unknown): Answer {
  const id = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  const echoed = typeof id === 'string' || typeof id === 'number' ? id : null;
  return failure(echoed, r.code, r.message, r.data);
}

/**
 * The protocol version as an answer may quote it back: anything but a date-shaped version is
 * `unsupported`, so that no header is echoed beyond what names the problem
 * (docs/contract/errors.md#request-errors).
 */
function shownVersion(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : 'unsupported';
}

function unsupportedVersion(id: Id, version: string, supported: readonly string[] = SERVED_REVISIONS): Answer {
  const requested = shownVersion(version);
  return failure(
    id,
    ProtocolErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${requested} (supported versions: ${supported.join(', ')})`,
    { supported, requested },
  );
}

/**
 * The presence half of the 2026-07-28 standard headers: `MCP-Protocol-Version` and `Mcp-Method`
 * on every request, `Mcp-Name` on a `tools/call` naming a tool (the SDK's classifier already
 * refused a header that contradicts the body's method or version). Null when they agree.
 */
function standardHeaderProblem(
  message: JSONRPCRequest,
  version: string | undefined,
  method: string | undefined,
  name: string | undefined,
): string | null {
  if (version === undefined) return 'the body envelope names a protocol version but the required MCP-Protocol-Version header is absent';
  if (method === undefined)
    return `the body names method ${message.method.slice(0, MAX_ECHOED)} but the required Mcp-Method header is absent`;
  if (message.method !== 'tools/call') return null;
  const toolName = (message.params as { name?: unknown } | undefined)?.name;
  if (typeof toolName !== 'string') return null;
  if (name === undefined) return 'the body names a tool but the required Mcp-Name header is absent';
  const decoded = decodeHeaderValue(name);
  if (decoded === undefined) return 'the Mcp-Name header carries an invalid Base64 sentinel value';
  if (decoded !== toolName) return 'the Mcp-Name header names another tool than the body';
  return null;
}

/** A header value as Streamable HTTP encodes non-ASCII text: `=?base64?<Base64>?=`, or as is. */
function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=')) return value;
  const encoded = value.slice('=?base64?'.length, -2);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** A result of the 2026-07-28 revision: its `resultType`, and who answered in `_meta`. */
function modernResult(result: Record<string, unknown>): Record<string, unknown> {
  return { ...result, resultType: result['resultType'] ?? 'complete', _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } };
}

async function modernRequest(message: JSONRPCRequest, ex: McpExchange, meter: RequestMeter): Promise<{ status: number; answer: Answer }> {
  const { id, method } = message;
  const ok = (result: Record<string, unknown>) => ({ status: 200, answer: { jsonrpc: '2.0' as const, id, result: modernResult(result) } });
  if (method === 'tools/call') {
    const params = message.params as Record<string, unknown> | undefined;
    const capabilities = (params?.['_meta'] as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
    const answer = await toolCall(id, params, ex, meter, { modern: true, elicitation: formElicitation(capabilities), wholeRequest: false });
    if ('error' in answer) return { status: 200, answer };
    return ok(answer.result as Record<string, unknown>);
  }
  await meter.read();
  if (method === 'server/discover') {
    return ok({
      supportedVersions: [MODERN_REVISION],
      capabilities: CAPABILITIES,
      serverInfo: SERVER_INFO,
      instructions: SERVER_INSTRUCTIONS,
      ttlMs: LIST_TTL_MS,
      cacheScope: 'public',
    });
  }
  // Which tools a key sees depends on its scopes: a shared cache must not keep the list.
  if (method === 'tools/list') return ok({ ...ex.registry.listingFor(ex.caller.scopes), ttlMs: LIST_TTL_MS, cacheScope: 'private' });
  return { status: 404, answer: failure(id, ProtocolErrorCode.MethodNotFound, `Method not found: ${method.slice(0, MAX_ECHOED)}`) };
}

/** Whether declared client capabilities include form-mode elicitation (an empty object means form). */
function formElicitation(capabilities: unknown): boolean {
  if (capabilities === null || typeof capabilities !== 'object') return false;
  const elicitation = (capabilities as { elicitation?: unknown }).elicitation;
  if (elicitation === null || typeof elicitation !== 'object') return false;
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

/**
 * One 2025-era request. The first message of a request, refused by the limits, refuses the whole
 * request before anything ran (a tool call alone is answered with the RATE_LIMITED tool error,
 * docs/contract/mcp.md); a later one of a batch is answered with the refusal.
 */
async function legacyRequest(
  message: JSONRPCRequest,
  ex: McpExchange,
  meter: RequestMeter,
  place: { first: boolean; batch: boolean },
): Promise<Answer> {
  const { id, method } = message;
  const first = place.first;
  if (method === 'tools/call')
    return toolCall(id, message.params, ex, meter, { modern: false, elicitation: false, wholeRequest: first && place.batch });
  try {
    await meter.read();
  } catch (err) {
    if (first || !(err instanceof ApiError) || err.code !== 'RATE_LIMITED') throw err;
    return failure(id, SERVER_ERROR, `Rate limited: ${err.message}`, { retry_after: err.details?.['retry_after'] });
  }
  if (method === 'initialize') return initialize(message);
  if (method === 'ping') return { jsonrpc: '2.0', id, result: {} };
  if (method === 'tools/list') return { jsonrpc: '2.0', id, result: ex.registry.listingFor(ex.caller.scopes) };
  return failure(id, ProtocolErrorCode.MethodNotFound, `Method not found: ${method.slice(0, MAX_ECHOED)}`);
}

/** The 2025 handshake: the client's revision when served, else the latest 2025 one. */
function initialize(message: JSONRPCRequest): Answer {
  const parsed = InitializeRequestSchema.safeParse(message);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path.map(String).join('.') || 'params';
    return failure(
      message.id,
      ProtocolErrorCode.InvalidParams,
      `Invalid params: ${path.slice(0, MAX_ECHOED)} is missing or malformed; initialize needs params {protocolVersion, capabilities, clientInfo: {name, version}}.`,
    );
  }
  const requested = parsed.data.params.protocolVersion;
  return {
    jsonrpc: '2.0',
    id: message.id,
    result: {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
      capabilities: CAPABILITIES,
      serverInfo: SERVER_INFO,
      instructions: SERVER_INSTRUCTIONS,
    },
  };
}

interface CallMode {
  modern: boolean;
  /** The client declared form elicitation on this request (2026-07-28 only). */
  elicitation: boolean;
  /** A refusal by the limits refuses the whole request (the first message of a batch). */
  wholeRequest: boolean;
}

/** The W3C trace context a client put in `_meta` (MCP reserves the three keys for it). */
function traceCarrierOf(params: Record<string, unknown> | undefined): Record<string, string> | undefined {
  const meta = params?.['_meta'];
  if (meta === null || typeof meta !== 'object') return undefined;
  let carrier: Record<string, string> | undefined;
  for (const key of ['traceparent', 'tracestate', 'baggage'] as const) {
    const value = (meta as Record<string, unknown>)[key];
    if (typeof value === 'string') (carrier ??= {})[key] = value;
  }
  return carrier;
}

async function toolCall(id: Id, rawParams: unknown, ex: McpExchange, meter: RequestMeter, mode: CallMode): Promise<Answer> {
  const parsed = CallToolRequestParamsSchema.safeParse(rawParams ?? null);
  const tool = parsed.success ? ex.registry.find(parsed.data.name) : undefined;
  if (!parsed.success || tool === undefined) {
    // Not an operation call, but a message all the same: it counts as a read.
    try {
      await meter.read();
    } catch (err) {
      if (mode.wholeRequest) throw err;
      return { jsonrpc: '2.0', id, result: errorResult(err) };
    }
    if (!parsed.success) return failure(id, ProtocolErrorCode.InvalidParams, paramsProblem(parsed.error.issues[0]?.path ?? []));
    return failure(id, ProtocolErrorCode.InvalidParams, `Unknown tool: ${parsed.data.name.slice(0, MAX_ECHOED)}`);
  }
  const params = rawParams as Record<string, unknown>;
  const call: Invocation = {
    caller: ex.caller,
    requestId: ex.requestId,
    log: ex.log,
    surface: 'mcp',
    language: 'argument',
    onMetered: meter.onMetered,
    onRefused: meter.onRefused,
  };
  const traceCarrier = traceCarrierOf(params);
  if (traceCarrier !== undefined) call.traceCarrier = traceCarrier;
  if (mode.modern) call.mcpProtocolVersion = MODERN_REVISION;
  if (ex.traceparent !== undefined) call.traceparent = ex.traceparent;
  const args = { ...parsed.data.arguments };
  if (mode.modern && ex.confirmation?.asks(tool.operation)) {
    const step = await ex.confirmation.step(tool.operation, args, params, call, mode.elicitation);
    if (step.kind === 'refused') return failure(id, ProtocolErrorCode.InvalidParams, step.message, { reason: 'invalid_request_state' });
    if (step.kind === 'ask') return { jsonrpc: '2.0', id, result: step.result };
    if (step.kind === 'answer') return { jsonrpc: '2.0', id, result: step.result };
    if (step.kind === 'confirmed') call.confirmation = 'client_elicitation';
  }
  return { jsonrpc: '2.0', id, result: await runTool(ex.pipeline, tool, args, call, mode.wholeRequest) };
}

/** One call of a known tool through the pipeline, as a tool result. */
export async function runTool(
  pipeline: Pipeline,
  tool: Tool,
  args: Record<string, unknown>,
  call: Invocation,
  wholeRequest = false,
): Promise<CallToolResult> {
  try {
    const result = await pipeline.invoke(tool.operation, args, call);
    const body = result.body as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  } catch (err) {
    if (wholeRequest && err instanceof ApiError && err.code === 'RATE_LIMITED') throw err;
    return errorResult(err);
  }
}

function paramsProblem(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'Invalid params: tools/call needs params {name, arguments}.';
  if (path[0] === 'name') return 'Invalid params: params.name must be the name of a tool (a string).';
  if (path[0] === 'arguments') return 'Invalid params: params.arguments must be an object of named arguments.';
  return `Invalid params: params.${path.map(String).join('.').slice(0, MAX_ECHOED)} is malformed.`;
}
