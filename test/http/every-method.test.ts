/**
 * Every method Node's HTTP parser accepts, sent to every kind of path through a real socket, is
 * answered below 500, with the contract's envelope wherever the answer is an error, and leaves
 * no error line in the log: an unknown or malformed request is the caller's fault, never ours
 * (docs/contract/errors.md#request-errors).
 */
import { METHODS } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { configFrom } from '../../src/config.ts';
import { ERROR_CODES } from '../../src/contract/common.ts';
import { loggerOptions } from '../../src/http/logging.ts';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { rawExchange } from '../fuzz/raw-http.ts';
import { KEYS, SERVICE_TOKEN, TEST_CONFIRM_KEYS } from '../helpers/stack.ts';

const PATHS = {
  restGet: '/open/v1/topic-categories',
  restPost: '/open/v1/orders',
  livez: '/livez',
  readyz: '/readyz',
  mcp: '/mcp',
  unknown: '/no/such/path',
  docs: '/docs',
  openapi: '/openapi.json',
} as const;

let sandbox: Sandbox;
let app: FastifyInstance;
let url: string;
const lines: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
  const config = configFrom({
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
    LOG_LEVEL: 'info',
    CURSOR_SECRET: 'test-cursor-secret-0123456789',
    CONFIRM_KEYS: TEST_CONFIRM_KEYS,
    RATE_LIMITS: 'off',
    // Every path is to be reached, not refused for the address's budget.
    PUBLIC_REQUESTS_PER_MINUTE: '100000',
  });
  app = await buildApp(config, { logger: loggerOptions(config, { write: (line: string) => void lines.push(line) }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  url = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}`;
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

/** Answers that are not errors and not the envelope by design. */
function documentedNonEnvelope(method: string, kind: keyof typeof PATHS, status: number, body: string): boolean {
  if (method === 'HEAD') return body === '';
  if (status < 400) return true; // health, docs, the OpenAPI document, an OPTIONS or a redirect
  // /mcp answers its protocol faults (a 405, a missing Accept) as JSON-RPC errors (docs/contract/mcp.md#tool-errors).
  if (kind === 'mcp' && (JSON.parse(body) as { jsonrpc?: unknown }).jsonrpc === '2.0') return true;
  // Readiness while draining: not the case here.
  return false;
}

describe('every method to every kind of path', () => {
  const cases = METHODS.flatMap((method) => Object.entries(PATHS).map(([kind, path]) => ({ method, kind, path })));

  it.each(cases)('$method $path', async ({ method, kind, path }) => {
    const before = lines.length;
    for (const auth of [false, true]) {
      const head = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth ? `Authorization: Bearer ${KEYS.aliceRead}\r\n` : ''}Connection: close\r\n\r\n`;
      const r = await rawExchange(url, head);
      expect(r.status, r.text).not.toBeNull();
      expect(r.status as number, r.text).toBeLessThan(500);
      if (!documentedNonEnvelope(method, kind as keyof typeof PATHS, r.status as number, r.body)) {
        const error = (JSON.parse(r.body) as { error?: { code?: string; message?: string } }).error;
        expect(ERROR_CODES, r.text).toContain(error?.code);
        expect(typeof error?.message).toBe('string');
      }
    }
    const errors = lines.slice(before).filter((l) => (JSON.parse(l) as { level: number }).level >= 50);
    expect(errors).toEqual([]);
  });
});
