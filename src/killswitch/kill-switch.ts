/**
 * The ops kill switch (DECISIONS.md section 8). `all` answers every REST and MCP request with
 * `503 SERVICE_DISABLED` before authentication, so a disabled service puts no load on the
 * backend; `writes` refuses only the six write operations. Health endpoints always answer.
 *
 * Replicas read the state from memory on every request; the shared implementation keeps that
 * copy fresh (docs/operations.md).
 */
export type KillMode = 'off' | 'all' | 'writes';

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
  set(mode: KillMode, by: string, reason: string): Promise<KillState>;
  close(): Promise<void>;
}

export const OFF: KillState = { mode: 'off', by: null, reason: null, at: null };

/** One process: the state lives here. */
export class MemoryKillSwitch implements KillSwitch {
  #state: KillState;
  readonly #now: () => number;

  constructor(initial: KillState = OFF, now: () => number = Date.now) {
    this.#state = initial;
    this.#now = now;
  }

  current(): KillState {
    return this.#state;
  }

  async set(mode: KillMode, by: string, reason: string): Promise<KillState> {
    this.#state = { mode, by, reason, at: new Date(this.#now()).toISOString() };
    return this.#state;
  }

  async close(): Promise<void> {}
}
