/**
 * The replica's services (src/services.ts) as `app.services`, for the process around the app
 * (server.ts hands them to the admin server) and for tests, and closed with the app: Redis, the
 * kill switch's refresh, the backend pool and the metrics' GC observer go once the last
 * in-flight request has finished.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Services } from '../services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export interface ServicesOptions {
  services: Services;
}

const services: FastifyPluginAsync<ServicesOptions> = async (app, opts) => {
  app.decorate('services', opts.services);
  app.addHook('onClose', async () => opts.services.close());
};

export default fp(services, { name: 'openpm-services', fastify: '5.x' });
