/**
 * The per-key windows of docs/contract/limits.md#windows, and which apply to a request.
 *
 * Minute windows are sliding: at most `limit` requests in any 60 s. Day windows are calendar
 * days that reset at 00:00 UTC. Reads window: every request; search: REST /search and MCP
 * search_topics, on top of reads; writes: the three executions, on top of reads. Previews
 * count in the read window only.
 */
export type WindowName = 'read_minute' | 'read_day' | 'search_minute' | 'write_minute' | 'write_day';

export interface WindowSpec {
  name: WindowName;
  kind: 'minute' | 'day';
  limit: number;
}

export interface LimitSettings {
  readPerMinute: number;
  readPerDay: number;
  searchPerMinute: number;
  writePerMinute: number;
  writePerDay: number;
}

/** What a request is, for limiting. */
export type LimitClass = 'read' | 'search' | 'write';

export function windowsFor(cls: LimitClass, s: LimitSettings): WindowSpec[] {
  const windows: WindowSpec[] = [
    { name: 'read_minute', kind: 'minute', limit: s.readPerMinute },
    { name: 'read_day', kind: 'day', limit: s.readPerDay },
  ];
  if (cls === 'search') windows.push({ name: 'search_minute', kind: 'minute', limit: s.searchPerMinute });
  if (cls === 'write') {
    windows.push({ name: 'write_minute', kind: 'minute', limit: s.writePerMinute });
    windows.push({ name: 'write_day', kind: 'day', limit: s.writePerDay });
  }
  return windows;
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
