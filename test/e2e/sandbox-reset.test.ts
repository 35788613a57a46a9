/**
 * `npm run sandbox:reset` (docs/contract/sandbox.md#reset): the gateway as `npm start` runs it, with its
 * built-in sandbox, put back to the seed through its admin port without a restart, so the
 * README's quick-start order can be placed again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeId } from '../../sandbox/ids.ts';
import { killAll, runCli, startGateway, type GatewayProcess } from '../helpers/gateway-process.ts';
import { KEYS } from '../helpers/stack.ts';

/** The README's quick-start market (one that the docs page's examples leave alone). */
const TOPIC = '00000000-0000-4000-8000-0000000b0118';
let gateway: GatewayProcess;

beforeAll(async () => {
  gateway = await startGateway({});
}, 30_000);

afterAll(async () => {
  await killAll();
});

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${gateway.url}/open/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEYS.aliceWrite}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const preview = () => post(`/topics/${TOPIC}/order-preview`, { option_id: outcomeId(TOPIC, 1), amount_coins: 25 });

describe('sandbox reset', () => {
  it('lets the quick-start order be placed again, with no restart', async () => {
    const first = await preview();
    expect([first.status, first.body.can_place]).toEqual([200, true]);
    expect((await post('/orders', { confirm_token: first.body.confirm_token })).status).toBe(201);
    const again = await preview();
    expect([again.body.can_place, again.body.reason]).toEqual([false, 'ALREADY_STAKED']);

    const reset = await runCli(['sandbox', 'reset', '--admin', gateway.adminUrl]);
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout)).toMatchObject({ reset: true });

    const fresh = await preview();
    expect([fresh.status, fresh.body.can_place]).toEqual([200, true]);
    expect(gateway.child.exitCode).toBeNull();
  });

  it('says where to look when the admin port has no sandbox', async () => {
    const r = await runCli(['sandbox', 'reset', '--admin', gateway.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('HTTP 404');
  });
});
