/**
 * The application as a Fastify instance: buildApp(config) is what server.ts listens with and
 * what tests boot (on an ephemeral port, or through inject()).
 *
 * Order of the gates on /open/v1 and /mcp: kill switch (before anything, so a disabled service
 * costs the backend nothing) → per-address throttle of failed authentication →
 * authentication → per-key rate limits → the operation.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, type onRequestHookHandler } from 'fastify';
import type { Config } from './config.ts';
import { parseTrustProxy } from './config.ts';
import { authenticationHook } from './auth/plugin.ts';
import { ApiError } from './errors/api-error.ts';
import { healthRoutes } from './http/health.ts';
import { buildOpenApi } from './http/openapi.ts';
import { docsPage } from './http/docs-page.ts';
import { errorServerOptions, installErrorHandling } from './http/error-handler.ts';
import { REQUEST_ID_HEADER, genReqId } from './http/request-id.ts';
import { restRoutes } from './surfaces/rest/routes.ts';
import { createAuthThrottle } from './limits/auth-throttle.ts';
import { mcpRoutes } from './surfaces/mcp/routes.ts';
import { ToolRegistry } from './surfaces/mcp/tools.ts';
import { REST_PREFIX, surfaceOf } from './http/paths.ts';
import { OPERATIONS } from './operations/index.ts';
import { Invoker } from './operations/invoke.ts';
import { createServices, type ServiceOverrides, type Services } from './services.ts';

/** The contract caps request bodies at 16 KiB (docs/contract/errors.md#request-errors). */
export const BODY_LIMIT_BYTES = 16 * 1024;
export { MCP_PATH, REST_PREFIX } from './http/paths.ts';

export interface BuildOptions extends ServiceOverrides {
  /** Logger options or instance; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId,
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // While draining, requests already on open connections are still served in full (with the
    // contract's envelope) rather than getting Fastify's own 503 body.
    return503OnClosing: false,
    // Faults met before routing (bad URL, over-long path segment, unparsable HTTP) answer the envelope too.
    ...errorServerOptions,
  });

  const services = await createServices(config, app.log, opts);
  app.decorate('services', services);
  app.decorateRequest('caller', null);
  app.addHook('onClose', async () => services.close());
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onRequest', killSwitchGate(services));
  app.addHook('onResponse', async (request, reply) => {
    services.metrics.request(routeLabel(request), request.method, reply.statusCode, surfaceOf(request.url), reply.elapsedTime / 1000);
  });

  installErrorHandling(app);
  // Bodies are JSON only (docs/contract/errors.md#request-errors): anything else is refused rather than reaching a route.
  app.removeContentTypeParser('text/plain');

  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  await app.register(healthRoutes, {
    draining: () => draining,
    dependencies: async (): Promise<Record<string, string>> =>
      services.redis === null ? {} : { redis: (await services.redis.ping().catch(() => null)) === 'PONG' ? 'up' : 'down' },
  });

  // The contract's OpenAPI document and its human rendering, public like any API reference.
  const openapi = buildOpenApi(OPERATIONS, REST_PREFIX);
  app.get('/openapi.json', async () => openapi);
  app.get(`${REST_PREFIX}/openapi.json`, async () => openapi);
  await app.register(docsPage, { services, documentUrl: '/openapi.json', title: 'Open Prediction-Market API' });

  const throttle = await createAuthThrottle(app, {
    perMinute: config.AUTH_ATTEMPTS_PER_MINUTE,
    authenticator: services.authenticator,
    redis: services.redis,
    prefix: config.REDIS_KEY_PREFIX,
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

  await app.register(mcpRoutes, { pipeline, gates: [authenticate], registry: new ToolRegistry(OPERATIONS) });

  return app;
}

/** 503 SERVICE_DISABLED on the whole surface while the switch is fully on; health still answers. */
function killSwitchGate(services: Services): onRequestHookHandler {
  return async function killSwitch(request: FastifyRequest, _reply: FastifyReply) {
    if (services.killSwitch.current().mode !== 'all') return;
    if (surfaceOf(request.url) === 'other') return;
    throw new ApiError('SERVICE_DISABLED');
  };
}


function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/** JSON logs with keys and tokens redacted wherever they can appear. */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.confirm_token', 'confirm_token'],
      censor: '[redacted]',
    },
  };
}
