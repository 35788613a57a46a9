/**
 * Rotating every secret on a live fleet without a failed request (docs/operations.md#rotating-secrets):
 * two real gateway processes sharing the real Redis (a prefix of their own) behind a load
 * balancer this test plays, steady traffic through it, and the runbook's three rolling restarts
 * at once for CONFIRM_KEYS, the cursor secret (from CURSOR_SECRET to CURSOR_KEYS),
 * ADMIN_TOKEN and UPSTREAM_SERVICE_TOKEN, the backend (the sandbox) accepting the old and the
 * new service token between its own two steps.
 *
 * The traffic holds what clients hold across a restart: the next_cursor of an earlier page and
 * the confirm token of an earlier preview, each used on whichever replica the balancer picks
 * next, another than the one that issued it whenever two are in, so cursors and tokens issued
 * by a replica of one step are used on a replica of another. Every request
 * must succeed: zero failures. As in Kubernetes, a replica leaves the balancer and finishes what
 * it was answering before it gets SIGTERM (the chart's preStop pause), and joins once listening.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { killAll, startGateway, type GatewayProcess } from '../helpers/gateway-process.ts';
import { REDIS_URL, connectTestRedis, dropPrefix, testPrefix } from '../helpers/redis.ts';
import { KEYS, MARKETS } from '../helpers/stack.ts';

const V1 = '/open/v1';
const prefix = testPrefix('rotation');

const OLD = {
  confirm: `old:${'a'.repeat(40)}`,
  cursor: 'cursor-secret-old-0123456789',
  admin: 'admin-token-old-0123456789',
  service: 'service-token-old-0123456789',
};
const NEW = {
  confirm: `new:${'b'.repeat(40)}`,
  cursor: 'cursor-secret-new-0123456789',
  admin: 'admin-token-new-0123456789',
  service: 'service-token-new-0123456789',
};

/** The runbook's steps: what every replica runs with once the step's rolling restart is done. */
const PHASES: Record<'start' | 'add' | 'switch' | 'remove', Record<string, string>> = {
  start: { CONFIRM_KEYS: OLD.confirm, CURSOR_SECRET: OLD.cursor, ADMIN_TOKEN: OLD.admin, UPSTREAM_SERVICE_TOKEN: OLD.service },
  // 1. Add the new secrets beside the old ones; the old ones still sign; the gateway still sends the old service token.
  add: {
    CONFIRM_KEYS: `${OLD.confirm},${NEW.confirm}`,
    CONFIRM_SIGNING_KID: 'old',
    CURSOR_KEYS: `old:${OLD.cursor},new:${NEW.cursor}`,
    CURSOR_SIGNING_KID: 'old',
    ADMIN_TOKEN: `${NEW.admin},${OLD.admin}`,
    UPSTREAM_SERVICE_TOKEN: OLD.service,
  },
  // 2. Sign with the new ones and send the new service token.
  switch: {
    CONFIRM_KEYS: `${OLD.confirm},${NEW.confirm}`,
    CONFIRM_SIGNING_KID: 'new',
    CURSOR_KEYS: `old:${OLD.cursor},new:${NEW.cursor}`,
    CURSOR_SIGNING_KID: 'new',
    ADMIN_TOKEN: `${NEW.admin},${OLD.admin}`,
    UPSTREAM_SERVICE_TOKEN: NEW.service,
  },
  // 3. Remove the old ones, once nothing they signed is still in use.
  remove: { CONFIRM_KEYS: NEW.confirm, CURSOR_KEYS: `new:${NEW.cursor}`, ADMIN_TOKEN: NEW.admin, UPSTREAM_SERVICE_TOKEN: NEW.service },
};
type Phase = keyof typeof PHASES;

interface Replica {
  process: GatewayProcess;
  phase: Phase;
  inflight: number;
}

let sandbox: Sandbox;
let balancer: Replica[] = [];
let next = 0;
/** The admin token the operator's commands send: switched once every replica accepts the new one. */
let operatorToken = OLD.admin;

const failures: string[] = [];
const counts = { reads: 0, cursorsAcrossPhases: 0, cursors: 0, previews: 0, executions: 0, tokensAcrossPhases: 0, admin: 0 };
let iterations = 0;

/** Round robin; `away` prefers a replica other than that process (where a held cursor or token came from). */
function pick(away?: GatewayProcess): Replica {
  const others = balancer.filter((r) => r.process !== away);
  const from = others.length > 0 ? others : balancer;
  const r = from[next++ % from.length];
  if (r === undefined) throw new Error('no replica in the balancer');
  return r;
}

/** One request through the balancer; anything but the expected status is a failure. */
async function send(
  what: string,
  expected: number,
  path: string,
  init: { method?: string; body?: unknown; admin?: boolean; away?: GatewayProcess } = {},
): Promise<{ replica: Replica; body: any } | null> {
  const replica = pick(init.away);
  replica.inflight += 1;
  try {
    const base = init.admin === true ? replica.process.adminUrl : replica.process.url;
    const headers: Record<string, string> = { authorization: `Bearer ${init.admin === true ? operatorToken : KEYS.aliceWrite}` };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    if (res.status !== expected) {
      failures.push(`${what} on a ${replica.phase} replica: ${res.status} ${text.slice(0, 200)}`);
      return null;
    }
    return { replica, body: JSON.parse(text) };
  } catch (err) {
    failures.push(`${what} on a ${replica.phase} replica: ${(err as Error).message}`);
    return null;
  } finally {
    replica.inflight -= 1;
  }
}

/** Steady traffic until `stop()`: reads, a held cursor, a preview, a held token, an admin read. */
function traffic(): { stop(): Promise<void>; held(): { cursor?: string; token?: string } } {
  let running = true;
  let cursor: { value: string; phase: Phase; from: GatewayProcess } | undefined;
  let token: { value: string; phase: Phase; from: GatewayProcess } | undefined;
  const loop = (async () => {
    while (running) {
      const page = await send('GET /topics', 200, `${V1}/topics?limit=3`);
      if (page !== null) counts.reads += 1;
      if (cursor !== undefined) {
        const r = await send('GET /topics?cursor (held)', 200, `${V1}/topics?limit=3&cursor=${encodeURIComponent(cursor.value)}`, {
          away: cursor.from,
        });
        if (r !== null) {
          counts.cursors += 1;
          if (r.replica.phase !== cursor.phase) counts.cursorsAcrossPhases += 1;
        }
      }
      cursor =
        page === null ? undefined : { value: page.body.next_cursor as string, phase: page.replica.phase, from: page.replica.process };

      if (token !== undefined) {
        const r = await send('POST /opinions (held token)', 201, `${V1}/opinions`, {
          method: 'POST',
          body: { confirm_token: token.value },
          away: token.from,
        });
        if (r !== null) {
          counts.executions += 1;
          if (r.replica.phase !== token.phase) counts.tokensAcrossPhases += 1;
        }
      }
      const preview = await send('POST opinion-preview', 200, `${V1}/topics/${MARKETS.aliceOpen}/opinion-preview`, {
        method: 'POST',
        body: { content: `Rotation traffic, opinion ${iterations}.` },
      });
      if (preview !== null) counts.previews += 1;
      token =
        preview === null
          ? undefined
          : { value: preview.body.confirm_token as string, phase: preview.replica.phase, from: preview.replica.process };

      if ((await send('GET /kill-switch (admin)', 200, '/kill-switch', { admin: true })) !== null) counts.admin += 1;
      iterations += 1;
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
    held: () => ({ cursor: cursor?.value, token: token?.value }),
  };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

async function start(phase: Phase): Promise<Replica> {
  const gateway = await startGateway({
    UPSTREAM_URL: sandbox.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMITS: 'off',
    ...PHASES[phase],
  });
  return { process: gateway, phase, inflight: 0 };
}

/** One step of the runbook: each replica in turn leaves the balancer, drains, stops, and comes back in `phase`. */
async function rollingRestart(phase: Phase): Promise<void> {
  const replicas = balancer.length;
  for (let i = 0; i < replicas; i++) {
    const old = balancer[i] as Replica;
    balancer = balancer.filter((r) => r !== old);
    await until(() => old.inflight === 0);
    const exit = await old.process.stop();
    expect(exit.code).toBe(0);
    // A few requests reach the other replica alone before the new one joins.
    const seen = iterations;
    await until(() => iterations >= seen + 1);
    const fresh = await start(phase);
    balancer.splice(i, 0, fresh);
    const joined = iterations;
    await until(() => iterations >= joined + 2);
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: OLD.service });
  balancer = await Promise.all([start('start'), start('start')]);
}, 60_000);

afterAll(async () => {
  await killAll();
  await sandbox?.close();
  const r = await connectTestRedis();
  await dropPrefix(r, prefix);
  r.disconnect();
});

describe('rotating every secret during rolling restarts of two replicas', () => {
  it('fails no request: reads, held cursors, previews, held confirm tokens, admin reads', async () => {
    const load = traffic();
    await until(() => iterations >= 3);

    // The backend first accepts the new service token beside the old one.
    sandbox.acceptServiceTokens([OLD.service, NEW.service]);
    await rollingRestart('add');
    // Every replica accepts the new admin token: the operator's commands switch to it.
    operatorToken = NEW.admin;
    await rollingRestart('switch');

    // The old secrets may go once nothing they signed is in use: in production, after the
    // tokens' 5 minutes and as long as open cursors should last; here, once every cursor and
    // token the clients hold was issued by a replica of this step.
    const settled = iterations;
    await until(() => iterations >= settled + 2);
    expect(load.held().token).toMatch(/^ct1\.new\./);
    await rollingRestart('remove');
    // Every replica sends the new service token: the backend drops the old one.
    sandbox.acceptServiceTokens([NEW.service]);
    const after = iterations;
    await until(() => iterations >= after + 3);
    await load.stop();

    expect(failures).toEqual([]);
    expect(balancer.map((r) => r.phase)).toEqual(['remove', 'remove']);
    expect(counts.previews).toBeGreaterThanOrEqual(20);
    expect(counts.executions).toBeGreaterThanOrEqual(19);
    expect(counts.cursors).toBeGreaterThanOrEqual(19);
    // Cursors and tokens issued in one step were used on replicas of the next.
    expect(counts.cursorsAcrossPhases).toBeGreaterThan(0);
    expect(counts.tokensAcrossPhases).toBeGreaterThan(0);
    expect(counts.admin).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it('afterwards refuses what only the old secrets opened', async () => {
    const replica = balancer[0] as Replica;
    const admin = await fetch(`${replica.process.adminUrl}/kill-switch`, { headers: { authorization: `Bearer ${OLD.admin}` } });
    expect(admin.status).toBe(401);
    const backend = await fetch(`${sandbox.url}/sandbox/admin/clock`, { headers: { 'x-service-token': OLD.service } });
    expect(backend.status).toBe(401);
  });
});
