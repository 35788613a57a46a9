/**
 * The in-memory rate-limit store of the embedded default, on an injected clock: calendar days
 * that turn at 00:00 UTC, the sliding minute to the millisecond, and the sweep that forgets idle
 * subjects so memory stays bounded (docs/contract/limits.md#windows).
 */
import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../src/limits/store.ts';
import type { WindowSpec } from '../../src/limits/windows.ts';

const minute = (limit: number): WindowSpec => ({ name: 'write_minute', kind: 'minute', limit });
const day = (limit: number): WindowSpec => ({ name: 'write_day', kind: 'day', limit });
const MIDNIGHT = Date.UTC(2026, 10, 23);
const DAY = 86_400_000;

function clocked(start: number) {
  const clock = { t: start };
  return { clock, store: new MemoryRateLimitStore(() => clock.t) };
}

describe('memory store: calendar day window', () => {
  it('counts every request of one UTC day together, from 00:00 to 23:59:59.999', async () => {
    const { clock, store } = clocked(MIDNIGHT);
    expect((await store.consume('k', [day(2)])).allowed).toBe(true);
    clock.t = MIDNIGHT + 9 * 3_600_000;
    const second = await store.consume('k', [day(2)]);
    expect(second.allowed).toBe(true);
    expect(second.windows[0]).toEqual({ spec: day(2), count: 2, oldest: null });
    clock.t = MIDNIGHT + DAY - 1;
    const refused = await store.consume('k', [day(2)]);
    expect(refused.allowed).toBe(false);
    expect(refused.windows[0]?.count).toBe(2);
    expect(refused.now).toBe(MIDNIGHT + DAY - 1);
  });

  it('starts a fresh count at 00:00 UTC, and a day later again', async () => {
    const { clock, store } = clocked(MIDNIGHT + DAY - 1);
    expect((await store.consume('k', [day(1)])).allowed).toBe(true);
    clock.t = MIDNIGHT + DAY;
    const next = await store.consume('k', [day(1)]);
    expect(next.allowed).toBe(true);
    expect(next.windows[0]?.count).toBe(1);
    clock.t = MIDNIGHT + 2 * DAY + 5;
    expect((await store.consume('k', [day(1)])).windows[0]?.count).toBe(1);
  });

  it('does not carry a count from the same hour of an earlier day', async () => {
    const { clock, store } = clocked(MIDNIGHT + 3_600_000);
    await store.consume('k', [day(5)]);
    await store.consume('k', [day(5)]);
    clock.t += DAY;
    expect((await store.consume('k', [day(5)])).windows[0]?.count).toBe(1);
  });
});

describe('memory store: sliding minute window', () => {
  it('reports the oldest request still inside the minute, and the count after this one', async () => {
    const { clock, store } = clocked(MIDNIGHT);
    const first = await store.consume('k', [minute(3)]);
    expect(first.windows[0]).toEqual({ spec: minute(3), count: 1, oldest: MIDNIGHT });
    clock.t = MIDNIGHT + 30_000;
    const second = await store.consume('k', [minute(3)]);
    expect(second.windows[0]).toEqual({ spec: minute(3), count: 2, oldest: MIDNIGHT });
    clock.t = MIDNIGHT + 60_000;
    const third = await store.consume('k', [minute(3)]);
    expect(third.windows[0]).toEqual({ spec: minute(3), count: 2, oldest: MIDNIGHT + 30_000 });
  });

  it('reports an empty minute window as no oldest entry when refused by another window', async () => {
    const { store } = clocked(MIDNIGHT);
    await store.consume('k', [day(1)]);
    const refused = await store.consume('k', [minute(5), day(1)]);
    expect(refused.allowed).toBe(false);
    expect(refused.windows).toEqual([
      { spec: minute(5), count: 0, oldest: null },
      { spec: day(1), count: 1, oldest: null },
    ]);
  });

  it('admits exactly the limit: the last slot is taken, the next is refused', async () => {
    const { store } = clocked(MIDNIGHT);
    for (let i = 0; i < 2; i++) expect((await store.consume('k', [minute(2), day(2)])).allowed).toBe(true);
    const refused = await store.consume('k', [minute(2), day(2)]);
    expect(refused.allowed).toBe(false);
    expect(refused.windows.map((w) => w.count)).toEqual([2, 2]);
  });
});

describe('memory store: sweep of idle subjects', () => {
  /** 999 requests of distinct subjects, each holding a minute log and a day counter. */
  async function fill(store: MemoryRateLimitStore) {
    for (let i = 0; i < 999; i++) await store.consume(`idle-${i}`, [minute(10), day(10)]);
  }

  it('forgets subjects idle for a minute and day counters of past days on every 1000th request', async () => {
    const { clock, store } = clocked(MIDNIGHT + DAY - 120_000);
    await fill(store);
    expect(store.size).toBe(2 * 999);
    clock.t = MIDNIGHT + DAY + 1;
    await store.consume('active', [minute(10), day(10)]);
    expect(store.size).toBe(2);
  });

  it("forgets a minute log exactly a minute after its last request, and keeps today's counters", async () => {
    const { clock, store } = clocked(MIDNIGHT + 1_000);
    await fill(store);
    clock.t = MIDNIGHT + 61_000;
    await store.consume('active', [minute(10), day(10)]);
    expect(store.size).toBe(999 + 2);
    const again = await store.consume('idle-0', [minute(10), day(10)]);
    expect(again.windows.map((w) => w.count)).toEqual([1, 2]);
  });

  it('keeps what is still live: minute logs inside the minute, counters of today', async () => {
    const { clock, store } = clocked(MIDNIGHT + 1_000);
    await store.consume('busy', [minute(2), day(2)]);
    for (let i = 0; i < 998; i++) await store.consume(`idle-${i}`, [minute(10), day(10)]);
    clock.t = MIDNIGHT + 60_000;
    await store.consume('other', [minute(10), day(10)]);
    // 1000 requests: the sweep ran, and nobody's request is older than the minute or today.
    expect(store.size).toBe(2 * 1000);
    const busy = await store.consume('busy', [minute(2), day(2)]);
    expect(busy.windows.map((w) => w.count)).toEqual([2, 2]);
    expect(busy.windows[0]?.oldest).toBe(MIDNIGHT + 1_000);
  });

  it('keeps a minute log whose last request is younger than a minute, even if its first is older', async () => {
    const { clock, store } = clocked(MIDNIGHT);
    await store.consume('busy', [minute(5)]);
    clock.t = MIDNIGHT + 50_000;
    await store.consume('busy', [minute(5)]);
    for (let i = 0; i < 997; i++) await store.consume(`idle-${i}`, [day(10)]);
    clock.t = MIDNIGHT + 100_000;
    await store.consume('other', [day(10)]); // the 1000th request
    const busy = await store.consume('busy', [minute(5)]);
    expect(busy.windows[0]).toEqual({ spec: minute(5), count: 2, oldest: MIDNIGHT + 50_000 });
  });

  it('sweeps only on every 1000th request, not before', async () => {
    const { clock, store } = clocked(MIDNIGHT);
    for (let i = 0; i < 500; i++) await store.consume(`early-${i}`, [minute(10), day(10)]);
    clock.t = MIDNIGHT + 2 * DAY;
    for (let i = 0; i < 499; i++) await store.consume(`late-${i}`, [minute(10), day(10)]);
    expect(store.size).toBe(2 * 999);
    await store.consume('trigger', [minute(10), day(10)]);
    expect(store.size).toBe(2 * 500);
    for (let i = 0; i < 999; i++) await store.consume(`late-${i % 499}`, [minute(1000), day(1000)]);
    expect(store.size).toBe(2 * 500);
  });
});
