/** The in-memory verdict store: the shared behaviour, and no timers of its own. */
import { describe, expect, it, vi } from 'vitest';
import { MemoryVerdictStore } from '../../src/auth/verdict-store.ts';
import { valid, verdictStoreBehaviour } from './verdict-store-behaviour.ts';

verdictStoreBehaviour('memory', {
  make: () => new MemoryVerdictStore(100),
  // The LRU reads the process clock it captured when loaded, which a fake timer cannot move.
  pass: (ms) => new Promise((r) => setTimeout(r, ms)),
});

describe('memory verdict store', () => {
  it('keeps and reads verdicts without starting timers (the clock is read per lookup)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const store = new MemoryVerdictStore(100);
      await store.set('d'.repeat(64), valid, 5_000);
      expect(await store.get('d'.repeat(64))).toEqual(valid);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
