/** Shared pieces of the upstream client tests: a recording logger and metrics, real servers. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ApiError } from '../../src/errors/api-error.ts';
import { UpstreamClient, type UpstreamOptions, type UpstreamOutcome } from '../../src/upstream/client.ts';

export const BASE = 'http://backend.test';
export const USER = '00000000-0000-4000-8000-0000000a0001';
export const Thing = z.object({ name: z.string(), n: z.number() });
export const OK = { errCode: 0, data: { name: 'a', n: 1 } };

export interface LogLine {
  level: string;
  msg: string;
  obj: Record<string, unknown>;
}

export function recorder() {
  const lines: LogLine[] = [];
  const push = (level: string) => (obj: object, msg: string) => lines.push({ level, msg, obj: obj as Record<string, unknown> });
  return { lines, log: { warn: push('warn'), error: push('error'), info: push('info'), debug: push('debug') } };
}

export function recordingMetrics() {
  const calls: { endpoint: string; method: string; outcome: UpstreamOutcome; seconds: number }[] = [];
  return {
    calls,
    upstream: (endpoint: string, method: string, outcome: UpstreamOutcome, seconds: number) =>
      void calls.push({ endpoint, method, outcome, seconds }),
  };
}

export function makeClient(overrides: Partial<UpstreamOptions> = {}): UpstreamClient {
  return new UpstreamClient({
    baseUrl: BASE,
    serviceToken: 'svc-token',
    timeoutMs: 1_000,
    connectTimeoutMs: 200,
    connections: 8,
    maxResponseBytes: 64 * 1024,
    // Short, fixed waits keep the tests quick and deterministic.
    backoff: { baseMs: 10, maxMs: 40, random: () => 0.5 },
    ...overrides,
  });
}

export async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

export interface RealServer {
  url: string;
  port: number;
  hits: number;
  server: Server;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 (for what nock cannot do: hangs, resets, aborts). */
export async function realServer(handler: (req: IncomingMessage, res: ServerResponse, hit: number) => void): Promise<RealServer> {
  const state = { hits: 0 };
  const server = createServer((req, res) => {
    state.hits += 1;
    handler(req, res, state.hits);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get hits() {
      return state.hits;
    },
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A port nothing listens on (it was listening a moment ago): connections are refused. */
export async function refusedPort(): Promise<number> {
  const s = await realServer(() => {});
  await s.close();
  return s.port;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}
