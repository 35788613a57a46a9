/**
 * The processes every measurement starts the same way: the sandbox backend, the bare proxy,
 * and the environment a gateway runs with (in-memory, or Redis with limits raised so nothing
 * is refused). Shared by the benchmark and diff-profile.ts so both measure the same parties.
 */
import { freePort, spawnChild, type Child } from './processes.ts';
import { SERVICE_TOKEN } from './scenarios.ts';

export async function spawnSandbox(): Promise<Child> {
  const port = await freePort();
  return spawnChild({
    name: 'sandbox',
    args: ['sandbox/main.ts'],
    env: { PORT: String(port), UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN },
    port,
  });
}

export async function spawnProxy(upstreamUrl: string, logLevel: string, nodeFlags: string[] = []): Promise<Child> {
  const port = await freePort();
  return spawnChild({
    name: 'proxy',
    args: ['scripts/bench/proxy.ts'],
    nodeFlags,
    env: { PORT: String(port), UPSTREAM_URL: upstreamUrl, LOG_LEVEL: logLevel },
    port,
  });
}

/** A gateway as deployed in production, against `upstreamUrl`; add PORT and the store settings. */
export function gatewayEnv(upstreamUrl: string, logLevel: string): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    ADMIN_PORT: '0',
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
    LOG_LEVEL: logLevel,
    NODE_ENV: 'production',
    CONFIRM_KEYS: 'bench:benchmark-confirm-secret-0123456789abcdef',
    CURSOR_SECRET: 'benchmark-cursor-secret-0123456789',
  };
}

/**
 * `NAME=value,NAME=value` (BENCH_BASELINE_ENV, PROBE_ENV) as an environment: each value is
 * what follows its first `=`, and an item without one is left out.
 */
export function envSettings(text: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (text ?? '')
      .split(',')
      .filter((kv) => kv.includes('='))
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

/** Redis and limits on, every window raised to 10⁹ so nothing is refused. */
export function limitedRedisEnv(redisUrl: string): Record<string, string> {
  const big = '1000000000';
  return {
    REDIS_URL: redisUrl,
    RATE_LIMITS: 'on',
    RATE_LIMIT_READ_PER_MINUTE: big,
    RATE_LIMIT_READ_PER_DAY: big,
    RATE_LIMIT_SEARCH_PER_MINUTE: big,
    RATE_LIMIT_WRITE_PER_MINUTE: big,
    RATE_LIMIT_WRITE_PER_DAY: big,
  };
}

/** prom-client's event-loop monitor samples every 10 ms (its default), recording whole intervals. */
const PROM_CLIENT_LOOP_SAMPLE_MS = 10;

export interface GatewayRecord {
  /**
   * The longest the gateway's own event loop was held up since the last call (ms), from
   * `nodejs_eventloop_lag_max_seconds`: prom-client restarts that record at every scrape, so two
   * scrapes around a run give the run's. Tells a slow round that was the gateway's (its garbage
   * collector, say) from one that was the machine's.
   */
  loopMaxMs: number;
  /**
   * Full (mark-compact) collections since the gateway started, from
   * `nodejs_gc_duration_seconds_count{kind="major"}` (src/metrics/runtime.ts: counted by a
   * `gc` performance observer moments after each collection). Their marking shares the gateway's
   * core with its requests, so a round with one in it can be slow for the gateway alone.
   */
  majorGcs: number;
  /**
   * Resident memory outside V8's heap (MB): `process_resident_memory_bytes` less
   * `nodejs_heap_size_total_bytes`. Its growth under load, with the heap steady, is native
   * memory the process keeps (change 23 found one that way).
   */
  outsideHeapMb: number;
}

/** What a gateway's admin port says of its own event loop and garbage collector now. */
export async function gatewayRecord(adminUrl: string): Promise<GatewayRecord> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const loop = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  const major = /^nodejs_gc_duration_seconds_count\{kind="major"\} (\S+)$/m.exec(text);
  const rss = /^process_resident_memory_bytes (\S+)$/m.exec(text);
  const heap = /^nodejs_heap_size_total_bytes (\S+)$/m.exec(text);
  return {
    loopMaxMs: loop === null ? Number.NaN : Math.max(0, Number(loop[1]) * 1000 - PROM_CLIENT_LOOP_SAMPLE_MS),
    // No line until the first full collection.
    majorGcs: major === null ? 0 : Number(major[1]),
    outsideHeapMb: rss === null || heap === null ? Number.NaN : (Number(rss[1]) - Number(heap[1])) / 2 ** 20,
  };
}
