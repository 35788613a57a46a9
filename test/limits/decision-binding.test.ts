/**
 * Edge cases of the limit decision: which minute window binds the X-RateLimit-* headers when
 * limits and counts pull different ways or tie, which refusing window names the wait, and the
 * message of a refusal that names no window.
 */
import { describe, expect, it } from 'vitest';
import { decide, rateLimited } from '../../src/limits/decision.ts';
import type { WindowUse } from '../../src/limits/store.ts';
import type { WindowName } from '../../src/limits/windows.ts';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const minute = (name: WindowName, limit: number, count: number): WindowUse => ({
  spec: { name, kind: 'minute', limit },
  count,
  oldest: NOW - 30_000,
});
const day = (name: WindowName, limit: number, count: number): WindowUse => ({ spec: { name, kind: 'day', limit }, count, oldest: null });

describe('binding minute window', () => {
  // read: 1 left of 10; search: 4 left of 5. The larger limit has the fewer left.
  const read = minute('read_minute', 10, 9);
  const search = minute('search_minute', 5, 1);

  it('is the one with the fewest requests left, not the smallest limit or count, in either order', () => {
    for (const windows of [
      [read, search],
      [search, read],
    ]) {
      const d = decide({ allowed: true, now: NOW, windows });
      expect([d.headers['x-ratelimit-limit'], d.headers['x-ratelimit-remaining']]).toEqual(['10', '1']);
    }
  });

  it('is the first listed when two windows have as many left', () => {
    const d = decide({ allowed: true, now: NOW, windows: [minute('read_minute', 10, 5), minute('search_minute', 8, 3)] });
    expect(d.headers['x-ratelimit-limit']).toBe('10');
  });
});

describe('refusing window', () => {
  it('is the one that frees last even when listed first', () => {
    const d = decide({ allowed: false, now: NOW, windows: [day('read_day', 100, 100), minute('read_minute', 10, 10)] });
    expect(d.refusedBy).toBe('read_day');
    expect(d.retryAfter).toBe(12 * 3600);
  });
});

describe('refusal message', () => {
  it('says quota when no window is named', () => {
    const err = rateLimited({ allowed: false, headers: {}, retryAfter: 3, refusedBy: null });
    expect(err.message).toBe('Rate limit exceeded (quota): retry after 3 seconds.');
  });
});
