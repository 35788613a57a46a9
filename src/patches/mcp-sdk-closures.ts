/**
 * Keeps the closures the MCP SDK makes for each per-request server in the young generation.
 *
 * The same V8 behaviour as in ./ioredis-closures.ts: a function literal assigned straight to a
 * property is allocated in the old generation until TurboFan optimises the function around it.
 * The SDK writes four such literals per server: three in `Protocol#connect` (the transport's
 * `onclose`, `onerror` and `onmessage`) and one in the `Server` constructor
 * (`isMessageIgnored`). Each holds the server through its context, and the server holds its
 * transport, handlers and the request's messages; an old closure is a root of every scavenge
 * until the next full collection, so every MCP request answered by the SDK (all but the direct
 * `tools/call`, src/surfaces/mcp/server.ts) left some 15 KB promoted, 33 KB for a `tools/list`
 * (docs/performance.md, change 29).
 *
 * `connect` is replaced by the SDK's own code with the three closures returned from helpers (a
 * closure returned from a call is allocated young; the SDK's `Client` shares it), and `createServer` builds a `Server` the way
 * its constructor does, with `isMessageIgnored` from a helper too. Both hold only while the SDK's
 * source is the one they were written from (1.32.2): another version keeps its own code, and
 * says why.
 */
import { Server, type ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type Implementation,
  InitializedNotificationSchema,
  InitializeRequestSchema,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  LoggingLevelSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { fingerprint, isReplacement, markReplacement, originalOf, type PatchResult } from './replaced.ts';

/** SHA-256 of `Protocol#connect`'s source and of the whole `Server` class, in SDK 1.32.2. */
const FINGERPRINTS = {
  connect: 'fbc7d890dd79d714a9fe2f3129860b79ad0b9a259597bfc66a9e0f19a1dff531',
  Server: '7161c817244a27f023b9da59aa79e02ee73a1ea2c2067cb736d4ffca0b599efb',
} as const;

type Part = keyof typeof FINGERPRINTS;

/** The members of a Protocol that `connect` touches, private ones included. */
interface ProtocolInternals {
  _transport?: Transport;
  readonly transport?: Transport;
  _onclose(): void;
  _onerror(error: Error): void;
  _onresponse(message: unknown): void;
  _onrequest(message: unknown, extra: unknown): void;
  _onnotification(message: unknown): void;
}

/** The fields the `Server` constructor sets after its `super()` call. */
interface ServerInternals {
  _serverInfo: Implementation;
  _loggingLevels: Map<string | undefined, string>;
  LOG_LEVEL_SEVERITY: Map<string, number>;
  isMessageIgnored: (level: string, sessionId?: string) => boolean;
  _capabilities: NonNullable<ServerOptions['capabilities']>;
  _instructions?: string;
  _jsonSchemaValidator: NonNullable<ServerOptions['jsonSchemaValidator']>;
  _oninitialize(request: unknown): unknown;
  oninitialized?: () => void;
}

function currentParts(): Record<Part, object> {
  return { connect: Protocol.prototype.connect, Server };
}

/** The parts of the installed SDK whose source differs from the one this module was written from. */
export function mismatches(): Part[] {
  const now = currentParts();
  return (Object.keys(FINGERPRINTS) as Part[]).filter((part) => fingerprint(originalOf(now[part]).toString()) !== FINGERPRINTS[part]);
}

/**
 * Replaces `Protocol#connect` and lets `createServer` build servers by hand, once per process,
 * when both parts are the SDK's read here; says whether they are in place.
 */
export function keepSdkClosuresYoung(): PatchResult {
  const differ = mismatches();
  if (differ.length > 0)
    return { applied: false, reason: `the MCP SDK's ${differ.join(' and ')} changed since 1.32.2; its own code is used` };
  if (!isReplacement(Protocol.prototype.connect)) replaceConnect();
  return { applied: true };
}

/**
 * A `Server`, as `new Server(info, options)` makes it. Built by hand only once keepSdkClosuresYoung
 * has found the SDK's class to be the one read here, and when no logging capability is asked for
 * (the constructor then adds a handler not mirrored here); otherwise by the SDK's constructor.
 */
export function createServer(info: Implementation, options: ServerOptions): Server {
  if (!isReplacement(Protocol.prototype.connect) || options.capabilities?.logging !== undefined) return new Server(info, options);
  // Protocol's constructor with Server as the class, as `super(options)` runs it; then the rest
  // of Server's constructor, in its order, so the object has the same shape.
  const server = Reflect.construct(Protocol, [options], Server) as Server;
  const fields = server as unknown as ServerInternals;
  fields._serverInfo = info;
  fields._loggingLevels = new Map();
  fields.LOG_LEVEL_SEVERITY = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));
  fields.isMessageIgnored = messageIgnored(fields);
  fields._capabilities = options.capabilities ?? {};
  fields._instructions = options.instructions;
  fields._jsonSchemaValidator = options.jsonSchemaValidator ?? new AjvJsonSchemaValidator();
  server.setRequestHandler(InitializeRequestSchema, (request) => fields._oninitialize(request) as never);
  server.setNotificationHandler(InitializedNotificationSchema, () => fields.oninitialized?.());
  return server;
}

function messageIgnored(server: ServerInternals): ServerInternals['isMessageIgnored'] {
  return (level, sessionId) => {
    const current = server._loggingLevels.get(sessionId);
    return current ? (server.LOG_LEVEL_SEVERITY.get(level) as number) < (server.LOG_LEVEL_SEVERITY.get(current) as number) : false;
  };
}

function replaceConnect(): void {
  const original = Protocol.prototype.connect;
  const closing = (protocol: ProtocolInternals, previous: Transport['onclose']) => () => {
    previous?.();
    protocol._onclose();
  };
  const erring = (protocol: ProtocolInternals, previous: Transport['onerror']) => (error: Error) => {
    previous?.(error);
    protocol._onerror(error);
  };
  const receiving =
    (protocol: ProtocolInternals, previous: Transport['onmessage']): NonNullable<Transport['onmessage']> =>
    (message, extra) => {
      previous?.(message, extra);
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) protocol._onresponse(message);
      else if (isJSONRPCRequest(message)) protocol._onrequest(message, extra);
      else if (isJSONRPCNotification(message)) protocol._onnotification(message);
      else protocol._onerror(new Error(`Unknown message type: ${JSON.stringify(message)}`));
    };

  Protocol.prototype.connect = async function connect(this: Protocol<never, never, never>, transport: Transport): Promise<void> {
    const self = this as unknown as ProtocolInternals;
    if (self._transport)
      throw new Error(
        'Already connected to a transport. Call close() before connecting to a new transport, or use a separate Protocol instance per connection.',
      );
    self._transport = transport;
    // Not `transport.onclose = () => …` and so on: those literals are the closures V8 allocates old.
    transport.onclose = closing(self, self.transport?.onclose);
    transport.onerror = erring(self, self.transport?.onerror);
    transport.onmessage = receiving(self, self._transport?.onmessage);
    await transport.start();
  };
  markReplacement(Protocol.prototype.connect, original);
}
