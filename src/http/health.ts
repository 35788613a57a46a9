/**
 * Liveness and readiness, outside /open/v1 and unauthenticated (kubelet probes send no key).
 *
 * Liveness says the event loop answers. Readiness says the replica takes traffic: it turns 503
 * once the replica starts draining on shutdown, so the load balancer stops sending it requests.
 * It does not depend on Redis or the backend: an outage of either hits every replica at once,
 * and failing readiness everywhere would take the whole Service down although reads keep
 * working on their fallbacks (docs/operations.md). Their state is reported for information.
 */
import type { FastifyInstance } from 'fastify';

export interface HealthOptions {
  /** True once the replica is draining. */
  draining: () => boolean;
  /** Dependency states for the readiness body, e.g. `{redis: 'up'}`. */
  dependencies?: () => Promise<Record<string, string>>;
}

export async function healthRoutes(app: FastifyInstance, opts: HealthOptions): Promise<void> {
  app.get('/livez', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const dependencies = (await opts.dependencies?.().catch(() => ({}))) ?? {};
    const draining = opts.draining();
    return reply.code(draining ? 503 : 200).send({ status: draining ? 'draining' : 'ok', dependencies });
  });
}
