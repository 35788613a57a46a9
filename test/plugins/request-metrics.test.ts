/** The request-metrics plugin (src/plugins/request-metrics.ts), through inject(). */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/error-handler.ts';
import { ApiError } from '../../src/errors/api-error.ts';
import { Metrics } from '../../src/metrics/metrics.ts';
import requestMetrics from '../../src/plugins/request-metrics.ts';

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

describe('request-metrics plugin', () => {
  it('counts each answer by route template, method, status and surface, refusals and 404s included', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    const a = Fastify({ logger: false });
    app = a;
    installErrorHandling(a);
    await a.register(requestMetrics, { metrics });
    await a.register(
      async (api) => {
        api.get('/topics/:topic_id', async () => ({ ok: true }));
        api.get('/forbidden', async () => {
          throw new ApiError('FORBIDDEN_SCOPE');
        });
      },
      { prefix: '/open/v1' },
    );
    a.post('/mcp', async () => ({ ok: true }));

    await a.inject({ method: 'GET', url: '/open/v1/topics/a' });
    await a.inject({ method: 'GET', url: '/open/v1/topics/b' });
    await a.inject({ method: 'GET', url: '/open/v1/forbidden' });
    await a.inject({ method: 'POST', url: '/mcp', payload: {} });
    await a.inject({ method: 'GET', url: '/favicon.ico' });

    const text = await metrics.registry.metrics();
    expect(text).toContain('openpm_requests_total{route="/open/v1/topics/:topic_id",method="GET",status="200",surface="rest"} 2');
    expect(text).toContain('openpm_requests_total{route="/open/v1/forbidden",method="GET",status="403",surface="rest"} 1');
    expect(text).toContain('openpm_requests_total{route="/mcp",method="POST",status="200",surface="mcp"} 1');
    expect(text).toContain('openpm_requests_total{route="unmatched",method="GET",status="404",surface="other"} 1');
    // Never the raw URL: ids would grow the label set without bound.
    expect(text).not.toContain('/open/v1/topics/a"');
    expect(text).toContain('openpm_request_duration_seconds_count{surface="rest"} 3');
  });
});
