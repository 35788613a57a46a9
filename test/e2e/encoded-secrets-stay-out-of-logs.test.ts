/**
 * Keys and confirm tokens that reach the log behind an encoding (docs/operations.md, "Logs"):
 * percent-encoded in the path or the query, `+` for spaces, another letter case, an encoded
 * parameter name, a key sent as the Host header or in another header. The stack logs at `trace`
 * to a stream; the whole output is then searched for every secret sent, as written, as sent and
 * once decoded, in any case.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { configFrom } from '../../src/config.ts';
import { decodeLoosely, loggerOptions } from '../../src/http/logging.ts';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { rawExchange } from '../fuzz/raw-http.ts';
import { KEYS, SERVICE_TOKEN, TEST_CONFIRM_KEYS } from '../helpers/stack.ts';

const lines: string[] = [];
let sandbox: Sandbox;
let app: FastifyInstance;
let base: string;

const KEY = KEYS.aliceRead; // opk_test_alice_read_0000000000
const KEY_BODY = KEY.slice('opk_test_'.length);
const TOKEN = 'ct1.local.eyJqdGkiOiJzZWNyZXQtdG9rZW4ifQ.c2VjcmV0LW1hYw';
const TOKEN_MAC = 'c2VjcmV0LW1hYw';

/** Every byte of the text as %XX (the most a client can encode). */
const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
  const config = configFrom({
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
    LOG_LEVEL: 'trace',
    CURSOR_SECRET: 'test-cursor-secret-0123456789',
    CONFIRM_KEYS: TEST_CONFIRM_KEYS,
    RATE_LIMITS: 'off',
  });
  app = await buildApp(config, { logger: loggerOptions(config, { write: (l: string) => void lines.push(l) }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}`;
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

const TARGETS = [
  `/open/v1/me?apikey=opk%5Ftest%5F${KEY_BODY}`,
  `/open/v1/me?api_key=${encodeAll(KEY)}`,
  `/open/v1/me?%61pi%5Fkey=x${KEY_BODY}`,
  `/open/v1/me?Api-Key=${KEY_BODY}`,
  `/open/v1/me?API_KEY=${KEY_BODY}`,
  `/open/v1/topics/%6Fpk_test_${KEY_BODY}`,
  `/open/v1/topics/${encodeAll(KEY)}/comments`,
  `/open/v1/topics/%256Fpk_test_${KEY_BODY}`,
  `/open/v1/topics/OPK_TEST_${KEY_BODY.toUpperCase()}`,
  `/open/v1/search?q=my+key+is+opk%5Ftest%5F${KEY_BODY}`,
  `/open/v1/search?q=${encodeAll(KEY).replaceAll('%5F', '_')}`,
  `/open/v1/orders?ct=ct1%2Elocal%2EeyJqdGkiOiJzZWNyZXQtdG9rZW4ifQ%2E${TOKEN_MAC}`,
  `/open/v1/orders?x=${encodeAll(TOKEN)}`,
  `/open/v1/orders/CT1.LOCAL.EYJQDGKIOIJZZWNYZXQTDG9RZW4IFQ.${TOKEN_MAC.toUpperCase()}`,
  `/nowhere/%6Fpk_test_${KEY_BODY}?token=${TOKEN_MAC}`,
  `/docs/${encodeAll(KEY)}`,
  `/livez?${encodeAll('key')}=${KEY_BODY}`,
];

describe('secrets behind an encoding never reach the log', () => {
  it('a run of such requests leaves no key or token in any line, decoded or not', async () => {
    for (const target of TARGETS) {
      const r = await rawExchange(base, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(r.status, target).not.toBeNull();
    }
    // The key as the Host header, plain and encoded, and in another header.
    for (const host of [KEY, `opk%5Ftest%5F${KEY_BODY}`, `${KEY.toUpperCase()}:8080`]) {
      await rawExchange(base, `GET /open/v1/me HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    }
    await rawExchange(base, `GET /open/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Host: ${KEY}\r\nConnection: close\r\n\r\n`);

    const out = lines.join('');
    expect(lines.length).toBeGreaterThan(TARGETS.length);
    for (const text of [out, decodeLoosely(out, false), decodeLoosely(out, true)]) {
      const folded = text.toLowerCase();
      expect(folded).not.toContain(KEY_BODY.toLowerCase());
      expect(folded).not.toContain(TOKEN_MAC.toLowerCase());
      expect(folded).not.toContain('opk_test_');
    }
    // Redaction keeps the rest of the line readable.
    expect(out).toContain('"url":"/open/v1/topics/[redacted]"');
    expect(out).toContain('[redacted]');
  });
});
