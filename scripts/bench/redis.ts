/**
 * Redis figures of the benchmark. The gateway under test gets a redis-server of its own (a
 * child of the benchmark, nothing persisted), so no other client's commands blur the counts.
 *
 * - Commands per request: the difference of `INFO commandstats` around a measured run; this
 *   counts what Lua scripts call too (each ZADD inside the limiter script is a command).
 * - Round trips per request: a short separate pass with MONITOR on, counting the commands
 *   clients sent (MONITOR names a script's own calls `lua`, and those are not round trips).
 *   MONITOR slows Redis down, which is why it never runs during the timed rounds.
 */
import { Redis } from 'ioredis';

export type CommandCounts = Record<string, number>;

export async function commandStats(redis: Redis): Promise<CommandCounts> {
  const info = await redis.info('commandstats');
  const out: CommandCounts = {};
  for (const line of info.split('\n')) {
    const m = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (m !== null && m[1] !== undefined) out[m[1]] = Number(m[2]);
  }
  return out;
}

/** What ran between two snapshots, leaving out the benchmark's own INFO calls. */
export function commandDelta(before: CommandCounts, after: CommandCounts): CommandCounts {
  const out: CommandCounts = {};
  for (const [name, calls] of Object.entries(after)) {
    if (name === 'info' || name === 'monitor') continue;
    const d = calls - (before[name] ?? 0);
    if (d > 0) out[name] = d;
  }
  return out;
}

export function total(counts: CommandCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** Watches the commands clients send (not those of scripts) while `work` runs. */
export async function roundTrips(url: string, work: () => Promise<void>): Promise<CommandCounts> {
  const client = new Redis(url, { lazyConnect: true });
  await client.connect();
  const monitor = await client.monitor();
  const seen: CommandCounts = {};
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua') return;
    const name = String(args[0] ?? '').toLowerCase();
    if (name === '' || name === 'monitor' || name === 'info') return;
    // The kill switch's poll (every 500 ms) is background, not the requests' doing.
    if (name === 'get' && String(args[1] ?? '').endsWith('kill-switch')) return;
    seen[name] = (seen[name] ?? 0) + 1;
  });
  // MONITOR starts streaming a moment after it is acknowledged; and requests a load run left
  // queued in the gateway must be finished before counting starts.
  await new Promise((r) => setTimeout(r, 1000));
  try {
    await work();
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    monitor.disconnect();
    client.disconnect();
  }
  return seen;
}
