/**
 * The one Redis connection of a replica: a standalone server, a Redis Cluster, or the master
 * that Sentinel names, with or without TLS (docs/deployment.md, "Redis").
 *
 * Whatever the topology, commands fail fast instead of queueing while Redis is away (no offline
 * queue, one retry, a short command timeout), so every caller can apply its own documented
 * fallback (docs/operations.md) within a bounded time.
 *
 * Also here: the hash-tag rule that keeps the keys of one Lua script in one cluster slot, the
 * way scripts are registered (EVALSHA), and the probe behind the `openpm_redis_up` gauge.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { Cluster, Redis, type ClusterOptions, type RedisOptions as ClientOptions } from 'ioredis';
import type { Config } from '../config.ts';

/** What the stores talk to: both kinds run the same commands and scripts. */
export type RedisClient = Redis | Cluster;

export type RedisMode = 'standalone' | 'cluster' | 'sentinel';

export interface HostPort {
  host: string;
  port: number;
}

export interface RedisOptions {
  /** redis://[user[:password]@]host[:port][/db], or rediss:// for TLS. */
  url: string;
  commandTimeoutMs: number;
  /** Default `standalone`. */
  mode?: RedisMode;
  /** Overrides the URL's password. */
  password?: string | undefined;
  /** Cluster: seed nodes besides the URL's host. */
  clusterNodes?: HostPort[];
  /** Sentinel: the sentinels; the URL's host is the master's name. */
  sentinels?: HostPort[];
  sentinelUsername?: string | undefined;
  sentinelPassword?: string | undefined;
  sentinelTls?: boolean;
  tls?: TlsFiles;
}

export interface TlsFiles {
  caFile?: string | undefined;
  certFile?: string | undefined;
  keyFile?: string | undefined;
  servername?: string | undefined;
}

export function redisOptionsFrom(config: Config): RedisOptions | null {
  if (config.REDIS_URL === undefined) return null;
  return {
    url: config.REDIS_URL,
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    mode: config.REDIS_MODE,
    password: config.REDIS_PASSWORD,
    clusterNodes: config.REDIS_CLUSTER_NODES,
    sentinels: config.REDIS_SENTINELS,
    sentinelUsername: config.REDIS_SENTINEL_USERNAME,
    sentinelPassword: config.REDIS_SENTINEL_PASSWORD,
    sentinelTls: config.REDIS_SENTINEL_TLS === 'on',
    tls: {
      caFile: config.REDIS_TLS_CA_FILE,
      certFile: config.REDIS_TLS_CERT_FILE,
      keyFile: config.REDIS_TLS_KEY_FILE,
      servername: config.REDIS_TLS_SERVERNAME,
    },
  };
}

/** The parts of REDIS_URL, decoded. */
interface Target {
  host: string;
  port: number;
  username: string | undefined;
  password: string | undefined;
  db: number;
  tls: boolean;
}

function parseTarget(opts: RedisOptions): Target {
  const u = new URL(opts.url);
  const db = u.pathname.replace(/^\//, '');
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port === '' ? 6379 : Number(u.port),
    username: u.username === '' ? undefined : decodeURIComponent(u.username),
    password: opts.password ?? (u.password === '' ? undefined : decodeURIComponent(u.password)),
    db: db === '' ? 0 : Number(db),
    tls: u.protocol === 'rediss:',
  };
}

/** Node TLS options from the files; throws a message naming the variable of a file it cannot read. */
export function tlsOptions(files: TlsFiles = {}): ConnectionOptions {
  const read = (path: string | undefined, name: string): Buffer | undefined => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      throw new Error(`${name}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  };
  const options: ConnectionOptions = {};
  const ca = read(files.caFile, 'REDIS_TLS_CA_FILE');
  const cert = read(files.certFile, 'REDIS_TLS_CERT_FILE');
  const key = read(files.keyFile, 'REDIS_TLS_KEY_FILE');
  if (ca !== undefined) options.ca = ca;
  if (cert !== undefined) options.cert = cert;
  if (key !== undefined) options.key = key;
  if (files.servername !== undefined) options.servername = files.servername;
  return options;
}

/** Keep reconnecting in the background, at most once a second. */
const reconnect = (times: number): number => Math.min(times * 100, 1_000);

/** The ioredis options of one data-node connection (every topology). */
function nodeOptions(opts: RedisOptions, target: Target): ClientOptions {
  return {
    username: target.username,
    password: target.password,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: opts.commandTimeoutMs,
    connectTimeout: Math.max(1_000, opts.commandTimeoutMs),
    retryStrategy: reconnect,
    lazyConnect: false,
    ...(target.tls ? { tls: tlsOptions(opts.tls) } : {}),
  };
}

/** A standalone or Sentinel connection is a `Redis`; only `mode: 'cluster'` gives a `Cluster`. */
export function connectRedis(opts: RedisOptions & { mode?: 'standalone' | 'sentinel' }): Redis;
export function connectRedis(opts: RedisOptions): RedisClient;
export function connectRedis(opts: RedisOptions): RedisClient {
  const target = parseTarget(opts);
  const node = nodeOptions(opts, target);
  switch (opts.mode ?? 'standalone') {
    case 'standalone':
      return new Redis({ ...node, host: target.host, port: target.port, db: target.db });
    case 'sentinel':
      return new Redis({
        ...node,
        db: target.db,
        // The URL's host names the master group, as Sentinel knows it (redis://:pw@mymaster/0).
        name: target.host,
        sentinels: opts.sentinels ?? [],
        sentinelUsername: opts.sentinelUsername,
        sentinelPassword: opts.sentinelPassword,
        enableTLSForSentinelMode: target.tls,
        ...(opts.sentinelTls === true ? { sentinelTLS: tlsOptions(opts.tls) } : {}),
        sentinelCommandTimeout: Math.max(1_000, opts.commandTimeoutMs),
        sentinelRetryStrategy: reconnect,
      });
    case 'cluster':
      return new Cluster([{ host: target.host, port: target.port }, ...(opts.clusterNodes ?? [])], clusterOptions(opts, node, target));
  }
}

function clusterOptions(opts: RedisOptions, node: ClientOptions, target: Target): ClusterOptions {
  // A command may follow a MOVED/ASK or retry after a closed node connection or a TRYAGAIN
  // (resharding), but all of its attempts stay within about one command timeout (50 ms apart),
  // like a standalone command. CLUSTERDOWN fails at once: a lost shard or a failover lasts
  // seconds, and meanwhile the callers' fallbacks apply at once, as with a server that is down.
  const retryMs = 50;
  const { enableOfflineQueue: _queue, retryStrategy: _retry, lazyConnect: _lazy, ...redisOptions } = node;
  return {
    enableOfflineQueue: false,
    enableReadyCheck: true,
    scaleReads: 'master',
    maxRedirections: Math.min(16, Math.max(3, Math.ceil(opts.commandTimeoutMs / retryMs))),
    retryDelayOnFailover: retryMs,
    retryDelayOnClusterDown: 0,
    retryDelayOnTryAgain: retryMs,
    clusterRetryStrategy: reconnect,
    slotsRefreshTimeout: Math.max(1_000, opts.commandTimeoutMs),
    lazyConnect: false,
    redisOptions,
    // Over TLS, keep the seed's host name: certificates name hosts, not the IPs DNS gives.
    ...(target.tls ? { dnsLookup: (address: string, callback: (err: null, address: string) => void) => callback(null, address) } : {}),
  };
}

/** Wait until the connection is ready, or give up after `timeoutMs` (start-up and tests). */
export async function redisReady(redis: RedisClient, timeoutMs = 2_000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}

/**
 * A second connection like `redis` (same topology, credentials and TLS), e.g. for a
 * subscriber, which can run no other command. `Cluster.duplicate` takes seed nodes first.
 */
export function duplicateClient(redis: RedisClient, override: Partial<ClientOptions> = {}): RedisClient {
  return redis instanceof Cluster ? redis.duplicate([], override) : redis.duplicate(override);
}

/**
 * Key names whose keys share one cluster slot: `${prefix}{${tag}}${suffix}`. Redis Cluster
 * hashes only what is between the first `{` and the next `}` when that is not empty, so keys
 * built with one tag land together and a multi-key script never fails with CROSSSLOT. When the
 * prefix already holds a complete hash tag, that one wins: every key of the gateway then shares
 * one slot, which stays correct (a single shard holds the state).
 */
export function taggedKey(prefix: string, tag: string, suffix = ''): string {
  return `${prefix}{${tag}}${suffix}`;
}

/**
 * A key in the slot of an existing key that has no tag of its own (a documented key name that
 * must stay as it is): `${lead}{${base}}${suffix}` hashes exactly like `base`. `lead` (the key
 * prefix) keeps the new key under the same prefix, so ACL key patterns like `~openpm:*` cover it.
 */
export function keyInSlotOf(base: string, suffix: string, lead = ''): string {
  return hashTagOf(base) === base ? `${lead}{${base}}${suffix}` : `${base}${suffix}`;
}

/** What Redis Cluster hashes for a key (its hash tag, or the whole key). */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}

/** One argument of a script: a key or a value. */
export type ScriptArg = string | number;

/**
 * A Lua script registered on the connection with `defineCommand`, so each call is an EVALSHA
 * of its digest (ioredis loads the body once per server, on NOSCRIPT), not the whole body.
 */
export type Script = (keys: readonly string[], args: readonly ScriptArg[]) => Promise<unknown>;

export function defineScript(redis: RedisClient, name: string, numberOfKeys: number | 'variable', lua: string): Script {
  redis.defineCommand(name, numberOfKeys === 'variable' ? { lua } : { numberOfKeys, lua });
  // defineCommand adds a method the type of the client cannot know; it is looked up once here.
  const method = (redis as unknown as Record<string, (...args: ScriptArg[]) => Promise<unknown>>)[name];
  if (typeof method !== 'function') throw new Error(`script ${name} was not defined`);
  if (numberOfKeys === 'variable') return (keys, args) => method.call(redis, keys.length, ...keys, ...args);
  return (keys, args) => {
    if (keys.length !== numberOfKeys) throw new Error(`script ${name} takes ${numberOfKeys} keys, got ${keys.length}`);
    return method.call(redis, ...keys, ...args);
  };
}

/**
 * Whether Redis answers now, within `timeoutMs`: a PING on a standalone or Sentinel master; on a
 * cluster, the cluster's own view (clusterHealthy) and a PING from every master the client
 * knows, so a lost shard shows although the other shards answer.
 */
export async function probeRedis(redis: RedisClient, timeoutMs: number): Promise<boolean> {
  const within = <T>(p: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('probe timed out')), timeoutMs);
      p.then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  try {
    if (!(redis instanceof Cluster)) return (await within(redis.ping())) === 'PONG';
    if (redis.status !== 'ready') return false;
    const [info, nodes] = await Promise.all([within(redis.cluster('INFO')), within(redis.cluster('NODES'))]);
    if (!clusterHealthy(String(info), String(nodes))) return false;
    const masters = redis.nodes('master');
    if (masters.length === 0) return false;
    const pongs = await Promise.all(masters.map((m) => within(m.ping())));
    return pongs.every((p) => p === 'PONG');
  } catch {
    return false;
  }
}

/** Slots of a Redis Cluster: each must be served for every key to be reachable. */
const CLUSTER_SLOTS = 16_384;

/**
 * Whether a cluster, as one of its nodes sees it (`CLUSTER INFO`, `CLUSTER NODES`), serves every
 * slot now. `cluster_state:ok` alone is not enough: it stays ok for the node timeout (15 s by
 * default) after a master dies, and for good with `cluster-require-full-coverage no`; and the
 * client's own pool forgets a master whose connection ended, so PINGs from it all succeed. So:
 * every slot assigned and none failing, and no master that owns slots flagged failing
 * (`fail`, `fail?`) or cut off from this node (link `disconnected`, which shows at once).
 */
export function clusterHealthy(info: string, nodes: string): boolean {
  const field = (name: string) => new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1];
  if (field('cluster_state') !== 'ok') return false;
  if (Number(field('cluster_slots_ok')) !== CLUSTER_SLOTS) return false;
  if (Number(field('cluster_slots_pfail') ?? 0) !== 0 || Number(field('cluster_slots_fail') ?? 0) !== 0) return false;
  for (const line of nodes.split('\n')) {
    // <id> <ip:port@cport> <flags> <master> <ping-sent> <pong-recv> <epoch> <link-state> <slot>...
    const [, , flags = '', , , , , link = '', ...slots] = line.trim().split(' ');
    if (!flags.split(',').includes('master') || slots.length === 0) continue;
    if (flags.includes('fail') || link === 'disconnected') return false;
  }
  return true;
}
