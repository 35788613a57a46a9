/** Every backend request is measured by endpoint template, method and outcome. */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Metrics } from '../../src/metrics/metrics.ts';
import { BASE, OK, Thing, failure, makeClient, recorder, recordingMetrics } from './helpers.ts';

const rec = recorder();
const ctx = { requestId: 'req-m', log: rec.log };
const M = '00000000-0000-4000-8000-0000000b0001';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('upstream metrics', () => {
  it('ok, error (a business code) and failed (5xx, malformed), with ids templated', async () => {
    nock(BASE)
      .get(`/internal/prediction/markets/${M}`)
      .reply(200, OK)
      .get(`/internal/prediction/markets/${M}`)
      .reply(404, { errCode: 30001, errMsg: 'no' })
      .post(`/internal/prediction/markets/${M}/quote`)
      .reply(500, { errCode: 99999 })
      .get('/internal/users/by-handle/erin/created')
      .reply(200, '{oops')
      .get('/internal/zones')
      .reply(200, { errCode: 0, data: { wrong: 1 } });
    const metrics = recordingMetrics();
    const c = makeClient({ metrics, retries: 0 });
    await c.call(ctx, { path: `/internal/prediction/markets/${M}`, schema: Thing });
    await failure(c.call(ctx, { path: `/internal/prediction/markets/${M}`, schema: Thing }));
    await failure(c.call(ctx, { method: 'POST', path: `/internal/prediction/markets/${M}/quote`, body: {}, schema: Thing }));
    await failure(c.call(ctx, { path: '/internal/users/by-handle/erin/created', schema: Thing }));
    await failure(c.call(ctx, { path: '/internal/zones', schema: Thing }));
    expect(metrics.calls.map((m) => [m.endpoint, m.method, m.outcome])).toEqual([
      ['/internal/prediction/markets/{id}', 'GET', 'ok'],
      ['/internal/prediction/markets/{id}', 'GET', 'error'],
      ['/internal/prediction/markets/{id}/quote', 'POST', 'failed'],
      ['/internal/users/by-handle/{handle}/created', 'GET', 'failed'],
      ['/internal/zones', 'GET', 'failed'],
    ]);
    for (const m of metrics.calls) expect(m.seconds).toBeGreaterThanOrEqual(0);
  });

  it('feeds the Prometheus histogram of src/metrics', async () => {
    nock(BASE).get('/internal/zones').reply(200, OK);
    const metrics = new Metrics({ defaultMetrics: false });
    await makeClient({ metrics }).call(ctx, { path: '/internal/zones', schema: Thing });
    expect(await metrics.registry.metrics()).toContain(
      'openpm_upstream_request_duration_seconds_count{endpoint="/internal/zones",method="GET",outcome="ok"} 1',
    );
  });
});
