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
import { once } from 'node:events';
import { connect } from 'node:net';
import type { Redis } from 'ioredis';

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

/**
 * Watches the commands clients send (not those of scripts) while `work` runs. MONITOR is read
 * from a plain socket: its lines are `<time> [<db> <client>] "<command>" "<arg>"…`, and a
 * script's own calls name `lua` as the client.
 */
export async function roundTrips(url: string, work: () => Promise<void>, settleMs = 1000): Promise<CommandCounts> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port || 6379), hostname);
  await once(socket, 'connect');
  const seen: CommandCounts = {};
  let buffered = '';
  // The server's answer to MONITOR: +OK, or an error (refused, say), which must not hang the run.
  const monitored = Promise.withResolvers<void>();
  socket.once('error', monitored.reject);
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf('\r\n');
    while (nl !== -1) {
      const line = buffered.slice(0, nl);
      if (line === '+OK') monitored.resolve();
      else if (line.startsWith('-')) monitored.reject(new Error(`MONITOR refused: ${line.slice(1)}`));
      else count(line, seen);
      buffered = buffered.slice(nl + 2);
      nl = buffered.indexOf('\r\n');
    }
  });
  socket.write('MONITOR\r\n');
  // Counting starts once the server has said MONITOR is on, and after `settleMs` more: requests
  // a load run left queued in the gateway must be finished first (after a sequential pass whose
  // every request was answered, nothing is left and no wait is needed).
  try {
    await monitored.promise;
  } catch (err) {
    socket.destroy();
    throw err;
  }
  if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
  for (const k of Object.keys(seen)) delete seen[k];
  try {
    await work();
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    socket.destroy();
  }
  return seen;
}

function count(line: string, seen: CommandCounts): void {
  const m = /^\+?[\d.]+ \[\d+ ([^\]]+)\] "([^"]*)"(?: "([^"]*)")?/.exec(line);
  if (m === null) return;
  const [, source, command, firstArg] = m;
  if (source === 'lua') return;
  const name = (command ?? '').toLowerCase();
  if (name === 'monitor' || name === 'info') return;
  // The kill switch's poll (every 500 ms) is background, not the requests' doing.
  if (name === 'get' && (firstArg ?? '').endsWith('kill-switch')) return;
  seen[name] = (seen[name] ?? 0) + 1;
}

/**
 * The longest a single command (a script counts as one) held redis-server up since the last
 * call, in ms, from its latency monitor (the server must run with latency-monitor-threshold
 * set); the record then starts anew. redis-server shares a core with the backend and the load
 * generator, and while a command runs it answers no one, so a Redis gateway's slow round may
 * be the server's.
 */
export async function longestCommandMs(redis: Redis): Promise<number> {
  const latest = (await redis.call('LATENCY', 'LATEST')) as [string, number, number, number][];
  await redis.call('LATENCY', 'RESET');
  // Each event: name, time of its latest spike, that spike's ms, the highest since the reset.
  return Math.max(0, ...latest.map((event) => Number(event[3])));
}
