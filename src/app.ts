/**
 * The composition root: buildApp(config) is the Fastify application that server.ts listens with
 * and that tests boot (on an ephemeral port, or through inject()). It reads top to bottom in the
 * order a request meets things:
 *
 * 1. every request: its id, `Cache-Control: no-store` on /open/v1 and /mcp, the refusal of
 *    what well-formed HTTP never sends (no Host or two, a fragment), then the kill switch (503
 *    on both before anything else, so a disabled service costs the backend nothing);
 * 2. the open routes, each limited per client address: health, and the OpenAPI document and the
 *    docs pages, served prebuilt and compressed;
 * 3. /open/v1 and /mcp: the per-address throttle of failed authentication → authentication →
 *    the surface, whose one pipeline applies per-key limits, scope and validation → the operation;
 * 4. every answer: request metrics.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { parseTrustProxy } from './config.ts';
import { authenticationHook } from './auth/plugin.ts';
import { buildOpenApi } from './surfaces/rest/openapi.ts';
import { docsPage } from './surfaces/rest/docs-page.ts';
import { errorServerOptions, installErrorHandling } from './http/error-handler.ts';
import { AccessLog } from './http/access-log.ts';
import { acceptJsonBodiesOnly } from './http/json-bodies.ts';
import { loggerOptions } from './http/logging.ts';
import { genReqId } from './http/request-id.ts';
import { requestTimeoutOptions } from './http/request-timeout.ts';
import health from './plugins/health.ts';
import killSwitchGate from './plugins/kill-switch.ts';
import noStore from './plugins/no-store.ts';
import requestEdges, { requestEdgeHttpOptions } from './plugins/request-edges.ts';
import requestId from './plugins/request-id.ts';
import requestMetrics from './plugins/request-metrics.ts';
import servicesPlugin from './plugins/services.ts';
import serverTiming from './plugins/server-timing.ts';
import { restRoutes } from './surfaces/rest/routes.ts';
import { createAuthThrottle } from './limits/auth-throttle.ts';
import { createClientConfirmation } from './surfaces/mcp/confirmation.ts';
import { healthThrottle, publicThrottle } from './limits/public-throttle.ts';
import publicDocuments from './http/public-documents.ts';
import { mcpRoutes } from './surfaces/mcp/routes.ts';
import { originGate } from './surfaces/mcp/origin.ts';
import { ToolRegistry } from './surfaces/mcp/tools.ts';
import { REST_PREFIX } from './http/paths.ts';
import { OPERATIONS } from './operations/index.ts';
import { Invoker } from './operations/invoke.ts';
import { createServices, type ServiceOverrides } from './services.ts';

/** The contract caps request bodies at 16 KiB (docs/contract/errors.md#request-errors). */
export const BODY_LIMIT_BYTES = 16 * 1024;
export { MCP_PATH, REST_PREFIX } from './http/paths.ts';

export interface BuildOptions extends ServiceOverrides {
  /** Logger options or instance; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const timeouts = requestTimeoutOptions(config.REQUEST_TIMEOUT_MS);
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config),
    logController: new AccessLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId,
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    ...timeouts,
    http: { ...timeouts.http, ...requestEdgeHttpOptions },
    // While draining, requests already on open connections are still served in full (with the
    // contract's envelope) rather than getting Fastify's own 503 body.
    return503OnClosing: false,
    // Faults met before routing (bad URL, over-long path segment, unparsable HTTP) answer the envelope too.
    ...errorServerOptions,
  });

  const services = await createServices(config, app.log, opts);
  // Every audited action's counters exist from the start, at zero (docs/audit.md).
  services.audit.declare([...OPERATIONS.flatMap((op) => (op.audit === undefined ? [] : [op.audit.action])), 'kill_switch']);
  await app.register(servicesPlugin, { services });
  // Set by the authentication hook (src/auth/plugin.ts) inside /open/v1 and /mcp.
  app.decorateRequest('caller', null);

  // App-wide plugins, in the order their hooks run on every request. Server-Timing first, so
  // that its tally of backend time covers every later hook.
  if (config.SERVER_TIMING === 'on') await app.register(serverTiming);
  await app.register(requestId);
  await app.register(noStore);
  await app.register(requestEdges);
  await app.register(killSwitchGate, { killSwitch: services.killSwitch });
  await app.register(requestMetrics, { metrics: services.metrics });

  installErrorHandling(app);
  acceptJsonBodiesOnly(app);

  const throttle = await createAuthThrottle(app, {
    perMinute: config.AUTH_ATTEMPTS_PER_MINUTE,
    authenticator: services.authenticator,
    redis: services.redis,
    prefix: config.REDIS_KEY_PREFIX,
  });

  // The open routes, limited per client address: health, the contract's OpenAPI document and
  // its human rendering (public like any API reference), served prebuilt and compressed.
  const openapi = Buffer.from(JSON.stringify(buildOpenApi(OPERATIONS, REST_PREFIX)));
  await app.register(async (probes) => {
    probes.addHook('onRequest', healthThrottle(config.HEALTH_REQUESTS_PER_MINUTE, services.now));
    await probes.register(health, {
      dependencies: async (): Promise<Record<string, string>> =>
        services.redis === null ? {} : { redis: (await services.redis.ping().catch(() => null)) === 'PONG' ? 'up' : 'down' },
    });
  });
  await app.register(async (documents) => {
    documents.addHook('onRequest', publicThrottle(app, config.PUBLIC_REQUESTS_PER_MINUTE));
    const paths = ['/openapi.json', `${REST_PREFIX}/openapi.json`];
    await documents.register(publicDocuments, { prepare: Object.fromEntries(paths.map((p) => [p, openapi])) });
    for (const path of paths) documents.get(path, async (_request, reply) => reply.type('application/json; charset=utf-8').send(openapi));
    await documents.register(docsPage, { services, documentUrl: '/openapi.json', title: 'Open Prediction-Market API' });
  });

  const authenticate = authenticationHook(services.authenticator, throttle);
  // One pipeline for every operation call, whichever surface carries it.
  const pipeline = new Invoker(services);

  await app.register(
    async (api) => {
      api.addHook('onRequest', authenticate);
      await api.register(restRoutes, { pipeline, operations: OPERATIONS });
    },
    { prefix: REST_PREFIX },
  );

  const registry = new ToolRegistry(OPERATIONS);
  await app.register(mcpRoutes, {
    pipeline,
    gates: [originGate(config.MCP_ALLOWED_ORIGINS), authenticate],
    registry,
    confirmation:
      config.MCP_CLIENT_CONFIRMATION === 'on'
        ? createClientConfirmation({ tokens: services.confirm.tokens, pipeline, registry, now: services.now })
        : null,
  });

  return app;
}
