/**
 * The process: configuration, the embedded sandbox backend when no UPSTREAM_URL is given,
 * the app, listen, and a graceful close on SIGTERM/SIGINT (in-flight requests drain first).
 */
import type { FastifyInstance } from 'fastify';
import { buildApp, REST_PREFIX } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';

interface Embedded {
  config: Config;
  close(): Promise<void>;
  demoKeys: readonly { key: string; note: string }[];
}

/** Without UPSTREAM_URL, start the sandbox backend in this process and point the gateway at it. */
async function withSandbox(config: Config): Promise<Embedded | null> {
  if (config.UPSTREAM_URL !== undefined) return null;
  const { startSandbox, SANDBOX_DEMO_KEYS } = await import('../fixtures/sandbox/index.ts');
  const serviceToken = config.UPSTREAM_SERVICE_TOKEN ?? 'sandbox-service-token';
  const sandbox = await startSandbox({ port: config.SANDBOX_PORT, host: '127.0.0.1', serviceToken });
  return {
    config: { ...config, UPSTREAM_URL: sandbox.url, UPSTREAM_SERVICE_TOKEN: serviceToken },
    close: () => sandbox.close(),
    demoKeys: SANDBOX_DEMO_KEYS,
  };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }

  const embedded = await withSandbox(config);
  const app: FastifyInstance = await buildApp(embedded?.config ?? config);
  if (embedded !== null) app.addHook('onClose', async () => embedded.close());

  const base = await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ rest: `${base}${REST_PREFIX}`, mcp: `${base}/mcp` }, 'gateway listening');
  if (embedded !== null) {
    app.log.info(
      { upstream: embedded.config.UPSTREAM_URL, keys: embedded.demoKeys },
      'running against the built-in sandbox backend; demo keys follow',
    );
    for (const k of embedded.demoKeys) process.stdout.write(`  demo key ${k.key}  ${k.note}\n`);
    process.stdout.write(`  try: curl -H 'Authorization: Bearer ${embedded.demoKeys[0]?.key ?? ''}' ${base}${REST_PREFIX}/topic-categories\n`);
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
