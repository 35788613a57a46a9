/**
 * The connection factory (src/store/redis.ts) against real servers the test starts itself:
 * the Redis variables are validated (a bad combination stops the process, naming the variable,
 * never echoing a password); a password and an ACL user reach the server; TLS verifies the
 * server's certificate and presents a client certificate; Sentinel hands over the master and,
 * after a failover, the new one; and every script goes out as EVALSHA once loaded.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisClaimStore } from '../../src/confirm/claims.ts';
import { ConfigError, configFrom, loadConfig } from '../../src/config.ts';
import { RedisRateLimitStore } from '../../src/limits/store.ts';
import { connectRedis, probeRedis, redisOptionsFrom, redisReady, type RedisClient } from '../../src/store/redis.ts';
import { outcomeId } from '../../sandbox/ids.ts';
import { within } from '../helpers/gateway-process.ts';
import { PrivateRedis, type PrivateRedisOptions } from '../helpers/private-redis.ts';
import { FLEET_SECRETS } from '../helpers/redis.ts';
import { KEYS, MARKETS, startStack } from '../helpers/stack.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'openpm-redis-'));
const servers: PrivateRedis[] = [];
const clients: RedisClient[] = [];

/** A redis-server (or sentinel) of this test, its files (certificates, sentinel.conf) in `dir`. */
async function server(opts: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const s = await PrivateRedis.start({ dir, ...opts });
  servers.push(s);
  return s;
}

function connectFrom(env: Record<string, string | number>): RedisClient {
  const options = redisOptionsFrom(configFrom({ ...FLEET_SECRETS, ...env }));
  if (options === null) throw new Error('REDIS_URL missing');
  const client = connectRedis(options);
  client.on('error', () => {});
  clients.push(client);
  return client;
}

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe('Redis configuration', () => {
  it.each([
    [{ REDIS_MODE: 'cluster' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://h:6379', REDIS_MODE: 'sentinel' }, 'REDIS_SENTINELS'],
    [{ REDIS_URL: 'redis://h:6379', REDIS_SENTINELS: 's1:26379' }, 'REDIS_SENTINELS'],
    [{ REDIS_URL: 'redis://h:6379', REDIS_CLUSTER_NODES: 'n2:6379' }, 'REDIS_CLUSTER_NODES'],
    [{ REDIS_URL: 'redis://h:6379/1', REDIS_MODE: 'cluster' }, 'REDIS_URL'],
    [{ REDIS_URL: 'http://h:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://h:6379?db=2' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://h:6379/db' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://h:6379', REDIS_MODE: 'replicated' }, 'REDIS_MODE'],
    [{ REDIS_URL: 'redis://h:6379', REDIS_TLS_CA_FILE: '/ca.pem' }, 'REDIS_TLS_CA_FILE'],
    [{ REDIS_URL: 'rediss://h:6379', REDIS_TLS_CERT_FILE: '/c.pem' }, 'REDIS_TLS_KEY_FILE'],
    [{ REDIS_URL: 'redis://m', REDIS_MODE: 'sentinel', REDIS_SENTINELS: 's1:port' }, 'REDIS_SENTINELS'],
    [{ REDIS_URL: 'redis://h:6379', REDIS_SENTINEL_TLS: 'yes' }, 'REDIS_SENTINEL_TLS'],
  ])('refuses %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('never echoes a password from REDIS_URL', () => {
    try {
      loadConfig({ REDIS_URL: 'redis://:hunter2-secret@h:6379/x', REDIS_MODE: 'cluster' });
      throw new Error('expected failure');
    } catch (err) {
      expect((err as Error).message).toContain('REDIS_URL');
      expect((err as Error).message).not.toContain('hunter2');
    }
  });

  it('reads node lists with default ports, IPv6 included, and treats empty values as unset', () => {
    const c = loadConfig({
      ...FLEET_SECRETS,
      REDIS_URL: 'redis://mymaster',
      REDIS_MODE: 'sentinel',
      REDIS_SENTINELS: 's1, s2:26380,[::1]:5',
      REDIS_TLS_SERVERNAME: '',
    });
    expect(c.REDIS_SENTINELS).toEqual([
      { host: 's1', port: 26379 },
      { host: 's2', port: 26380 },
      { host: '::1', port: 5 },
    ]);
    expect(c.REDIS_TLS_SERVERNAME).toBeUndefined();
    expect(
      loadConfig({ ...FLEET_SECRETS, REDIS_URL: 'redis://h', REDIS_MODE: 'cluster', REDIS_CLUSTER_NODES: 'n2,n3:7001' })
        .REDIS_CLUSTER_NODES,
    ).toEqual([
      { host: 'n2', port: 6379 },
      { host: 'n3', port: 7001 },
    ]);
  });

  it('names the variable of a TLS file it cannot read', () => {
    expect(() => connectFrom({ REDIS_URL: 'rediss://127.0.0.1:1', REDIS_TLS_CA_FILE: join(dir, 'missing.pem') })).toThrow(
      /REDIS_TLS_CA_FILE: cannot read .*missing\.pem \(ENOENT\)/,
    );
  });
});

describe('standalone with credentials', () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await server({ args: ['--requirepass', 'default-pw'] }));
    const admin = new Redis({ port, password: 'default-pw' });
    await admin.call('ACL', 'SETUSER', 'gateway', 'on', '>gw-pw', '~*', '&*', '+@all');
    admin.disconnect();
  });

  it('uses REDIS_PASSWORD over the URL and the ACL user of the URL, with a database number', async () => {
    const r = connectFrom({ REDIS_URL: `redis://gateway:wrong@127.0.0.1:${port}/3`, REDIS_PASSWORD: 'gw-pw' });
    expect(await redisReady(r, 3_000)).toBe(true);
    expect(await r.call('ACL', 'WHOAMI')).toBe('gateway');
    await r.set('where', 'db3');
    const admin = new Redis({ port, password: 'default-pw', db: 3 });
    expect(await admin.get('where')).toBe('db3');
    admin.disconnect();
    expect(await probeRedis(r, 500)).toBe(true);
  });

  it('decodes a percent-encoded password in the URL', async () => {
    const admin = new Redis({ port, password: 'default-pw' });
    await admin.call('ACL', 'SETUSER', 'odd', 'on', '>p@ss:w/rd', '~*', '+@all');
    admin.disconnect();
    const r = connectFrom({ REDIS_URL: `redis://odd:${encodeURIComponent('p@ss:w/rd')}@127.0.0.1:${port}` });
    expect(await redisReady(r, 3_000)).toBe(true);
  });

  it('sends scripts by digest: one EVAL per script and connection, EVALSHA afterwards', async () => {
    const r = connectFrom({ REDIS_URL: `redis://:default-pw@127.0.0.1:${port}` });
    expect(await redisReady(r, 3_000)).toBe(true);
    await r.config('RESETSTAT');
    const limits = new RedisRateLimitStore(r, 'evalsha:');
    const claims = new RedisClaimStore(r, 'evalsha:');
    for (let i = 0; i < 20; i++) {
      await limits.consume(`k${i}`, [{ name: 'read_minute', kind: 'minute', limit: 100 }]);
      await claims.claim(`jti-${i}`, 1_000, 'owner');
    }
    const stats = String(await r.info('commandstats'));
    expect(Number(/cmdstat_eval:calls=(\d+)/.exec(stats)?.[1])).toBe(2);
    expect(Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1])).toBe(38);
  });
});

/** The ACL of docs/deployment.md#permissions, for the key prefix `acl:`. */
const GATEWAY_ACL = [
  'on',
  '>gw-acl-pw',
  'resetkeys',
  '~acl:*',
  'resetchannels',
  '&acl:*',
  '-@all',
  '+@connection',
  '+info',
  '+select',
  '+role',
  '+time',
  '+get',
  '+set',
  '+del',
  '+incr',
  '+pexpire',
  '+pttl',
  '+expireat',
  '+hget',
  '+hset',
  '+rpush',
  '+lindex',
  '+llen',
  '+ltrim',
  '+eval',
  '+evalsha',
  '+publish',
  '+subscribe',
  '+unsubscribe',
  '+cluster|info',
  '+cluster|slots',
  '+readonly',
  '+xadd',
  '+xrevrange',
];

describe('a Redis user with only the documented permissions', () => {
  it('is enough for a whole gateway: verdicts, limits, address throttle, claims, kill switch, readiness', async () => {
    const { port } = await server();
    const admin = new Redis({ port });
    await admin.call('ACL', 'SETUSER', 'openpm', ...GATEWAY_ACL);
    admin.disconnect();
    const stack = await startStack({
      env: { REDIS_URL: `redis://openpm@127.0.0.1:${port}`, REDIS_PASSWORD: 'gw-acl-pw', REDIS_KEY_PREFIX: 'acl:' },
    });
    try {
      const read = await stack.get('/open/v1/topic-categories', KEYS.aliceWrite);
      expect(read.status).toBe(200);
      expect(read.headers.get('x-ratelimit-limit')).not.toBeNull(); // the limiter ran on Redis
      expect((await stack.get('/open/v1/topic-categories', 'opk_test_wrong_key_0000000000')).status).toBe(401);
      const preview = await stack.post(`/open/v1/topics/${MARKETS.boosted}/order-preview`, KEYS.aliceWrite, {
        option_id: outcomeId(MARKETS.boosted, 1),
        amount_coins: 10,
      });
      expect((await stack.post('/open/v1/orders', KEYS.aliceWrite, { confirm_token: preview.body.confirm_token })).status).toBe(201);
      // The audit stream: appended by the order, read back as GET /audit does.
      await expect.poll(async () => (await stack.app.services.audit.query({ limit: 5 })).length).toBe(1);
      await stack.app.services.killSwitch.set('writes', 'acl test', 'drill');
      await stack.app.services.killSwitch.set('off', 'acl test', 'drill over');
      expect((await stack.get('/readyz')).body.dependencies).toEqual({ redis: 'up' });
      // Nothing was refused by the ACL along the way.
      const log = new Redis({ port });
      expect(await log.call('ACL', 'LOG')).toEqual([]);
      log.disconnect();
    } finally {
      await stack.close();
    }
  });
});

describe('TLS (rediss://) with a client certificate', () => {
  let port: number;
  const file = (name: string) => join(dir, name);
  beforeAll(async () => {
    const ssl = (...args: string[]) => run('openssl', args, { cwd: dir });
    await ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '1',
      '-subj',
      '/CN=openpm test CA',
    );
    writeFileSync(file('server.ext'), 'subjectAltName=DNS:redis.test,IP:127.0.0.1\n');
    for (const who of ['server', 'client']) {
      await ssl(
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${who}.key`,
        '-out',
        `${who}.csr`,
        '-subj',
        `/CN=${who === 'server' ? 'redis.test' : 'gateway'}`,
      );
      await ssl(
        'x509',
        '-req',
        '-in',
        `${who}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${who}.crt`,
        '-days',
        '1',
        ...(who === 'server' ? ['-extfile', 'server.ext'] : []),
      );
    }
    ({ port } = await server({
      tls: true,
      args: [
        '--tls-cert-file',
        file('server.crt'),
        '--tls-key-file',
        file('server.key'),
        '--tls-ca-cert-file',
        file('ca.crt'),
        '--tls-auth-clients',
        'yes',
      ],
      cli: ['--tls', '--cacert', file('ca.crt'), '--cert', file('client.crt'), '--key', file('client.key')],
    }));
  });

  const tlsEnv = () => ({
    REDIS_URL: `rediss://127.0.0.1:${port}`,
    REDIS_TLS_CA_FILE: file('ca.crt'),
    REDIS_TLS_CERT_FILE: file('client.crt'),
    REDIS_TLS_KEY_FILE: file('client.key'),
  });

  it('connects with the CA and the client certificate, and the stores work over it', async () => {
    const r = connectFrom(tlsEnv());
    expect(await redisReady(r, 3_000)).toBe(true);
    const claims = new RedisClaimStore(r, 'tls:');
    expect(await claims.claim('jti', 1_000, 'me')).toEqual({ state: 'acquired' });
    expect(await claims.claim('jti', 1_000, 'you')).toEqual({ state: 'pending' });
  });

  it('checks the certificate against REDIS_TLS_SERVERNAME when set', async () => {
    expect(await redisReady(connectFrom({ ...tlsEnv(), REDIS_TLS_SERVERNAME: 'redis.test' }), 3_000)).toBe(true);
    expect(await redisReady(connectFrom({ ...tlsEnv(), REDIS_TLS_SERVERNAME: 'other.test' }), 1_000)).toBe(false);
  });

  it('refuses a server its CA did not sign, and is refused without a client certificate', async () => {
    const { REDIS_TLS_CA_FILE: _ca, ...noCa } = tlsEnv();
    expect(await redisReady(connectFrom(noCa), 1_000)).toBe(false);
    const noCert = { REDIS_URL: `rediss://127.0.0.1:${port}`, REDIS_TLS_CA_FILE: file('ca.crt') };
    expect(await redisReady(connectFrom(noCert), 1_000)).toBe(false);
  });
});

describe('Sentinel', () => {
  let master: PrivateRedis;
  let replica: number;
  let sentinel: number;
  beforeAll(async () => {
    const data = { cli: ['-a', 'data-pw', '--no-auth-warning'] };
    master = await server({ ...data, args: ['--requirepass', 'data-pw', '--masterauth', 'data-pw'] });
    ({ port: replica } = await server({
      ...data,
      args: ['--replicaof', '127.0.0.1', String(master.port), '--requirepass', 'data-pw', '--masterauth', 'data-pw'],
    }));
    const conf = join(dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `sentinel monitor gateway-master 127.0.0.1 ${master.port} 1`,
        'sentinel auth-pass gateway-master data-pw',
        'sentinel down-after-milliseconds gateway-master 400',
        'sentinel failover-timeout gateway-master 2000',
        'requirepass sentinel-pw',
        '',
      ].join('\n'),
    );
    ({ port: sentinel } = await server({ sentinelConfig: conf, cli: ['-a', 'sentinel-pw', '--no-auth-warning'] }));
  });

  it('reaches the master the sentinels name, and the new one after a failover', async () => {
    const r = connectFrom({
      REDIS_URL: 'redis://gateway-master',
      REDIS_MODE: 'sentinel',
      REDIS_SENTINELS: `127.0.0.1:${sentinel}`,
      REDIS_PASSWORD: 'data-pw',
      REDIS_SENTINEL_PASSWORD: 'sentinel-pw',
      REDIS_COMMAND_TIMEOUT_MS: 500,
    });
    expect(await redisReady(r, 3_000)).toBe(true);
    expect(Number(/tcp_port:(\d+)/.exec(String(await r.info('server')))?.[1])).toBe(master.port);
    const claims = new RedisClaimStore(r, 'sentinel:');
    expect(await claims.claim('before', 60_000, 'me')).toEqual({ state: 'acquired' });
    const onReplica = new Redis({ port: replica, password: 'data-pw' });
    for (let i = 0; i < 150 && (await onReplica.exists('sentinel:confirm:before')) === 0; i++) await sleep(20);
    expect(await onReplica.exists('sentinel:confirm:before')).toBe(1); // replicated before the master dies
    onReplica.disconnect();

    await master.stop();
    // INFO is answered during the client's ready check too: the replica may answer it while
    // still a replica, and the client then drops that connection. So wait for a ready client
    // whose server is the replica, promoted.
    await within(15_000, async () => {
      const info = await r.info().then(String, () => '');
      return Number(/tcp_port:(\d+)/.exec(info)?.[1] ?? 0) === replica && info.includes('role:master') && r.status === 'ready';
    });
    // A command may still meet the connection closing (commands fail fast while it reconnects):
    // this claim changes nothing (the key is there), so it is tried again until it is answered.
    let before: unknown;
    await within(5_000, async () => {
      before = await claims.claim('before', 60_000, 'other').catch(() => undefined);
      return before !== undefined;
    });
    expect(before).toEqual({ state: 'pending' });
    expect(await claims.claim('after', 60_000, 'me')).toEqual({ state: 'acquired' });
  });
});
