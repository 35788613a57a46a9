/**
 * The kill switch of a fleet, shared through Redis (docs/operations.md, "Kill switch").
 *
 * - The state is one key, `${prefix}kill-switch`, holding JSON `{mode, by, reason, at, seq}`
 *   (no TTL). Every change, `off` included, is written there, so `off` is always an explicit
 *   value. `seq` comes from the counter `${prefix}{${prefix}kill-switch}:seq`
 *   (named so that it shares the state's cluster slot) and orders the writes; a hand-written
 *   value without it is accepted too.
 * - Every replica keeps an in-memory copy, so `current()` does no I/O. The copy is refreshed
 *   by pub/sub on the channel `${prefix}kill-switch` (a subscriber connection of its own,
 *   `redis.duplicate()`), and by a poll every `pollMs` as a fallback for missed messages, so
 *   every replica obeys within a second.
 * - `set()` writes the key and publishes the new state in one Lua script (so the order of
 *   messages is the order of writes), updates the local copy and logs who, when and why.
 * - Redis down: the last known state stays in force and the poll keeps trying; `set()` throws
 *   KillSwitchUnavailableError.
 * - Fails safe: a missing key is the absence of knowledge, not `off` (Redis restarted empty, the
 *   key deleted or evicted). A replica that holds `all` or `writes` when the key is found
 *   missing keeps it and writes it back, only if the key is still missing (so an explicit `off`
 *   written meanwhile wins), with the `seq` it holds; the fleet converges on it by pub/sub. Only
 *   an explicit `off` (the admin API or the ops CLI) lifts the switch. A replica that starts
 *   while the key is missing starts from KILL_SWITCH, as before.
 *
 * Ordering: a message or the answer to this replica's own write is applied only when its `seq`
 * is newer than the state already held (the message of an earlier write may arrive after the
 * answer to a later one). A poll that was sent before a newer state arrived may answer with the
 * older state; such answers are discarded (the `epoch`); any other poll answer that finds a
 * state is the truth, whatever its `seq` (so a hand-edited key takes effect, and so does an
 * explicit `off` written with a lower `seq` after Redis lost the counter).
 */
import { z } from 'zod';
import {
  KillSwitchUnavailableError,
  OFF,
  logChange,
  sameState,
  type KillMode,
  type KillState,
  type KillSwitch,
  type KillSwitchLogger,
} from './kill-switch.ts';
import { defineScript, duplicateClient, keyInSlotOf, type RedisClient, type Script } from '../store/redis.ts';

export interface RedisKillSwitchOptions {
  /** REDIS_KEY_PREFIX: the key and the channel are `${prefix}kill-switch`. */
  prefix: string;
  /** KILL_SWITCH_POLL_MS: how often the key is re-read besides pub/sub. */
  pollMs: number;
  log: KillSwitchLogger;
  now?: () => number;
}

export interface OpenOptions extends RedisKillSwitchOptions {
  /**
   * KILL_SWITCH at start-up. `on` writes mode `all` to the store unless it is already `all`;
   * `off` leaves the shared state alone, so a restarting replica never clears a switch that
   * was flipped during an incident.
   */
  startup: 'on' | 'off';
  /** The state written by `startup: 'on'` (and used while the store is unreachable). */
  startupState: KillState;
  /** How long to wait for the subscription at start-up (default 1000 ms). */
  subscribeTimeoutMs?: number;
}

const StoredState = z.object({
  mode: z.enum(['off', 'all', 'writes']),
  by: z.string().nullable().catch(null),
  reason: z.string().nullable().catch(null),
  at: z.string().nullable().catch(null),
  seq: z.number().int().nonnegative().catch(0).default(0),
});

interface Stored {
  state: KillState;
  /** Order of the write (0: unknown, e.g. written by hand or a missing key). */
  seq: number;
}

/**
 * Number the write, SET and PUBLISH in one step, so subscribers see changes in the order they
 * were written. ARGV[1] is the state as a JSON object; `seq` is appended to it. The number is
 * kept above the stored state's own and above ARGV[3], the `seq` the writing replica holds, so
 * a counter that was lost (Redis restarted empty, or renamed by an upgrade) never numbers a
 * write below a state the fleet has seen.
 */
const SET_AND_PUBLISH = `
local seq = redis.call('INCR', KEYS[2])
local known = tonumber(ARGV[3]) or 0
if known >= seq then
  seq = math.floor(known) + 1
  redis.call('SET', KEYS[2], seq)
end
local current = redis.call('GET', KEYS[1])
if current then
  local ok, stored = pcall(cjson.decode, current)
  if ok and type(stored) == 'table' and tonumber(stored.seq) and tonumber(stored.seq) >= seq then
    seq = math.floor(tonumber(stored.seq)) + 1
    redis.call('SET', KEYS[2], seq)
  end
end
local payload = string.sub(ARGV[1], 1, -2) .. ',"seq":' .. seq .. '}'
redis.call('SET', KEYS[1], payload)
redis.call('PUBLISH', ARGV[2], payload)
return seq`;

/**
 * Write a vanished state back: only while the key is missing (an explicit write made meanwhile
 * wins), with the `seq` the replica holds (ARGV[1] already carries it), the counter raised to it,
 * and published like any change. 1 when written, 0 when the key exists again.
 */
const REASSERT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local seq = tonumber(ARGV[3])
if (tonumber(redis.call('GET', KEYS[2])) or 0) < seq then redis.call('SET', KEYS[2], seq) end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[1])
return 1`;

export function killSwitchKey(prefix: string): string {
  return `${prefix}kill-switch`;
}

/** The write counter, in the state key's cluster slot (the state key keeps its documented name). */
export function killSwitchSeqKey(prefix: string): string {
  return keyInSlotOf(killSwitchKey(prefix), ':seq', prefix);
}

export class RedisKillSwitch implements KillSwitch {
  readonly #redis: RedisClient;
  readonly #sub: RedisClient;
  readonly #setAndPublish: Script;
  readonly #reassert: Script;
  readonly #key: string;
  readonly #seqKey: string;
  readonly #channel: string;
  readonly #log: KillSwitchLogger;
  readonly #now: () => number;
  readonly #pollMs: number;
  #state: KillState = OFF;
  /** `seq` of #state. */
  #seq = 0;
  /** Bumped whenever a newer state is known; a poll sent under an older epoch is discarded. */
  #epoch = 0;
  #polling = false;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  /** True while the store is unreachable (logged once per outage). */
  #degraded = false;
  /** KILL_SWITCH=on could not be written at start-up: write it once the store answers. */
  #pendingStartup: KillState | null = null;
  #subscribed = false;
  #onSubscribed: (() => void) | null = null;

  /** Use `RedisKillSwitch.open()`; the constructor neither reads nor polls. */
  constructor(redis: RedisClient, opts: RedisKillSwitchOptions) {
    this.#redis = redis;
    this.#setAndPublish = defineScript(redis, 'openpmKillSwitchSet', 2, SET_AND_PUBLISH);
    this.#reassert = defineScript(redis, 'openpmKillSwitchReassert', 2, REASSERT);
    this.#key = killSwitchKey(opts.prefix);
    this.#seqKey = killSwitchSeqKey(opts.prefix);
    this.#channel = killSwitchKey(opts.prefix);
    this.#log = opts.log;
    this.#now = opts.now ?? Date.now;
    this.#pollMs = opts.pollMs;
    // A connection of its own: a subscribed connection can run no other command.
    this.#sub = duplicateClient(redis, { autoResubscribe: false, lazyConnect: false });
    this.#sub.on('error', () => {
      // The poll reports outages (once each); the main connection logs its own errors.
    });
    this.#sub.on('ready', () => void this.#subscribe());
    this.#sub.on('message', (channel: string, message: string) => {
      if (channel !== this.#channel || this.#closed) return;
      const stored = parseStored(message);
      if (stored === null) {
        this.#log.warn({ channel }, 'kill switch: ignored a malformed message');
        return;
      }
      if (stored.seq <= this.#seq) return; // older than what this replica already holds
      this.#epoch += 1;
      this.#apply(stored, 'pubsub');
    });
  }

  /** Connect, subscribe, load (applying KILL_SWITCH=on) and start polling. */
  static async open(redis: RedisClient, opts: OpenOptions): Promise<RedisKillSwitch> {
    const ks = new RedisKillSwitch(redis, opts);
    await ks.#start(opts);
    return ks;
  }

  current(): KillState {
    return this.#state;
  }

  async set(mode: KillMode, by: string, reason: string): Promise<KillState> {
    const state: KillState = { mode, by, reason, at: new Date(this.#now()).toISOString() };
    await this.#write(state);
    logChange(this.#log, state);
    return state;
  }

  /** Re-read the shared state now (the poll; also after the subscriber reconnects). */
  async refresh(): Promise<void> {
    if (this.#polling || this.#closed) return;
    this.#polling = true;
    const epoch = this.#epoch;
    try {
      const stored = await this.#read();
      if (this.#closed) return;
      if (this.#degraded) {
        this.#degraded = false;
        this.#log.info({}, 'kill switch: shared store reachable again');
      }
      const pending = this.#pendingStartup;
      if (pending !== null) {
        if (stored?.state.mode !== 'all') {
          await this.#write(pending); // on failure: still pending, retried by the next poll
          this.#pendingStartup = null;
          logChange(this.#log, pending);
          return;
        }
        this.#pendingStartup = null;
      }
      if (epoch !== this.#epoch) return;
      if (stored === null) await this.#stateVanished();
      else this.#apply(stored, 'poll');
    } catch (err) {
      if (!this.#degraded && !this.#closed) {
        this.#degraded = true;
        this.#log.warn(
          { err: errorMessage(err), killSwitch: this.#state },
          'kill switch: shared store unreachable; keeping the last known state',
        );
      }
    } finally {
      this.#polling = false;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#onSubscribed?.();
    this.#sub.disconnect();
  }

  async #start(opts: OpenOptions): Promise<void> {
    const subscribed = this.#waitSubscribed(opts.subscribeTimeoutMs ?? 1_000);
    try {
      const stored = await this.#read();
      if (opts.startup === 'on' && stored?.state.mode !== 'all') {
        await this.#write(opts.startupState);
        logChange(this.#log, opts.startupState);
      } else if (stored !== null) {
        this.#state = stored.state;
        this.#seq = stored.seq;
        if (stored.state.mode !== 'off') {
          this.#log.warn({ killSwitch: stored.state }, `kill switch is ${stored.state.mode} at start-up (shared state)`);
        }
      }
    } catch (err) {
      this.#degraded = true;
      this.#state = opts.startup === 'on' ? opts.startupState : OFF;
      if (opts.startup === 'on') this.#pendingStartup = opts.startupState;
      this.#log.warn(
        { err: errorMessage(err), killSwitch: this.#state },
        `kill switch: shared store unreachable at start-up; using KILL_SWITCH=${opts.startup} until it answers`,
      );
    }
    if (this.#redis.status === 'ready') await subscribed;
    this.#timer = setInterval(() => void this.refresh(), this.#pollMs);
    this.#timer.unref();
  }

  #waitSubscribed(timeoutMs: number): Promise<void> {
    if (this.#subscribed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.#onSubscribed === done) self.#onSubscribed = null;
        resolve();
      }
      this.#onSubscribed = done;
    });
  }

  async #subscribe(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#sub.subscribe(this.#channel);
      this.#subscribed = true;
      this.#onSubscribed?.();
    } catch {
      // Retried on the next 'ready'; the poll covers the gap.
      return;
    }
    // Messages may have been missed while the subscriber was away.
    void this.refresh();
  }

  /**
   * The key was found missing while this replica holds a state. `off` (or nothing ever known)
   * stays as it is; `all` or `writes` is written back unless the key exists again, in which
   * case the next poll or message brings what was written.
   */
  async #stateVanished(): Promise<void> {
    if (this.#state.mode === 'off') return;
    const { mode, by, reason, at } = this.#state;
    const payload = JSON.stringify({ mode, by, reason, at, seq: this.#seq });
    const written = Number(await this.#reassert([this.#key, this.#seqKey], [payload, this.#channel, String(this.#seq)]));
    if (written === 1) {
      this.#log.warn(
        { killSwitch: this.#state },
        `kill switch: the shared state was missing; ${mode} written back (only an explicit off lifts it)`,
      );
    }
  }

  /** The stored state, or null when the key is missing (which is not `off`: see the header). */
  async #read(): Promise<Stored | null> {
    const raw = await this.#redis.get(this.#key);
    if (raw === null) return null;
    const stored = parseStored(raw);
    if (stored === null) throw new Error(`malformed kill switch state under ${this.#key}`);
    return stored;
  }

  async #write(state: KillState): Promise<void> {
    let seq: number;
    try {
      const json = JSON.stringify({ mode: state.mode, by: state.by, reason: state.reason, at: state.at });
      seq = Number(await this.#setAndPublish([this.#key, this.#seqKey], [json, this.#channel, String(this.#seq)]));
    } catch (err) {
      throw new KillSwitchUnavailableError(
        `the kill switch could not be changed: the shared store (Redis) did not answer (${errorMessage(err)})`,
        { cause: err },
      );
    }
    // A message that arrived meanwhile may carry a newer write of another replica: it wins.
    if (seq > this.#seq) {
      this.#state = state;
      this.#seq = seq;
      this.#epoch += 1;
    }
  }

  #apply(stored: Stored, source: 'poll' | 'pubsub'): void {
    this.#seq = stored.seq;
    if (sameState(stored.state, this.#state)) return;
    const previous = this.#state.mode;
    this.#state = stored.state;
    this.#log.info({ killSwitch: stored.state, previous, source }, `kill switch is now ${stored.state.mode}`);
  }
}

function parseStored(raw: string): Stored | null {
  try {
    const parsed = StoredState.safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    const { seq, ...state } = parsed.data;
    return { state, seq };
  } catch {
    return null;
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
