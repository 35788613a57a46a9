/**
 * Liveness and readiness, outside /open/v1 and unauthenticated (kubelet probes send no key).
 * Liveness only says the event loop answers. Readiness also checks the shared store when one
 * is configured; the backend is not probed, so a backend outage does not take every replica
 * out of the Service at once (requests then fail fast with the contract's errors instead).
 */
import type { FastifyInstance } from 'fastify';

export interface HealthOptions {
  /** Resolves true when the replica can serve; absent means always ready. */
  ready?: () => Promise<boolean>;
}

export async function healthRoutes(app: FastifyInstance, opts: HealthOptions): Promise<void> {
  app.get('/livez', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ok = opts.ready === undefined ? true : await opts.ready().catch(() => false);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable' });
  });
}
