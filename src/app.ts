/**
 * The application as a Fastify instance: buildApp(config) is what server.ts listens with and
 * what tests boot (on an ephemeral port, or through inject()).
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { parseTrustProxy } from './config.ts';
import { authenticationHook } from './auth/plugin.ts';
import { healthRoutes } from './http/health.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { REQUEST_ID_HEADER, genReqId } from './http/request-id.ts';
import { restRoutes } from './http/rest-routes.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { ToolRegistry } from './mcp/tools.ts';
import { OPERATIONS } from './operations/index.ts';
import { createServices, type ServiceOverrides, type Services } from './services.ts';

/** The contract caps request bodies at 16 KiB (DECISIONS.md section 5). */
export const BODY_LIMIT_BYTES = 16 * 1024;
export const REST_PREFIX = '/open/v1';

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
    // Query strings are plain key=value: no nested objects to smuggle through.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });

  const services = createServices(config, app.log, opts);
  app.decorate('services', services);
  app.decorateRequest('caller', null);
  app.addHook('onClose', async () => services.close());
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  installErrorHandling(app);
  // Bodies are JSON only (SPEC 4): anything else is 415 rather than a string reaching a route.
  app.removeContentTypeParser('text/plain');

  await app.register(healthRoutes, {
    ready: services.redis === null ? undefined : async () => (await services.redis?.ping()) === 'PONG',
  });

  await app.register(
    async (api) => {
      api.addHook('onRequest', authenticationHook(services.authenticator));
      await api.register(restRoutes, { services, operations: OPERATIONS });
    },
    { prefix: REST_PREFIX },
  );

  await app.register(mcpRoutes, { services, authenticator: services.authenticator, registry: new ToolRegistry(OPERATIONS) });

  return app;
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
