/**
 * Rate-limit stores: consume one request from every window that applies, atomically, or from
 * none (a request refused with 429 consumes nothing). Redis does it in one round trip (a Lua
 * script using the server's clock, so replicas' clocks do not matter); memory does the same
 * for the embedded default. Both pass test/limits/store-behaviour.ts.
 *
 * Why not @fastify/rate-limit here: its store answers one fixed window per increment, so it
 * cannot check a sliding minute, a calendar day and a shared search budget in one atomic step,
 * nor leave refused requests uncounted. It does guard failed authentication (auth-throttle.ts).
 */
import { defineScript, taggedKey, type RedisClient, type Script } from '../store/redis.ts';
import { DAY_MS, MINUTE_MS, type WindowSpec } from './windows.ts';

/** Per window after the decision: requests counted in it and its oldest entry (minute windows). */
export interface WindowUse {
  spec: WindowSpec;
  count: number;
  /** Epoch ms of the oldest request still in a minute window; null when empty or a day window. */
  oldest: number | null;
}

export interface Consumption {
  allowed: boolean;
  now: number;
  windows: WindowUse[];
}

export interface RateLimitStore {
  consume(subject: string, windows: WindowSpec[]): Promise<Consumption>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #minute = new Map<string, number[]>();
  readonly #day = new Map<string, { day: number; count: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async consume(subject: string, windows: WindowSpec[]): Promise<Consumption> {
    const now = this.#now();
    const day = Math.floor(now / DAY_MS);
    const uses = windows.map((spec) => {
      const key = `${subject}:${spec.name}`;
      if (spec.kind === 'minute') {
        const log = (this.#minute.get(key) ?? []).filter((t) => t > now - MINUTE_MS);
        this.#minute.set(key, log);
        return { spec, key, count: log.length, oldest: log[0] ?? null };
      }
      const d = this.#day.get(key);
      return { spec, key, count: d?.day === day ? d.count : 0, oldest: null };
    });
    const allowed = uses.every((u) => u.count < u.spec.limit);
    if (allowed) {
      for (const u of uses) {
        if (u.spec.kind === 'minute') {
          this.#minute.get(u.key)?.push(now);
          u.oldest ??= now;
        } else {
          this.#day.set(u.key, { day, count: u.count + 1 });
        }
        u.count += 1;
      }
    }
    this.#sweep(now);
    return { allowed, now, windows: uses.map(({ spec, count, oldest }) => ({ spec, count, oldest })) };
  }

  /** Windows held in memory (minute logs and day counters), so the sweep can be observed. */
  get size(): number {
    return this.#minute.size + this.#day.size;
  }

  #calls = 0;
  /** Forget idle subjects now and then, so the maps cannot grow without bound. */
  #sweep(now: number): void {
    if (++this.#calls % 1000 !== 0) return;
    for (const [k, log] of this.#minute) if ((log.at(-1) ?? 0) <= now - MINUTE_MS) this.#minute.delete(k);
    const day = Math.floor(now / DAY_MS);
    for (const [k, d] of this.#day) if (d.day !== day) this.#day.delete(k);
  }
}

// KEYS: one per window, all in one cluster slot. ARGV: kind ('m' or 'd') and limit per window,
// then how many requests to count (a batch of one key's waiting requests, in arrival order).
// Grants as many of them as every window has room for, the first ones, and counts those: the
// same as that many single requests run back to back at one instant. Returns {granted, now,
// count_1, head_1, count_2, head_2, ...}: each window's count before the grant and the oldest
// entry left in a minute log before it (-1 when empty or a day window).
//
// A minute window is a list of its requests' times in arrival order (the script's TIME calls
// are serialised by the server, so the order is the time order): what has aged out is a run at
// the head. trim() finds the end of that run in a few LINDEX calls even when a long pause left
// many (steps that double, then halve), and drops it with one LTRIM, so a busy key's log costs
// a few commands per request and never a loop over its entries. Should the server's clock
// step back, later entries carry earlier times and age out late: the window over-counts for
// that while, it never admits more than its limit.
const CONSUME = `
local function trim(key, cutoff)
  local head = redis.call('LINDEX', key, 0)
  if not head or tonumber(head) > cutoff then return head end
  local out, step, inside, kept = 0, 1, nil, nil
  while not inside do
    local v = redis.call('LINDEX', key, out + step)
    if not v or tonumber(v) > cutoff then inside, kept = out + step, v else out, step = out + step, step * 2 end
  end
  while inside - out > 1 do
    local mid = math.floor((out + inside) / 2)
    local v = redis.call('LINDEX', key, mid)
    if not v or tonumber(v) > cutoff then inside, kept = mid, v else out = mid end
  end
  redis.call('LTRIM', key, inside, -1)
  return kept
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local day = math.floor(tonumber(t[1]) / 86400)
local n = #KEYS
local counts, heads = {}, {}
local granted = tonumber(ARGV[2 * n + 1])
for i = 1, n do
  local limit = tonumber(ARGV[2 * i])
  if ARGV[2 * i - 1] == 'm' then
    local head = trim(KEYS[i], now - 60000)
    counts[i] = redis.call('LLEN', KEYS[i])
    heads[i] = head and tonumber(head) or -1
  else
    local d = tonumber(redis.call('HGET', KEYS[i], 'day') or '-1')
    counts[i] = (d == day) and tonumber(redis.call('HGET', KEYS[i], 'count') or '0') or 0
    heads[i] = -1
  end
  if limit - counts[i] < granted then granted = limit - counts[i] end
end
if granted < 0 then granted = 0 end
if granted > 0 then
  local stamps = {}
  for j = 1, granted do stamps[j] = now end
  for i = 1, n do
    if ARGV[2 * i - 1] == 'm' then
      redis.call('RPUSH', KEYS[i], unpack(stamps))
      redis.call('PEXPIRE', KEYS[i], 60000)
    else
      redis.call('HSET', KEYS[i], 'day', day, 'count', counts[i] + granted)
      redis.call('EXPIREAT', KEYS[i], (day + 1) * 86400 + 60)
    end
  end
end
local out = {granted, now}
for i = 1, n do
  out[#out + 1] = counts[i]
  out[#out + 1] = heads[i]
end
return out
`;

/** Most requests one script call counts: bounds the script's arguments and its time in Redis. */
export const MAX_BATCH = 256;

interface Waiter {
  windows: WindowSpec[];
  /** The windows and their limits as one string: requests go in one call only when equal. */
  names: string;
  resolve(c: Consumption): void;
  reject(err: unknown): void;
}

/** One key's requests: the calls of one turn in flight, the requests that came since waiting. */
interface Lane {
  busy: boolean;
  waiting: Waiter[];
}

/**
 * The windows of one key live in one cluster slot (`rl:{<keyId>}:<window>`, minute logs under
 * `…:<window>:log`), so the script runs on Redis Cluster too; it is registered once and called
 * by digest (EVALSHA).
 *
 * A key's requests share a lane (docs/operations.md, rate limits). An idle key's request goes
 * at once. While its call is in flight, the key's next requests wait; when it is answered, all
 * of them go in the same turn: each run of consecutive requests with the same windows (at most
 * MAX_BATCH) in one call, the calls in arrival order on the key's one connection, so Redis
 * counts every request in arrival order, exactly as calls of their own would. A request
 * therefore waits for at most the calls in flight when it came and then its own, whatever the
 * burst. When a call fails, its requests and those waiting behind it are released with the
 * failure (the limiter lets each through uncounted).
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #consume: Script;
  readonly #prefix: string;
  /** Lanes by key; a lane is dropped when nothing waits in it. */
  readonly #lanes = new Map<string, Lane>();
  /** Each windows array's names, worked out once (the limiter keeps one array per class). */
  readonly #names = new WeakMap<WindowSpec[], string>();

  constructor(redis: RedisClient, prefix: string) {
    this.#consume = defineScript(redis, 'openpmRateLimitConsume', 'variable', CONSUME);
    this.#prefix = `${prefix}rl:`;
  }

  /** The Redis key of one window of one subject. */
  key(subject: string, window: WindowSpec): string {
    return taggedKey(this.#prefix, subject, window.kind === 'minute' ? `:${window.name}:log` : `:${window.name}`);
  }

  consume(subject: string, windows: WindowSpec[]): Promise<Consumption> {
    const names = this.#namesOf(windows);
    let lane = this.#lanes.get(subject);
    if (lane === undefined) {
      lane = { busy: false, waiting: [] };
      this.#lanes.set(subject, lane);
    }
    const queued = lane;
    return new Promise<Consumption>((resolve, reject) => {
      queued.waiting.push({ windows, names, resolve, reject });
      if (!queued.busy) void this.#drain(subject, queued);
    });
  }

  /** Lanes held: keys with a call in flight (an idle key holds nothing). */
  get pending(): number {
    return this.#lanes.size;
  }

  #namesOf(windows: WindowSpec[]): string {
    let names = this.#names.get(windows);
    if (names === undefined) {
      names = windows.map((w) => `${w.name}:${w.kind}=${w.limit}`).join(',');
      this.#names.set(windows, names);
    }
    return names;
  }

  /** Send what waits in the lane, one turn's calls at a time, until nothing waits. */
  async #drain(subject: string, lane: Lane): Promise<void> {
    lane.busy = true;
    while (lane.waiting.length > 0) {
      const turn = lane.waiting.splice(0);
      const calls: Promise<unknown>[] = [];
      let from = 0;
      for (let i = 1; i <= turn.length; i++) {
        // Past the end turn[i] is undefined, which closes the last run.
        if (i - from === MAX_BATCH || turn[i]?.names !== (turn[from] as Waiter).names) {
          calls.push(this.#send(subject, turn.slice(from, i)));
          from = i;
        }
      }
      const failures = (await Promise.all(calls)).filter((failure) => failure !== undefined);
      if (failures.length > 0) for (const w of lane.waiting.splice(0)) w.reject(failures[0]);
    }
    // Dropped, not marked idle: the key's next request starts a lane of its own.
    this.#lanes.delete(subject);
  }

  /** One call for a run of requests with the same windows; its failure, if it fails. */
  async #send(subject: string, batch: Waiter[]): Promise<unknown> {
    const windows = (batch[0] as Waiter).windows;
    try {
      const keys = windows.map((w) => this.key(subject, w));
      const args = windows.flatMap((w) => [w.kind === 'minute' ? 'm' : 'd', String(w.limit)]);
      args.push(String(batch.length));
      this.#settle(batch, windows, (await this.#consume(keys, args)) as unknown[]);
      return undefined;
    } catch (err) {
      for (const w of batch) w.reject(err);
      return err;
    }
  }

  /**
   * Each request's consumption, as if it had been counted alone in its place in the batch: the
   * first `granted` are admitted and see the windows with themselves counted, the rest are
   * refused and see the windows as the admitted ones left them.
   */
  #settle(batch: Waiter[], windows: WindowSpec[], out: unknown[]): void {
    const granted = Number(out[0]);
    const now = Number(out[1]);
    for (const [i, waiter] of batch.entries()) {
      const allowed = i < granted;
      const counted = allowed ? i + 1 : granted;
      waiter.resolve({
        allowed,
        now,
        windows: windows.map((spec, w) => {
          const head = Number(out[3 + 2 * w]);
          const oldest = head >= 0 ? head : spec.kind === 'minute' && counted > 0 ? now : null;
          return { spec, count: Number(out[2 + 2 * w]) + counted, oldest };
        }),
      });
    }
  }
}
