/**
 * Graceful shutdown of a real gateway process (docs/operations.md, "Shutdown"): on SIGTERM the
 * listener closes, a request in flight still completes with 200, then the process exits 0.
 */
import { describe, expect, it } from 'vitest';
import { KEYS } from '../../sandbox/ids.ts';
import { startGateway, useFleet, within } from '../helpers/gateway-process.ts';

const fleet = useFleet('graceful-shutdown');

async function slowCategories(delayMs: number): Promise<void> {
  const res = await fetch(`${fleet.sandbox.url}/sandbox/admin/faults`, {
    method: 'POST',
    headers: { 'x-service-token': fleet.serviceToken, 'content-type': 'application/json' },
    body: JSON.stringify({ pathPrefix: '/internal/prediction/categories', delayMs, times: 1 }),
  });
  expect(res.status).toBe(200);
}

describe('graceful shutdown', () => {
  it('SIGTERM lets an in-flight request finish with 200, then exits 0', async () => {
    const gw = await startGateway(
      fleet.env({
        RATE_LIMITS: 'off',
        // At debug the gateway logs each request as it arrives, which tells this test when to stop it.
        LOG_LEVEL: 'debug',
      }),
    );
    // Authenticate the key once, so the slow request waits only on the categories call.
    expect((await fetch(`${gw.url}/open/v1/me`, { headers: { authorization: `Bearer ${KEYS.aliceRead}` } })).status).toBe(200);

    await slowCategories(1_500);
    let stopAsked = false;
    let answeredAfterStop = false;
    const inFlight = fetch(`${gw.url}/open/v1/topic-categories`, { headers: { authorization: `Bearer ${KEYS.aliceRead}` } });
    void inFlight.then(() => {
      answeredAfterStop = stopAsked;
    });
    // Wait until the gateway logged the incoming request, then ask it to stop.
    await within(2_000, async () =>
      gw.logs.some(
        (l) => l['msg'] === 'incoming request' && (l['req'] as { url?: string } | undefined)?.url === '/open/v1/topic-categories',
      ),
    );
    stopAsked = true;
    gw.child.kill('SIGTERM');

    const res = await inFlight;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data?: unknown[] };
    expect(Array.isArray(body.data)).toBe(true);
    // The request was held by the slow backend when the stop came, and still answered.
    expect(answeredAfterStop).toBe(true);

    const exit = await gw.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const messages = gw.logs.map((l) => l['msg']);
    expect(messages).toContain('shutting down: draining in-flight requests');
    expect(messages.indexOf('shut down')).toBeGreaterThan(messages.lastIndexOf('request completed'));

    // The listener is gone.
    await expect(fetch(`${gw.url}/livez`)).rejects.toThrow();
  });
});
