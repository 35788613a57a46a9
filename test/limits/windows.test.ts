/** Which windows apply to which request (docs/contract/limits.md#windows). */
import { describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS, windowsFor } from '../../src/limits/windows.ts';

const settings = { readPerMinute: 120, readPerDay: 10_000, searchPerMinute: 30, writePerMinute: 10, writePerDay: 200 };

describe('windowsFor', () => {
  it('counts a read in the read minute and the read day only', () => {
    expect(windowsFor('read', settings)).toEqual([
      { name: 'read_minute', kind: 'minute', limit: 120 },
      { name: 'read_day', kind: 'day', limit: 10_000 },
    ]);
  });

  it('counts a search in the read windows and the search minute', () => {
    expect(windowsFor('search', settings)).toEqual([
      { name: 'read_minute', kind: 'minute', limit: 120 },
      { name: 'read_day', kind: 'day', limit: 10_000 },
      { name: 'search_minute', kind: 'minute', limit: 30 },
    ]);
  });

  it('counts a write in the read windows and both write windows', () => {
    expect(windowsFor('write', settings)).toEqual([
      { name: 'read_minute', kind: 'minute', limit: 120 },
      { name: 'read_day', kind: 'day', limit: 10_000 },
      { name: 'write_minute', kind: 'minute', limit: 10 },
      { name: 'write_day', kind: 'day', limit: 200 },
    ]);
  });

  it('measures a minute and a day in milliseconds', () => {
    expect(MINUTE_MS).toBe(60 * 1000);
    expect(DAY_MS).toBe(24 * 60 * MINUTE_MS);
  });
});
