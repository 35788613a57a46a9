/**
 * The MCP SDK's per-server closures made young (src/patches/mcp-sdk-closures.ts): V8 does
 * allocate them in the old generation as the SDK writes them, the replacements do not, a server
 * built by hand is the one the SDK's constructor builds (same hidden class, same handlers), and
 * a client and server speak through the replaced `connect` as before. The fingerprints tie the
 * module to the SDK it was written from: another version fails here first, and a gateway beside
 * it says so at start-up and serves MCP with that SDK's own code.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { configFrom } from '../../src/config.ts';
import { loggerOptions } from '../../src/http/logging.ts';
import { startSandbox } from '../../sandbox/index.ts';
import { KEYS, SERVICE_TOKEN, TEST_CONFIRM_KEYS } from '../helpers/stack.ts';
import { mcpClient } from '../helpers/mcp.ts';
import { createServer, keepSdkClosuresYoung, mismatches } from '../../src/patches/mcp-sdk-closures.ts';
import { originalOf } from '../../src/patches/replaced.ts';

const run = promisify(execFile);
const moduleUrl = new URL('../../src/patches/mcp-sdk-closures.ts', import.meta.url).href;
const gatewayServerUrl = new URL('../../src/surfaces/mcp/server.ts', import.meta.url).href;
const INFO = { name: 'closures-test', version: '1.0.0' };
const OPTIONS = { capabilities: { tools: {} }, instructions: 'Be brief.' };

interface Allocations {
  server: string;
  transport: string[];
  sameMap: boolean;
  gatewayFallback: string;
}

/**
 * In a fresh process whose code TurboFan does not optimise (`--no-opt`): where a server's
 * `isMessageIgnored` and a connected transport's three handlers are allocated, with the SDK's
 * code or with the replacements, whether a hand-built server has the SDK's hidden class, and
 * where the gateway's per-request server keeps its fallback handler (src/surfaces/mcp/server.ts).
 */
async function inFreshProcess(replace: boolean): Promise<Allocations> {
  const source = `
    import { Server } from '@modelcontextprotocol/sdk/server/index.js';
    import { createServer, keepSdkClosuresYoung } from ${JSON.stringify(moduleUrl)};
    import { createMcpServer } from ${JSON.stringify(gatewayServerUrl)};
    const applied = ${replace ? 'keepSdkClosuresYoung().applied' : 'false'};
    const where = (f) => (%InYoungGeneration(f) ? 'young' : 'old');
    const options = ${JSON.stringify(OPTIONS)};
    const server = createServer(${JSON.stringify(INFO)}, options);
    const sameMap = %HaveSameMap(server, new Server(${JSON.stringify(INFO)}, options));
    const transport = { start: async () => {}, send: async () => {}, close: async () => {} };
    await server.connect(transport);
    console.log(JSON.stringify({
      applied,
      server: where(server.isMessageIgnored),
      transport: [where(transport.onclose), where(transport.onerror), where(transport.onmessage)],
      sameMap,
      gatewayFallback: where(createMcpServer({ caller: { scopes: new Set(['read']) }, registry: { listingFor: () => ({ tools: [] }) } }).fallbackRequestHandler),
    }));
  `;
  const { stdout } = await run(process.execPath, ['--allow-natives-syntax', '--no-opt', '--input-type=module', '-e', source], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  const { applied, ...out } = JSON.parse(stdout) as Allocations & { applied: boolean };
  expect(applied).toBe(replace);
  return out;
}

/** The handlers a server has registered, by method. */
function handlers(server: Server): { requests: string[]; notifications: string[] } {
  const internals = server as unknown as { _requestHandlers: Map<string, unknown>; _notificationHandlers: Map<string, unknown> };
  return { requests: [...internals._requestHandlers.keys()], notifications: [...internals._notificationHandlers.keys()] };
}

describe('the closures of a per-request MCP server', () => {
  it('are written for the installed SDK', () => {
    // A new SDK: read its Protocol#connect and Server class again, then update or drop the module.
    expect(mismatches()).toEqual([]);
  });

  it('are allocated old as the SDK writes them, young once replaced', async () => {
    // The first line is V8's behaviour the module exists for: if it stops, the module can go.
    // The gateway's own handler is made young by a helper, whatever the SDK's parts.
    expect(await inFreshProcess(false)).toEqual({
      server: 'old',
      transport: ['old', 'old', 'old'],
      sameMap: true,
      gatewayFallback: 'young',
    });
    expect(await inFreshProcess(true)).toEqual({
      server: 'young',
      transport: ['young', 'young', 'young'],
      sameMap: true,
      gatewayFallback: 'young',
    });
  });

  it('build the server the SDK builds, and leave a logging server to the SDK', () => {
    expect(keepSdkClosuresYoung()).toEqual({ applied: true });
    const ours = createServer(INFO, OPTIONS);
    const sdk = new Server(INFO, OPTIONS);
    expect(Object.keys(ours)).toEqual(Object.keys(sdk));
    expect(handlers(ours)).toEqual(handlers(sdk));
    // isMessageIgnored reads the server's own levels, as the SDK's does.
    const ignored = (server: Server) => {
      const internals = server as unknown as {
        _loggingLevels: Map<string, string>;
        isMessageIgnored(level: string, session?: string): boolean;
      };
      internals._loggingLevels.set('s', 'warning');
      return ['debug', 'warning', 'error'].map((level) => [
        internals.isMessageIgnored(level, 's'),
        internals.isMessageIgnored(level, 'other'),
      ]);
    };
    expect(ignored(ours)).toEqual([
      [true, false],
      [false, false],
      [false, false],
    ]);
    expect(ignored(ours)).toEqual(ignored(sdk));
    const logging = createServer(INFO, { capabilities: { logging: {} } });
    expect(handlers(logging).requests).toContain('logging/setLevel');
  });

  it('are replaced once, and not at all in an SDK whose code differs', () => {
    expect(keepSdkClosuresYoung()).toEqual({ applied: true });
    expect(keepSdkClosuresYoung()).toEqual({ applied: true });
    const ours = Protocol.prototype.connect;
    const other = async function connect() {};
    Protocol.prototype.connect = other;
    try {
      const answer = keepSdkClosuresYoung();
      expect(answer.applied).toBe(false);
      expect(answer).toMatchObject({ reason: expect.stringContaining('connect') });
      expect(Protocol.prototype.connect).toBe(other); // left as that SDK has it
      // Nor does createServer build by hand then: the SDK's constructor does.
      expect(createServer(INFO, OPTIONS)).toBeInstanceOf(Server);
    } finally {
      Protocol.prototype.connect = ours;
    }
    expect(mismatches()).toEqual([]);
  });
});

describe('a hand-built server through the replaced connect', () => {
  async function connected(): Promise<{ server: Server; client: Client; serverSide: InMemoryTransport }> {
    expect(keepSdkClosuresYoung()).toEqual({ applied: true });
    const server = createServer(INFO, OPTIONS);
    server.fallbackRequestHandler = async (request) => {
      if (request.method === 'tools/list') return { tools: [] };
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'closures-client', version: '1.0.0' });
    await client.connect(clientSide);
    return { server, client, serverSide };
  }

  it('initialises, answers requests and notifications, and refuses a second transport', async () => {
    const { server, client, serverSide } = await connected();
    let initialised = false;
    server.oninitialized = () => {
      initialised = true;
    };
    // The client initialised on connect: the server knows it, and it knows the server.
    expect(server.getClientVersion()).toEqual({ name: 'closures-client', version: '1.0.0' });
    expect(client.getServerVersion()).toEqual(INFO);
    expect(client.getInstructions()).toBe('Be brief.');
    expect(await client.ping()).toEqual({});
    expect(await client.listTools()).toEqual({ tools: [] });
    await expect(
      client.request({ method: 'resources/list' }, (await import('@modelcontextprotocol/sdk/types.js')).ListResourcesResultSchema),
    ).rejects.toThrow(/Method not found: resources\/list/);
    await client.notification({ method: 'notifications/initialized' });
    await expect.poll(() => initialised).toBe(true);
    await expect(server.connect(serverSide)).rejects.toThrow(/Already connected/);
    await client.close();
  });

  it("hands transport errors, odd messages and the close on as the SDK's own connect does", async () => {
    expect(keepSdkClosuresYoung()).toEqual({ applied: true });
    const ours = Protocol.prototype.connect;
    const sdks = originalOf(ours) as typeof ours;
    expect(sdks).not.toBe(ours);
    const scenario = async (): Promise<string[]> => {
      const server = createServer(INFO, OPTIONS);
      const seen: string[] = [];
      server.onerror = (err) => seen.push(`server error: ${err.message}`);
      server.onclose = () => seen.push('server closed');
      const [, serverSide] = InMemoryTransport.createLinkedPair();
      serverSide.onerror = (err) => seen.push(`transport error: ${err.message}`);
      serverSide.onclose = () => seen.push('transport closed');
      await server.connect(serverSide);
      serverSide.onerror?.(new Error('boom'));
      serverSide.onmessage?.({ jsonrpc: '2.0' } as never);
      await server.close();
      return seen;
    };
    const withOurs = await scenario();
    Protocol.prototype.connect = sdks;
    let withSdks: string[];
    try {
      withSdks = await scenario();
    } finally {
      Protocol.prototype.connect = ours;
    }
    expect(withOurs).toEqual(withSdks);
    expect(withOurs.slice(0, 5)).toEqual([
      'transport error: boom',
      'server error: boom',
      expect.stringMatching(/^server error: Unknown message type/),
      'transport closed',
      'server closed',
    ]);
  });
});

describe('a gateway beside another SDK', () => {
  it("logs why at start-up, and serves MCP with the SDK's own code", async () => {
    expect(keepSdkClosuresYoung()).toEqual({ applied: true });
    const ours = Protocol.prototype.connect;
    const sdks = originalOf(ours) as typeof ours;
    // Another release's connect: the same behaviour, another source.
    Protocol.prototype.connect = async function connect(this: Protocol<never, never, never>, transport) {
      return sdks.call(this, transport);
    };
    const sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const config = configFrom({
      UPSTREAM_URL: sandbox.url,
      UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
      CONFIRM_KEYS: TEST_CONFIRM_KEYS,
      RATE_LIMITS: 'off',
    });
    const app = await buildApp(config, { logger: loggerOptions(config, stream) });
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const warnings = lines
        .map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string })
        .filter((l) => l.level === 40);
      expect(warnings).toContainEqual(
        expect.objectContaining({
          msg: expect.stringContaining('MCP SDK closures left as they are'),
          reason: expect.stringContaining('connect'),
        }),
      );
      const client = await mcpClient(base, KEYS.aliceRead);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      Protocol.prototype.connect = ours;
      await app.close();
      await sandbox.close();
    }
  });
});
