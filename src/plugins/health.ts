/**
 * Liveness and readiness, outside /open/v1 and unauthenticated (kubelet probes send no key).
 *
 * Liveness says the event loop answers. Readiness says the replica takes traffic: it turns 503
 * once the replica starts draining on shutdown (Fastify's preClose, before the listener stops),
 * so the load balancer stops sending it requests while those in flight finish. It does not
 * depend on Redis or the backend: an outage of either hits every replica at once, and failing
 * readiness everywhere would take the whole Service down although reads keep working on their
 * fallbacks (docs/operations.md). Their state is reported for information only.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export interface HealthOptions {
  /** Dependency states for the readiness body, e.g. `{redis: 'up'}`; a failure reports none. */
  dependencies?: () => Promise<Record<string, string>>;
}

const health: FastifyPluginAsync<HealthOptions> = async (app, opts) => {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });

  app.get('/livez', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const dependencies = (await opts.dependencies?.().catch(() => ({}))) ?? {};
    return reply.code(draining ? 503 : 200).send({ status: draining ? 'draining' : 'ok', dependencies });
  });
};

export default fp(health, { name: 'openpm-health', fastify: '5.x' });
