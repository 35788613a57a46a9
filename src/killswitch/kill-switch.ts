/**
 * The ops kill switch (docs/contract/limits.md#kill-switch). `all` answers every REST and MCP request with
 * `503 SERVICE_DISABLED` before authentication, so a disabled service puts no load on the
 * backend; `writes` refuses only the six write operations. Health endpoints always answer.
 *
 * Replicas read the state from memory on every request; the shared implementation
 * (redis-kill-switch.ts) keeps that copy fresh (docs/operations.md, "Kill switch").
 */
export type KillMode = 'off' | 'all' | 'writes';

export const KILL_MODES: readonly KillMode[] = ['off', 'all', 'writes'];

export interface KillState {
  mode: KillMode;
  /** Who flipped it, why and when (RFC 3339); null at start-up defaults. */
  by: string | null;
  reason: string | null;
  at: string | null;
}

export interface KillSwitch {
  /** The state as this replica knows it now (no I/O: it runs on every request). */
  current(): KillState;
  /**
   * Change the state (for the whole fleet when shared) and log who, when and why.
   * Throws KillSwitchUnavailableError when the shared store cannot be written.
   */
  set(mode: KillMode, by: string, reason: string): Promise<KillState>;
  close(): Promise<void>;
}

export interface KillSwitchLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export const OFF: KillState = { mode: 'off', by: null, reason: null, at: null };

/** The shared store could not be written: the state was (probably) not changed. */
export class KillSwitchUnavailableError extends Error {
  override name = 'KillSwitchUnavailableError';
}

export function sameState(a: KillState, b: KillState): boolean {
  return a.mode === b.mode && a.by === b.by && a.reason === b.reason && a.at === b.at;
}

/** The one warn line every change leaves in the log: who, when, why. */
export function logChange(log: KillSwitchLogger | undefined, state: KillState): void {
  log?.warn({ killSwitch: state }, `kill switch set to ${state.mode} by ${state.by ?? 'unknown'}: ${state.reason ?? 'no reason given'}`);
}

/** One process: the state lives here. */
export class MemoryKillSwitch implements KillSwitch {
  #state: KillState;
  readonly #now: () => number;
  readonly #log: KillSwitchLogger | undefined;

  constructor(initial: KillState = OFF, now: () => number = Date.now, log?: KillSwitchLogger) {
    this.#state = initial;
    this.#now = now;
    this.#log = log;
  }

  current(): KillState {
    return this.#state;
  }

  async set(mode: KillMode, by: string, reason: string): Promise<KillState> {
    this.#state = { mode, by, reason, at: new Date(this.#now()).toISOString() };
    logChange(this.#log, this.#state);
    return this.#state;
  }

  async close(): Promise<void> {}
}
