/**
 * A whole stack for end-to-end tests: the sandbox backend and a gateway built with buildApp,
 * both listening on ephemeral ports and talking real HTTP. Each test file starts its own, so
 * its world is fresh and its Redis keys (when asked for Redis) have a prefix of their own.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { configFrom, type Config } from '../../src/config.ts';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { REDIS_URL, testPrefix } from './redis.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordsInFile } from './audit.ts';

export { KEYS, USERS, MARKETS, POLLS, OPINIONS, CATEGORIES, ZONES } from '../../sandbox/ids.ts';

export const SERVICE_TOKEN = 'stack-service-token';
export const TEST_CONFIRM_KEYS = `t1:${'s'.repeat(40)}`;

export interface StackOptions {
  /** Share state through the real Redis (default: in-memory stores). */
  redis?: boolean;
  /** Reuse a sandbox (several gateways in front of one backend). */
  sandbox?: Sandbox;
  /** Redis key prefix to share between gateways of one test. */
  prefix?: string;
  env?: Partial<Record<keyof Config, string | number>>;
  now?: () => number;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Stack {
  url: string;
  sandbox: Sandbox;
  app: FastifyInstance;
  prefix: string;
  request<T = any>(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; headers?: Record<string, string>; raw?: string },
  ): Promise<Reply<T>>;
  get<T = any>(path: string, key?: string, headers?: Record<string, string>): Promise<Reply<T>>;
  post<T = any>(path: string, key: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  /** Call a sandbox admin endpoint (settle, sell, vote, audit, faults…). */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const ownSandbox = opts.sandbox === undefined;
  const sandbox = opts.sandbox ?? (await startSandbox({ serviceToken: SERVICE_TOKEN }));
  const prefix = opts.prefix ?? testPrefix('stack');
  // The audit trail goes to a file of this stack's (not the test runner's stdout); every record
  // in it is checked against the published schema when the stack closes.
  const auditDir = opts.env?.AUDIT_LOG === undefined ? mkdtempSync(join(tmpdir(), 'openpm-stack-audit-')) : null;
  const config = configFrom({
    ...(auditDir !== null && { AUDIT_LOG: join(auditDir, 'audit.jsonl') }),
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
    LOG_LEVEL: 'silent',
    CURSOR_SECRET: 'test-cursor-secret-0123456789',
    CONFIRM_KEYS: TEST_CONFIRM_KEYS,
    // A test machine busy with parallel suites can hold an event loop up past the default 250 ms:
    // that must not read as a Redis outage, so the suites that test outages set their own.
    REDIS_COMMAND_TIMEOUT_MS: '2000',
    ...(opts.redis ? { REDIS_URL, REDIS_KEY_PREFIX: prefix } : {}),
    ...opts.env,
  });
  const app = await buildApp(config, { logger: false, now: opts.now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}`;

  const request: Stack['request'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key !== undefined) headers['authorization'] = `Bearer ${o.key}`;
    let body: string | undefined = o.raw;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // keep text
    }
    return { status: res.status, headers: res.headers, body: parsed as any };
  };

  return {
    url,
    sandbox,
    app,
    prefix,
    request,
    get: (path, key, headers) => request('GET', path, { key, headers }),
    post: (path, key, body, headers) => request('POST', path, { key, body: body ?? {}, headers }),
    async admin(method, path, body) {
      const res = await fetch(`${sandbox.url}/sandbox/admin${path}`, {
        method,
        headers: { 'x-service-token': SERVICE_TOKEN, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const env = (await res.json()) as { errCode: number; data?: unknown; errMsg?: string };
      if (env.errCode !== 0) throw new Error(`sandbox admin ${method} ${path}: ${env.errCode} ${env.errMsg ?? ''}`);
      return env.data as any;
    },
    async close() {
      await app.close();
      if (ownSandbox) await sandbox.close();
      if (auditDir !== null) {
        recordsInFile(join(auditDir, 'audit.jsonl'));
        rmSync(auditDir, { recursive: true, force: true });
      }
    },
  };
}
