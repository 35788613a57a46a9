/**
 * The process: configuration, the embedded sandbox backend when no UPSTREAM_URL is given,
 * the app and the admin server (metrics, kill switch) on a port of its own, listen, and a
 * graceful close on SIGTERM/SIGINT: in-flight requests drain first, then the process exits 0
 * (docs/operations.md, "Shutdown").
 *
 * Once both servers listen, one JSON log line `{"msg":"gateway listening","rest":…,"mcp":…,
 * "admin":…,"port":…,"adminPort":…}` says where (PORT=0 / ADMIN_PORT=0 pick free ports).
 */
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { startTracing } from './tracing/start.ts';

/** Past this, a shutdown that is still draining gives up and exits 1. */
const SHUTDOWN_GRACE_MS = 10_000;

interface Embedded {
  config: Config;
  close(): Promise<void>;
  reset(): { now: number };
  demoKeys: readonly { key: string; note: string }[];
}

/**
 * Without UPSTREAM_URL, start the sandbox backend in this process and point the gateway at it
 * (never in production: the configuration refuses NODE_ENV=production without UPSTREAM_URL).
 */
async function withSandbox(config: Config): Promise<Embedded | null> {
  if (config.UPSTREAM_URL !== undefined) return null;
  const { startSandbox, SANDBOX_DEMO_KEYS } = await import('../sandbox/index.ts');
  const serviceToken = config.UPSTREAM_SERVICE_TOKEN ?? 'sandbox-service-token';
  const sandbox = await startSandbox({ port: config.SANDBOX_PORT, host: '127.0.0.1', serviceToken });
  return {
    config: { ...config, UPSTREAM_URL: sandbox.url, UPSTREAM_SERVICE_TOKEN: serviceToken },
    close: () => sandbox.close(),
    reset: () => sandbox.reset(),
    demoKeys: SANDBOX_DEMO_KEYS,
  };
}

async function main(): Promise<void> {
  let config: Config;
  let embedded: Embedded | null;
  try {
    config = loadConfig();
  } catch (err) {
    refuseConfig(err);
  }
  // Tracing first (off unless an exporter endpoint is set): its instrumentations patch Fastify,
  // undici and ioredis as they load, so the app and the sandbox are imported only after it.
  const tracing = await startTracing(config);
  const { buildApp, MCP_PATH, REST_PREFIX } = await import('./app.ts');
  const { buildAdminApp } = await import('./admin/app.ts');
  try {
    embedded = await withSandbox(config);
  } catch (err) {
    refuseConfig(err);
  }

  const app: FastifyInstance = await buildApp(embedded?.config ?? config);
  if (embedded !== null) app.addHook('onClose', async () => embedded.close());
  if (tracing !== null) app.addHook('onClose', async () => tracing.shutdown());
  const admin = await buildAdminApp(embedded === null ? app.services : { ...app.services, sandbox: { reset: embedded.reset } }, config, {
    loggerInstance: app.log.child({ server: 'admin' }),
  });

  let base: string;
  let adminBase: string;
  try {
    // The admin port first: a busy admin port stops the process before it takes traffic.
    adminBase = await admin.listen({ port: config.ADMIN_PORT, host: config.ADMIN_HOST });
    base = await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    app.log.fatal({ err }, `cannot listen (PORT=${config.PORT}, ADMIN_PORT=${config.ADMIN_PORT}): ${(err as Error).message}`);
    await Promise.allSettled([admin.close(), app.close()]);
    process.exit(1);
  }
  app.log.info(
    {
      rest: `${base}${REST_PREFIX}`,
      mcp: `${base}${MCP_PATH}`,
      admin: adminBase,
      port: portOf(app),
      adminPort: portOf(admin),
      killSwitch: app.services.killSwitch.current().mode,
    },
    'gateway listening',
  );
  if (embedded !== null) {
    app.log.info(
      { upstream: embedded.config.UPSTREAM_URL, keys: embedded.demoKeys },
      'running against the built-in sandbox backend; demo keys follow',
    );
    for (const k of embedded.demoKeys) process.stdout.write(`  demo key ${k.key}  ${k.note}\n`);
    process.stdout.write(
      `  try: curl -H 'Authorization: Bearer ${embedded.demoKeys[0]?.key ?? ''}' ${base}${REST_PREFIX}/topic-categories\n`,
    );
    process.stdout.write(
      `  admin: ${adminBase}/metrics, ${adminBase}/kill-switch; npm run sandbox:reset puts the sandbox back to its seed\n`,
    );
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      app.log.error({ graceMs: SHUTDOWN_GRACE_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // Node closes the connections that are idle when close() starts; a keep-alive connection
    // whose request was still in flight becomes idle only once its answer is sent, and would
    // then hold the close until its keep-alive timeout. Sweep such connections as they go idle.
    const sweep = setInterval(() => {
      app.server.closeIdleConnections();
      admin.server.closeIdleConnections();
    }, 50);
    sweep.unref();
    // The public app closes its listener, lets in-flight requests finish, then closes the
    // shared services (Redis, kill switch, backend pool); the admin server closes alongside.
    Promise.all([app.close(), admin.close()]).then(
      () => {
        app.log.info({ signal }, 'shut down');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** A configuration refusal stops the process with status 2 and one line on stderr. */
function refuseConfig(err: unknown): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.oneLine()}\n`);
    process.exit(2);
  }
  throw err;
}

function portOf(server: FastifyInstance): number {
  const addr = server.server.address();
  return typeof addr === 'object' && addr !== null ? addr.port : 0;
}

await main();
