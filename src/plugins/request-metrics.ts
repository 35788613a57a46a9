/**
 * Counts every answered request (`openpm_requests_total`, by route template, method, status and
 * surface) and times it (`openpm_request_duration_seconds`, by surface). The route label is the
 * template, never the raw URL, so ids cannot grow the label set; requests that match no route
 * share the label `unmatched`. Runs on onResponse, so refusals by earlier gates count too.
 */
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { routerPath, surfaceOfPath } from '../http/paths.ts';
import type { Metrics } from '../metrics/metrics.ts';

export interface RequestMetricsOptions {
  metrics: Pick<Metrics, 'request'>;
}

const requestMetrics: FastifyPluginAsync<RequestMetricsOptions> = async (app, opts) => {
  const { metrics } = opts;
  // Callback style, as every hook that waits for nothing (docs/performance.md, kept optimisations).
  app.addHook('onResponse', (request, reply, done) => {
    // The route is read once: routeOptions builds a new object on every read.
    const route = request.routeOptions.url;
    const surface = surfaceOfPath(route ?? routerPath(request.url));
    metrics.request(route ?? 'unmatched', request.method, reply.statusCode, surface, reply.elapsedTime / 1000);
    done();
  });
};

export default fp(requestMetrics, { name: 'openpm-request-metrics', fastify: '5.x' });
