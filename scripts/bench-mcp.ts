/**
 * Throughput of MCP `tools/call` next to the REST equivalent, on one process with the
 * embedded sandbox (rate limits off). Prints figures; it asserts nothing. The target is MCP at
 * least half of REST's requests per second.
 *
 *   node scripts/bench-mcp.ts [requests=2000] [concurrency=16]
 */
import { request } from 'undici';
import { buildApp } from '../src/app.ts';
import { configFrom } from '../src/config.ts';
import { startSandbox } from '../sandbox/index.ts';

const total = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 16);
const KEY = 'opk_test_alice_read_0000000000';

const sandbox = await startSandbox({ serviceToken: 'bench' });
const app = await buildApp(
  configFrom({ UPSTREAM_URL: sandbox.url, UPSTREAM_SERVICE_TOKEN: 'bench', LOG_LEVEL: 'silent', RATE_LIMITS: 'off' }),
  { logger: false },
);
const base = await app.listen({ port: 0, host: '127.0.0.1' });

async function run(name: string, once: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 100; i++) await once(); // warm-up
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await once();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const rps = total / seconds;
  console.log(`${name.padEnd(34)} ${rps.toFixed(0).padStart(6)} req/s  (${total} requests, concurrency ${concurrency})`);
  return rps;
}

async function expectOk(res: Awaited<ReturnType<typeof request>>): Promise<void> {
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
}

const auth = { authorization: `Bearer ${KEY}` };
const rest = await run('REST GET /open/v1/topic-categories', async () => {
  await expectOk(await request(`${base}/open/v1/topic-categories`, { headers: auth }));
});
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_topic_categories', arguments: {} } });
const mcp = await run('MCP tools/call list_topic_categories', async () => {
  await expectOk(
    await request(`${base}/mcp`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body,
    }),
  );
});
console.log(`MCP / REST = ${(mcp / rest).toFixed(2)} (target >= 0.50)`);

await app.close();
await sandbox.close();
