/**
 * The kill switch: the in-memory and the Redis-backed implementation pass the same behavioural
 * tests; the Redis one also propagates between replicas (pub/sub, and the poll when a message
 * is missed), honours KILL_SWITCH at start-up and survives a Redis outage.
 */
import { createServer, Socket, type Server } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../src/config.ts';
import { createKillSwitch, startupState } from '../../src/killswitch/index.ts';
import { killSwitchKey, RedisKillSwitch } from '../../src/killswitch/redis-kill-switch.ts';
import { KillSwitchUnavailableError, MemoryKillSwitch, OFF, type KillState, type KillSwitch } from '../../src/killswitch/kill-switch.ts';
import { connectRedis, redisReady } from '../../src/store/redis.ts';
import { connectTestRedis, dropPrefix, FLEET_SECRETS, REDIS_URL, testPrefix } from '../helpers/redis.ts';

interface Line {
  level: 'info' | 'warn';
  obj: Record<string, unknown>;
  msg: string;
}
function recorder() {
  const lines: Line[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => void lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    warn: (obj: object, msg: string) => void lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
  };
}

const T0 = Date.parse('2030-01-02T03:04:05.000Z');
const fixedNow = () => T0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually(check: () => boolean | Promise<boolean>, withinMs: number): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > withinMs) throw new Error(`condition not met within ${withinMs} ms`);
    await sleep(10);
  }
  return Date.now() - start;
}

let admin: Redis;
const prefixes: string[] = [];
const closers: (() => Promise<void> | void)[] = [];
function prefix(name: string): string {
  const p = testPrefix(`killswitch-${name}`);
  prefixes.push(p);
  return p;
}
/** A replica's connection as the gateway makes it (no offline queue, short timeouts). */
async function replicaRedis(url = REDIS_URL): Promise<Redis> {
  const r = connectRedis({ url, commandTimeoutMs: 250 });
  r.on('error', () => {});
  closers.push(() => r.disconnect());
  await redisReady(r, 2_000);
  return r;
}
async function openRedisSwitch(
  p: string,
  opts: { pollMs?: number; startup?: 'on' | 'off'; redis?: Redis; log?: ReturnType<typeof recorder> } = {},
) {
  const redis = opts.redis ?? (await replicaRedis());
  const startup = opts.startup ?? 'off';
  const ks = await RedisKillSwitch.open(redis, {
    prefix: p,
    pollMs: opts.pollMs ?? 60_000,
    log: opts.log ?? recorder(),
    now: fixedNow,
    startup,
    startupState: startupState(configFrom({ KILL_SWITCH: startup }), fixedNow),
  });
  closers.push(() => ks.close());
  return ks;
}

beforeAll(async () => {
  admin = await connectTestRedis();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(async () => {
  for (const p of prefixes) await dropPrefix(admin, p);
  admin.disconnect();
});

// ---------------------------------------------------------------------------------------------
// Both implementations behave the same.
describe.each([
  ['memory', async (log = recorder()): Promise<KillSwitch> => new MemoryKillSwitch(OFF, fixedNow, log)],
  ['redis', async (log = recorder()): Promise<KillSwitch> => openRedisSwitch(prefix('same'), { log })],
])('%s kill switch', (_name, make) => {
  it('starts off, with no author', async () => {
    const ks = await make();
    expect(ks.current()).toEqual({ mode: 'off', by: null, reason: null, at: null });
  });

  it('set returns the new state with who, why and when, and current() shows it at once', async () => {
    const ks = await make();
    const state = await ks.set('all', 'ops-oncall', 'incident 42');
    expect(state).toEqual({ mode: 'all', by: 'ops-oncall', reason: 'incident 42', at: '2030-01-02T03:04:05.000Z' });
    expect(ks.current()).toEqual(state);
  });

  it('goes through every mode and back to off', async () => {
    const ks = await make();
    for (const mode of ['writes', 'all', 'off', 'writes', 'off'] as const) {
      await ks.set(mode, 'tester', `to ${mode}`);
      expect(ks.current().mode).toBe(mode);
    }
  });

  it('logs every change at warn level with who, when and why', async () => {
    const log = recorder();
    const ks = await make(log);
    await ks.set('writes', 'alice-ops', 'backend maintenance');
    const line = log.lines.find((l) => l.level === 'warn' && l.msg.includes('kill switch set to writes'));
    expect(line).toBeDefined();
    expect(line?.msg).toContain('alice-ops');
    expect(line?.msg).toContain('backend maintenance');
    expect(line?.obj['killSwitch']).toMatchObject({
      mode: 'writes',
      by: 'alice-ops',
      reason: 'backend maintenance',
      at: '2030-01-02T03:04:05.000Z',
    });
  });

  it('closes more than once without failing', async () => {
    const ks = await make();
    await ks.close();
    await ks.close();
  });
});

// ---------------------------------------------------------------------------------------------
describe('redis kill switch across replicas', () => {
  it('stores the state as JSON under <prefix>kill-switch', async () => {
    const p = prefix('key');
    const ks = await openRedisSwitch(p);
    await ks.set('writes', 'ops', 'why not');
    expect(JSON.parse((await admin.get(`${p}kill-switch`)) ?? 'null')).toEqual({
      mode: 'writes',
      by: 'ops',
      reason: 'why not',
      at: '2030-01-02T03:04:05.000Z',
      seq: 1,
    });
    await ks.set('off', 'ops', 'again');
    expect(JSON.parse((await admin.get(`${p}kill-switch`)) ?? 'null')).toMatchObject({ mode: 'off', seq: 2 });
    expect(killSwitchKey(p)).toBe(`${p}kill-switch`);
  });

  it('a set on one replica is seen by another by pub/sub alone', async () => {
    const p = prefix('pubsub');
    // A poll of a minute: only pub/sub can deliver within the second.
    const a = await openRedisSwitch(p, { pollMs: 60_000 });
    const b = await openRedisSwitch(p, { pollMs: 60_000 });
    await a.set('all', 'ops', 'incident');
    // Well before the next poll, a minute away.
    await eventually(() => b.current().mode === 'all', 10_000);
    expect(b.current()).toEqual(a.current());
    await b.set('off', 'ops', 'resolved');
    await eventually(() => a.current().mode === 'off', 1_000);
    expect(a.current()).toMatchObject({ mode: 'off', reason: 'resolved' });
  });

  it('rapid changes from two replicas end in the same, last written state everywhere', async () => {
    const p = prefix('race');
    const a = await openRedisSwitch(p, { pollMs: 60_000 });
    const b = await openRedisSwitch(p, { pollMs: 60_000 });
    const modes = ['writes', 'all', 'off', 'writes', 'all', 'off', 'all'] as const;
    for (const [i, mode] of modes.entries()) {
      const ks = i % 2 === 0 ? a : b;
      await ks.set(mode, `replica-${i % 2}`, `step ${i}`);
      // The replica that wrote sees its write at once, whatever messages are still on the way.
      expect(ks.current()).toMatchObject({ mode, reason: `step ${i}` });
    }
    await Promise.all([a.set('writes', 'a', 'together'), b.set('all', 'b', 'together')]);
    const stored = JSON.parse((await admin.get(`${p}kill-switch`)) ?? '{}') as KillState;
    await eventually(() => a.current().mode === stored.mode && b.current().mode === stored.mode, 1_000);
    await sleep(50);
    expect(a.current()).toEqual(b.current());
    expect(a.current()).toMatchObject({ mode: stored.mode, by: stored.by });
  });

  it('the poll catches a change whose message was missed', async () => {
    const p = prefix('poll');
    const a = await openRedisSwitch(p, { pollMs: 100 });
    // Written behind pub/sub's back: no message is published.
    const state: KillState = { mode: 'writes', by: 'someone', reason: 'direct write', at: '2030-01-01T00:00:00.000Z' };
    await admin.set(`${p}kill-switch`, JSON.stringify(state));
    await eventually(() => a.current().mode === 'writes', 1_000);
    expect(a.current()).toEqual(state);
    // A deleted key is no `off`: the replica keeps `writes` and writes it back (fail-safe.redis.test.ts).
    await admin.del(`${p}kill-switch`);
    await eventually(async () => JSON.parse((await admin.get(`${p}kill-switch`)) ?? '{}').mode === 'writes', 1_000);
    expect(a.current().mode).toBe('writes');
    // A hand-written off is an explicit off, and is obeyed.
    await admin.set(`${p}kill-switch`, JSON.stringify({ ...state, mode: 'off' }));
    await eventually(() => a.current().mode === 'off', 1_000);
  });

  it('a replica starting later reads the shared state (KILL_SWITCH=off leaves it alone)', async () => {
    const p = prefix('later');
    const a = await openRedisSwitch(p);
    await a.set('writes', 'ops', 'maintenance');
    const b = await openRedisSwitch(p, { startup: 'off' });
    expect(b.current()).toMatchObject({ mode: 'writes', by: 'ops', reason: 'maintenance' });
    expect(JSON.parse((await admin.get(`${p}kill-switch`)) ?? '{}').mode).toBe('writes');
  });

  it('KILL_SWITCH=on turns the shared switch to all, unless it already is', async () => {
    const p = prefix('startup-on');
    const a = await openRedisSwitch(p, { pollMs: 60_000 });
    const b = await openRedisSwitch(p, { startup: 'on' });
    expect(b.current()).toMatchObject({ mode: 'all', by: 'KILL_SWITCH environment' });
    await eventually(() => a.current().mode === 'all', 1_000);

    // Already all (set by a person): a restarting replica with KILL_SWITCH=on keeps their note.
    await a.set('all', 'ops', 'incident 7');
    await eventually(() => b.current().by === 'ops', 1_000);
    const c = await openRedisSwitch(p, { startup: 'on' });
    expect(c.current()).toMatchObject({ mode: 'all', by: 'ops', reason: 'incident 7' });

    // `writes` is not `all`: KILL_SWITCH=on escalates it.
    await a.set('writes', 'ops', 'reads only');
    const d = await openRedisSwitch(p, { startup: 'on' });
    expect(d.current()).toMatchObject({ mode: 'all', by: 'KILL_SWITCH environment' });
  });

  it('ignores a malformed stored value and keeps the last known state', async () => {
    const p = prefix('malformed');
    const log = recorder();
    const a = await openRedisSwitch(p, { pollMs: 50, log });
    await a.set('writes', 'ops', 'x');
    await admin.set(`${p}kill-switch`, '{"mode":"sideways"}');
    await sleep(200);
    expect(a.current().mode).toBe('writes');
  });

  it('createKillSwitch uses Redis when a connection is given, memory otherwise', async () => {
    const p = prefix('factory');
    const log = recorder();
    const redis = await replicaRedis();
    const shared = await createKillSwitch(
      configFrom({ ...FLEET_SECRETS, REDIS_URL, REDIS_KEY_PREFIX: p, KILL_SWITCH: 'on', KILL_SWITCH_POLL_MS: 100 }),
      redis,
      log,
      fixedNow,
    );
    closers.push(() => shared.close());
    expect(shared).toBeInstanceOf(RedisKillSwitch);
    expect(shared.current().mode).toBe('all');
    expect(JSON.parse((await admin.get(`${p}kill-switch`)) ?? '{}').mode).toBe('all');

    const local = await createKillSwitch(configFrom({ KILL_SWITCH: 'on' }), null, log, fixedNow);
    expect(local).toBeInstanceOf(MemoryKillSwitch);
    expect(local.current()).toMatchObject({ mode: 'all', by: 'KILL_SWITCH environment' });
    expect((await createKillSwitch(configFrom({}), null, log, fixedNow)).current()).toEqual(OFF);
  });
});

// ---------------------------------------------------------------------------------------------
/** A TCP proxy in front of the real Redis that the test can take down and bring back. */
class Outage {
  #server: Server | null = null;
  #sockets = new Set<Socket>();
  port = 0;
  readonly #target = new URL(REDIS_URL);

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(Number(this.#target.port || 6379), this.#target.hostname);
      this.#sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.#sockets.delete(client);
        this.#sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
    const addr = server.address();
    this.port = typeof addr === 'object' && addr !== null ? addr.port : 0;
    this.#server = server;
  }

  async down(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const s of this.#sockets) s.destroy();
    this.#sockets.clear();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    const u = new URL(REDIS_URL);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }
}

describe('redis kill switch while Redis is away', () => {
  it('keeps the last known state, refuses set() with a clear error, and recovers', async () => {
    const p = prefix('outage');
    const outage = new Outage();
    await outage.up();
    closers.push(() => outage.down());
    const log = recorder();
    const redis = await replicaRedis(outage.url);
    const a = await openRedisSwitch(p, { pollMs: 50, redis, log });
    await a.set('all', 'ops', 'incident');

    await outage.down();
    await sleep(200); // several failed polls
    expect(a.current()).toMatchObject({ mode: 'all', by: 'ops' });
    await expect(a.set('off', 'ops', 'too early')).rejects.toBeInstanceOf(KillSwitchUnavailableError);
    await expect(a.set('off', 'ops', 'too early')).rejects.toThrow(/shared store \(Redis\)/);
    expect(a.current().mode).toBe('all');
    expect(log.lines.filter((l) => l.msg.includes('unreachable'))).toHaveLength(1); // once per outage

    // Meanwhile the fleet turned it off; once Redis is back, this replica follows.
    await admin.set(`${p}kill-switch`, JSON.stringify({ mode: 'off', by: 'ops', reason: 'over', at: '2030-01-01T00:00:00.000Z' }));
    await outage.up();
    await eventually(() => a.current().mode === 'off', 3_000);
    expect(log.lines.some((l) => l.msg.includes('reachable again'))).toBe(true);
  });

  it('starts from KILL_SWITCH when Redis is unreachable, and writes `on` once it answers', async () => {
    const p = prefix('outage-start');
    const outage = new Outage();
    await outage.up();
    const port = outage.port;
    await outage.down();
    closers.push(() => outage.down());
    const redis = connectRedis({ url: outage.url, commandTimeoutMs: 250 });
    redis.on('error', () => {});
    closers.push(() => redis.disconnect());

    const log = recorder();
    const on = await openRedisSwitch(p, { startup: 'on', pollMs: 50, redis, log });
    expect(on.current()).toMatchObject({ mode: 'all', by: 'KILL_SWITCH environment' });
    expect(log.lines.some((l) => l.msg.includes('unreachable at start-up'))).toBe(true);

    const off = await openRedisSwitch(p, { startup: 'off', pollMs: 50, redis });
    expect(off.current()).toEqual(OFF);

    outage.port = port;
    await outage.up();
    await eventually(async () => JSON.parse((await admin.get(`${p}kill-switch`)) ?? '{}').mode === 'all', 3_000);
    await eventually(() => off.current().mode === 'all', 3_000);
  });
});
