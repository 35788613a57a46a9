/** The kill switch of this replica: shared through Redis when configured, in memory otherwise. */
import type { RedisClient } from '../store/redis.ts';
import type { Config } from '../config.ts';
import { MemoryKillSwitch, OFF, type KillState, type KillSwitch, type KillSwitchLogger } from './kill-switch.ts';
import { RedisKillSwitch } from './redis-kill-switch.ts';

export type { KillSwitch } from './kill-switch.ts';
export { KILL_MODES, KillSwitchUnavailableError } from './kill-switch.ts';

export function startupState(config: Config, now: () => number): KillState {
  return config.KILL_SWITCH === 'on'
    ? { mode: 'all', by: 'KILL_SWITCH environment', reason: 'set at start-up', at: new Date(now()).toISOString() }
    : OFF;
}

/**
 * With Redis: the shared switch, loaded before the first request is served. KILL_SWITCH=on
 * turns the fleet's switch on (mode `all`); KILL_SWITCH=off leaves the shared state as it is,
 * so a replica restarting during an incident never clears the switch.
 * Without Redis: this process's own switch, starting from KILL_SWITCH.
 */
export async function createKillSwitch(
  config: Config,
  redis: RedisClient | null,
  log: KillSwitchLogger,
  now: () => number,
): Promise<KillSwitch> {
  if (redis === null) return new MemoryKillSwitch(startupState(config, now), now, log);
  return RedisKillSwitch.open(redis, {
    prefix: config.REDIS_KEY_PREFIX,
    pollMs: config.KILL_SWITCH_POLL_MS,
    log,
    now,
    startup: config.KILL_SWITCH,
    startupState: startupState(config, now),
  });
}
