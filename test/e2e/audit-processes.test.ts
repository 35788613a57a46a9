/**
 * The audit trail across real gateway processes (docs/audit.md), records read from their stdout
 * (AUDIT_LOG's default) and through the ops CLI:
 *
 * - Redis killed while an order is in flight: the backend places it, the claim store and the
 *   Stream are gone; the answer is still the 201 and its record is still on stdout, `executed`
 *   with the order's id; the Stream's failure is counted. While Redis stays down, a refused
 *   execution is answered and recorded the same way.
 * - Two replicas sharing one Redis: `openpm-gateway audit`, asked of either, lists what both did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/record.ts';
import { genericMarketId, outcomeId } from '../../sandbox/ids.ts';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { recordsIn, validRecord } from '../helpers/audit.ts';
import { killAll, runCli, startGateway, within, type GatewayProcess } from '../helpers/gateway-process.ts';
import { PrivateRedis } from '../helpers/private-redis.ts';
import { FLEET_SECRETS, REDIS_URL, connectTestRedis, dropPrefix, testPrefix } from '../helpers/redis.ts';
import { KEYS, SERVICE_TOKEN, USERS } from '../helpers/stack.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
});
afterAll(async () => {
  await killAll();
  await sandbox?.close();
});

const gatewayEnv = (redisUrl: string, prefix: string) => ({
  UPSTREAM_URL: sandbox.url,
  UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
  REDIS_URL: redisUrl,
  REDIS_KEY_PREFIX: prefix,
  REDIS_COMMAND_TIMEOUT_MS: '200',
  RATE_LIMITS: 'off',
  ...FLEET_SECRETS,
});

async function post(
  gw: GatewayProcess,
  path: string,
  key: string,
  body: unknown,
): Promise<{ status: number; body: any; requestId: string | null }> {
  const res = await fetch(`${gw.url}/open/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), requestId: res.headers.get('x-request-id') };
}

async function orderToken(gw: GatewayProcess, topicIndex: number, amount: number, key: string = KEYS.aliceWrite): Promise<string> {
  const topic = genericMarketId(topicIndex);
  const r = await post(gw, `/topics/${topic}/order-preview`, key, { option_id: outcomeId(topic, 1), amount_coins: amount });
  expect(r.body.can_place, JSON.stringify(r.body)).toBe(true);
  return r.body.confirm_token as string;
}

const stdoutRecords = (gw: GatewayProcess): AuditRecord[] => recordsIn(gw.stdout());

async function metric(gw: GatewayProcess, name: string): Promise<number> {
  const text = await (await fetch(`${gw.adminUrl}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
}

describe('Redis killed mid-way', () => {
  let redis: PrivateRedis;
  let gw: GatewayProcess;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    gw = await startGateway(gatewayEnv(redis.url, testPrefix('audit-kill')));
  }, 30_000);
  afterAll(async () => {
    await gw?.stop();
    await redis?.stop();
  });

  it('an order in flight when Redis dies is answered 201 and recorded executed on stdout', async () => {
    const token = await orderToken(gw, 0, 11);
    // The backend takes 1.5 s to place it; Redis is killed meanwhile.
    await fetch(`${sandbox.url}/sandbox/admin/faults`, {
      method: 'POST',
      headers: { 'x-service-token': SERVICE_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', pathPrefix: '/internal/prediction/orders', delayMs: 1_500, times: 1 }),
    });
    const answer = post(gw, '/orders', KEYS.aliceWrite, { confirm_token: token });
    await new Promise((r) => setTimeout(r, 300));
    await redis.stop();
    const placed = await answer;
    expect(placed.status).toBe(201);
    const records = stdoutRecords(gw).filter((r) => r.request_id === placed.requestId);
    expect(records).toEqual([
      expect.objectContaining({ action: 'place_order', outcome: 'executed', backend_ref: placed.body.id, coins: { stake: '11.0000' } }),
    ]);
    await within(5_000, async () => (await metric(gw, 'openpm_audit_stream_failures_total')) >= 1);
    expect(gw.stdout()).toContain('audit stream append failed');
  });

  it('while Redis is down, a refused execution is still answered and recorded', async () => {
    const token = await orderToken(gw, 4, 12);
    const refused = await post(gw, '/orders', KEYS.aliceWrite, { confirm_token: token });
    expect(refused.status).toBe(500);
    expect(refused.body.error.code).toBe('CONFIRM_UNAVAILABLE');
    expect(stdoutRecords(gw).filter((r) => r.request_id === refused.requestId)).toEqual([
      expect.objectContaining({ outcome: 'refused', error_code: 'CONFIRM_UNAVAILABLE', confirm_token_id: expect.any(String) }),
    ]);
  });
});

describe('two replicas sharing one Redis', () => {
  const prefix = testPrefix('audit-fleet');
  let a: GatewayProcess;
  let b: GatewayProcess;
  beforeAll(async () => {
    [a, b] = await Promise.all([startGateway(gatewayEnv(REDIS_URL, prefix)), startGateway(gatewayEnv(REDIS_URL, prefix))]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    const r = await connectTestRedis();
    await dropPrefix(r, prefix);
    r.disconnect();
  });

  it('`openpm-gateway audit`, asked of either replica, lists the executions of both', async () => {
    const onA = await post(a, '/orders', KEYS.aliceWrite, { confirm_token: await orderToken(a, 8, 13) });
    const onB = await post(b, '/orders', KEYS.aliceWrite, { confirm_token: await orderToken(b, 12, 14) });
    const bobKey = KEYS.bobWrite;
    const bobOnB = await post(b, '/orders', bobKey, { confirm_token: await orderToken(b, 16, 2, bobKey) });
    expect([onA.status, onB.status, bobOnB.status]).toEqual([201, 201, 201]);
    // Each replica wrote its own record to its own stdout.
    expect(stdoutRecords(a).map((r) => r.request_id)).toEqual([onA.requestId]);
    expect(stdoutRecords(b).map((r) => r.request_id)).toEqual([onB.requestId, bobOnB.requestId]);

    // The Stream append runs just after the line: wait until it is there.
    await within(5_000, async () => {
      const cli = await runCli(['audit', '--admin', a.adminUrl]);
      return (JSON.parse(cli.stdout) as { records: unknown[] }).records.length === 3;
    });
    for (const gw of [a, b]) {
      const cli = await runCli(['audit', '--user', USERS.alice, '--admin', gw.adminUrl]);
      expect(cli.code, cli.stderr).toBe(0);
      const out = JSON.parse(cli.stdout) as { source: string; records: AuditRecord[] };
      expect(out.source).toBe('stream');
      expect(out.records.map((r) => validRecord(r).request_id)).toEqual([onB.requestId, onA.requestId]);
      expect(out.records.map((r) => r.backend_ref)).toEqual([onB.body.id, onA.body.id]);
    }
    const bob = await runCli(['audit', '--key', 'key_bob_write', '--limit', '5', '--admin', b.adminUrl]);
    expect((JSON.parse(bob.stdout) as { records: AuditRecord[] }).records.map((r) => [r.user_id, r.request_id])).toEqual([
      [USERS.bob, bobOnB.requestId],
    ]);
    const usage = await runCli(['audit', '--limit', '0', '--admin', a.adminUrl]);
    expect(usage.code).toBe(2);
  });
});
