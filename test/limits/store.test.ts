/** The in-memory rate-limit store: the shared behaviour, the sliding minute and calendar day on a controlled clock, and the decision drawn from a consumption. */
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/limits/decision.ts';
import { MemoryRateLimitStore } from '../../src/limits/store.ts';
import { windowsFor } from '../../src/limits/windows.ts';
import { day, minute, rateLimitStoreBehaviour } from './store-behaviour.ts';

rateLimitStoreBehaviour('memory', () => {
  const s = new MemoryRateLimitStore();
  return [s, s] as const;
});

describe('sliding minute window (memory, controlled clock)', () => {
  it('admits at most the limit within any 60 s, and frees slots as old requests age out', async () => {
    const clock = { t: 1_000_000 };
    const s = new MemoryRateLimitStore(() => clock.t);
    const w = [minute(3)];
    for (const at of [0, 20_000, 40_000]) {
      clock.t = 1_000_000 + at;
      expect((await s.consume('k', w)).allowed).toBe(true);
    }
    clock.t = 1_000_000 + 59_999;
    expect((await s.consume('k', w)).allowed).toBe(false); // a fixed window would have reset
    clock.t = 1_000_000 + 60_000;
    expect((await s.consume('k', w)).allowed).toBe(true); // the first request aged out
  });

  it('resets day windows at 00:00 UTC', async () => {
    const midnight = Date.UTC(2026, 10, 22);
    const clock = { t: midnight - 1_000 };
    const s = new MemoryRateLimitStore(() => clock.t);
    expect((await s.consume('k', [day(1)])).allowed).toBe(true);
    const refused = decide(await s.consume('k', [day(1)]));
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(1);
    clock.t = midnight;
    expect((await s.consume('k', [day(1)])).allowed).toBe(true);
  });
});

describe('decision', () => {
  it('describes the binding minute window: the applicable one with the least remaining', async () => {
    const s = new MemoryRateLimitStore();
    const windows = windowsFor('search', {
      readPerMinute: 120,
      readPerDay: 10_000,
      searchPerMinute: 30,
      writePerMinute: 10,
      writePerDay: 200,
    });
    const d = decide(await s.consume('k', windows));
    expect(d.headers).toEqual({ 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '29', 'x-ratelimit-reset': '60' });
  });

  it('waits for the last refusing window to free', async () => {
    const s = new MemoryRateLimitStore();
    await s.consume('k', [minute(1), day(1)]);
    const d = decide(await s.consume('k', [minute(1), day(1)]));
    expect(d.refusedBy).toBe('read_day');
    expect(d.headers['retry-after']).toBe(String(d.retryAfter));
  });
});
