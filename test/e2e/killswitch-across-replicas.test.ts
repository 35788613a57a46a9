/**
 * The kill switch across a fleet of real gateway processes sharing one Redis (DECISIONS.md
 * section 8, docs/operations.md): flipped with the CLI through one replica's admin server,
 * obeyed by every replica, REST and MCP alike, health endpoints untouched. A change reaches the
 * other replicas by pub/sub, the path the documentation gives: their poll, the fallback for a
 * missed message, is set an hour apart here, so nothing else can explain it.
 */
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { killSwitchKey } from '../../src/killswitch/redis-kill-switch.ts';
import { KEYS } from '../../sandbox/ids.ts';
import { runCli, startGateway, until, useFleet, type GatewayProcess } from '../helpers/gateway-process.ts';
import { connectTestRedis } from '../helpers/redis.ts';

const ADMIN_TOKEN = 'ops-admin-token-0123456789';
const fleet = useFleet('killswitch-replicas');
const env = (extra: Record<string, string> = {}) =>
  fleet.env({ ADMIN_TOKEN, RATE_LIMITS: 'off', KILL_SWITCH_POLL_MS: String(3_600_000), ...extra });

let replicas: GatewayProcess[] = [];

beforeAll(async () => {
  replicas = await Promise.all([startGateway(env()), startGateway(env()), startGateway(env())]);
  // A replica may listen before its subscription is in place (it waits for it a second at most):
  // a change published before then would reach it only by the poll.
  const redis = await connectTestRedis();
  try {
    await until(async () => {
      const [, subscribers] = (await redis.pubsub('NUMSUB', killSwitchKey(fleet.prefix))) as [string, number];
      return subscribers === replicas.length;
    });
  } finally {
    redis.disconnect();
  }
}, 30_000);

const rest = (g: GatewayProcess, path = '/open/v1/topic-categories') =>
  fetch(`${g.url}${path}`, { headers: { authorization: `Bearer ${KEYS.aliceRead}` } });
const mcp = (
  g: GatewayProcess,
  body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  key: string = KEYS.aliceRead,
) =>
  fetch(`${g.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
const placeOrder = (g: GatewayProcess) =>
  fetch(`${g.url}/open/v1/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEYS.aliceWrite}`, 'content-type': 'application/json' },
    body: JSON.stringify({ confirm_token: 'not-even-a-token' }),
  });
const cli = (action: string, replica: GatewayProcess, ...extra: string[]) =>
  runCli(['kill-switch', action, '--admin', replica.adminUrl, '--token', ADMIN_TOKEN, ...extra]);

/** The status of one request written by hand (a request target fetch() cannot send). */
function rawStatus(g: GatewayProcess, requestLine: string): Promise<number> {
  const { hostname, port } = new URL(g.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${requestLine}\r\nHost: ${hostname}\r\nAuthorization: Bearer ${KEYS.aliceRead}\r\nConnection: close\r\n\r\n`);
    });
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1])));
    socket.on('error', reject);
  });
}

async function errorCode(res: Response): Promise<string | undefined> {
  const body = (await res.json().catch(() => undefined)) as { error?: { code?: string } } | undefined;
  return body?.error?.code;
}

/** Every replica answers REST and MCP reads with `status`. */
async function allAnswer(status: number): Promise<boolean> {
  const results = await Promise.all(replicas.flatMap((g) => [rest(g), mcp(g)]));
  await Promise.all(results.map((r) => r.arrayBuffer()));
  return results.every((r) => r.status === status);
}

describe('kill switch across replicas', () => {
  it('serves normally before the switch', async () => {
    expect(await allAnswer(200)).toBe(true);
  });

  it('`on` through one replica refuses REST and MCP on every replica, pushed by pub/sub; health keeps answering', async () => {
    const res = await cli('on', replicas[0]!, '--reason', 'test', '--by', 'ops-e2e');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ mode: 'all', by: 'ops-e2e', reason: 'test' });

    await until(() => allAnswer(503));
    // The other replicas took it from the message, each saying so once.
    for (const g of replicas.slice(1)) {
      await until(async () => g.logs.some((l) => l['msg'] === 'kill switch is now all'));
      expect(g.logs.filter((l) => l['msg'] === 'kill switch is now all').map((l) => l['source'])).toEqual(['pubsub']);
    }
    for (const g of replicas) {
      const r = await rest(g);
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({ error: { code: 'SERVICE_DISABLED', message: expect.any(String) } });
      const m = await mcp(g);
      expect(m.status).toBe(503);
      expect(await errorCode(m)).toBe('SERVICE_DISABLED');
      expect(r.headers.get('cache-control')).toBe('no-store');
      // Before authentication: even no key gets 503, not 401.
      const anonymous = await fetch(`${g.url}/open/v1/topic-categories`);
      expect(anonymous.status).toBe(503);
      // The router serves a percent-encoded path as the decoded one; so does the switch.
      expect((await rest(g, '/%6Fpen/v1/me')).status).toBe(503);
      expect((await fetch(`${g.url}/m%63p`, { method: 'POST' })).status).toBe(503);
      // And an absolute-form request target, which the router also routes by its path.
      expect(await rawStatus(g, `GET http://127.0.0.1/open/v1/me HTTP/1.1`)).toBe(503);
      for (const path of ['/livez', '/readyz']) expect((await fetch(`${g.url}${path}`)).status).toBe(200);
      expect((await fetch(`${g.adminUrl}/livez`)).status).toBe(200);
    }

    // Any replica's admin server tells the same state.
    const status = await cli('status', replicas[2]!);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ mode: 'all', by: 'ops-e2e', reason: 'test' });
  });

  it('a replica (re)starting with KILL_SWITCH=off does not clear the switch', async () => {
    const late = await startGateway(env({ KILL_SWITCH: 'off' }));
    try {
      const r = await rest(late);
      expect(r.status).toBe(503);
      expect(await errorCode(r)).toBe('SERVICE_DISABLED');
    } finally {
      expect((await late.stop()).code).toBe(0);
    }
  });

  it('`off` restores 200 everywhere', async () => {
    const res = await cli('off', replicas[1]!, '--reason', 'test over');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ mode: 'off', reason: 'test over' });
    await until(() => allAnswer(200));
  });

  it('`writes-off` refuses writes with 503 SERVICE_DISABLED on every replica while reads work', async () => {
    const res = await cli('writes-off', replicas[2]!, '--reason', 'test writes');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ mode: 'writes', reason: 'test writes' });

    await until(async () => {
      const answers = await Promise.all(replicas.map(placeOrder));
      const codes = await Promise.all(answers.map(errorCode));
      return answers.every((r) => r.status === 503) && codes.every((c) => c === 'SERVICE_DISABLED');
    });
    expect(await allAnswer(200)).toBe(true);
    for (const g of replicas) {
      // Over MCP, the executing tool is refused as a tool error carrying the envelope.
      const call = await mcp(
        g,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'place_order', arguments: { confirm_token: 'x' } } },
        KEYS.aliceWrite,
      );
      expect(call.status).toBe(200);
      const body = (await call.json()) as { result?: { isError?: boolean; content?: { text?: string }[] } };
      expect(body.result?.isError).toBe(true);
      expect(body.result?.content?.[0]?.text).toContain('SERVICE_DISABLED');
    }

    expect((await cli('off', replicas[0]!, '--reason', 'done')).code).toBe(0);
    await until(async () => {
      const answers = await Promise.all(replicas.map(placeOrder));
      await Promise.all(answers.map((r) => r.arrayBuffer()));
      return answers.every((r) => r.status !== 503);
    });
  });

  it('the CLI fails clearly: wrong token, unreachable admin server, missing reason', async () => {
    const wrong = await runCli([
      'kill-switch',
      'on',
      '--reason',
      'x',
      '--admin',
      replicas[0]!.adminUrl,
      '--token',
      'wrong-token-0123456789',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('HTTP 401');
    expect(wrong.stderr).toContain('UNAUTHORIZED');

    const down = await runCli(['kill-switch', 'status', '--admin', 'http://127.0.0.1:9', '--token', ADMIN_TOKEN, '--timeout', '2000']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot reach the admin server');

    const noReason = await runCli(['kill-switch', 'on', '--admin', replicas[0]!.adminUrl, '--token', ADMIN_TOKEN]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');

    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('kill-switch <status|on|off|writes-off>');

    // Nothing changed.
    expect(await allAnswer(200)).toBe(true);
  });
});
