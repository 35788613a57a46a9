/**
 * From a consumption to what the caller sees (src/limits/decision.ts), on hand-built
 * consumptions so every figure is known: the binding minute window behind the X-RateLimit-*
 * headers, the wait of a refusal and the window named for it, and the 429 it becomes.
 */
import { describe, expect, it } from 'vitest';
import { decide, rateLimited } from '../../src/limits/decision.ts';
import type { Consumption, WindowUse } from '../../src/limits/store.ts';
import { MINUTE_MS, type WindowName } from '../../src/limits/windows.ts';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const minute = (name: WindowName, limit: number, count: number, oldest: number | null = null): WindowUse => ({
  spec: { name, kind: 'minute', limit },
  count,
  oldest,
});
const day = (name: WindowName, limit: number, count: number): WindowUse => ({ spec: { name, kind: 'day', limit }, count, oldest: null });
const consumption = (allowed: boolean, windows: WindowUse[], now = NOW): Consumption => ({ allowed, now, windows });

describe('decide: an admitted request', () => {
  it('describes the minute window with the least remaining, whatever its order', () => {
    const d = decide(
      consumption(true, [
        minute('read_minute', 120, 10, NOW - 1_000),
        day('read_day', 10_000, 10),
        minute('search_minute', 30, 25, NOW - 45_000),
      ]),
    );
    expect(d).toEqual({
      allowed: true,
      retryAfter: 0,
      refusedBy: null,
      // The search window frees its oldest slot 15 s from now.
      headers: { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '15' },
    });
  });

  it('rounds the reset up to whole seconds, and says 0 for a window with nothing in it', () => {
    expect(decide(consumption(true, [minute('read_minute', 10, 1, NOW - MINUTE_MS + 1_001)])).headers['x-ratelimit-reset']).toBe('2');
    expect(decide(consumption(true, [minute('read_minute', 10, 0, null)])).headers['x-ratelimit-reset']).toBe('0');
  });

  it('never reports a negative remaining count', () => {
    // Counts past the limit happen when a limit is lowered while requests are in the window.
    expect(decide(consumption(true, [minute('read_minute', 5, 7, NOW)])).headers['x-ratelimit-remaining']).toBe('0');
  });

  it('sends no X-RateLimit-* headers when no minute window applies', () => {
    expect(decide(consumption(true, [day('read_day', 100, 1)])).headers).toEqual({});
  });
});

describe('decide: a refused request', () => {
  it('waits for the refusing window that frees last, and names it', () => {
    const d = decide(
      consumption(false, [
        minute('read_minute', 10, 10, NOW - 50_000), // frees in 10 s
        minute('write_minute', 2, 2, NOW - 20_000), // frees in 40 s
        minute('search_minute', 30, 3, NOW - 59_000), // not refusing: ignored for the wait
      ]),
    );
    expect(d.allowed).toBe(false);
    expect(d.refusedBy).toBe('write_minute');
    expect(d.retryAfter).toBe(40);
    expect(d.headers['retry-after']).toBe('40');
  });

  it('waits for midnight UTC when a day window refuses', () => {
    const d = decide(
      consumption(false, [minute('read_minute', 10, 1, NOW), day('write_day', 200, 200)], Date.UTC(2026, 10, 23, 23, 59, 58, 500)),
    );
    expect(d.refusedBy).toBe('write_day');
    expect(d.retryAfter).toBe(2);
  });

  it('asks for at least one second, even when the window is already free', () => {
    const d = decide(consumption(false, [minute('read_minute', 1, 1, NOW - MINUTE_MS)]));
    expect(d.retryAfter).toBe(1);
    // Still named: a refusal always says which window refused.
    expect(d.refusedBy).toBe('read_minute');
    expect(d.headers['retry-after']).toBe('1');
  });

  it("keeps the binding window's headers next to Retry-After", () => {
    const d = decide(consumption(false, [minute('read_minute', 10, 10, NOW - 30_000)]));
    expect(d.headers).toEqual({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30', 'retry-after': '30' });
  });
});

describe('rateLimited', () => {
  it('is a 429 RATE_LIMITED naming the window and the wait, carrying the headers', () => {
    const d = decide(consumption(false, [minute('search_minute', 30, 30, NOW - 48_000)]));
    const err = rateLimited(d);
    expect(err.status).toBe(429);
    expect(err.toEnvelope()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: 'Rate limit exceeded (search_minute): retry after 12 seconds.',
        details: { retry_after: 12, window: 'search_minute' },
      },
    });
    expect(err.headers).toMatchObject({ 'retry-after': '12', 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '0' });
  });
});
