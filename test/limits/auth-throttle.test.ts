/**
 * The failed-authentication throttle (src/limits/auth-throttle.ts) in one process without Redis:
 * within both budgets nothing is metered; past the address's or the fleet's budget a key that
 * needs the backend takes a per-second slot or gets 429 (Retry-After 1), a key refused before
 * gets the retry slot, and keys with a verdict already known, or no key at all, always pass.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { perSecond } from '../../src/limits/auth-throttle.ts';
import { ADMITTED, closeGateways, gateway } from './auth-throttle-harness.ts';

afterEach(closeGateways);

describe('auth throttle', () => {
  it('meters nothing while the address is within its budget', async () => {
    const { admit, fail } = await gateway({ perMinute: 3, totalPerMinute: 1_000 });
    await fail('10.0.0.1', 2);
    for (let i = 0; i < 5; i++) expect(await admit('10.0.0.1', `new-${i}`)).toEqual(ADMITTED);
  });

  it('past the address budget, gives one new key a slot a second, then answers 429 with Retry-After 1', async () => {
    const { admit, fail } = await gateway({ perMinute: 3, totalPerMinute: 1_000 });
    await fail('10.0.0.1', 3);
    expect(await admit('10.0.0.1', 'guess-1')).toEqual(ADMITTED);
    expect(await admit('10.0.0.1', 'guess-2')).toEqual({
      status: 429,
      body: {
        error: {
          code: 'RATE_LIMITED',
          message: 'Too many failed authentications from this address: retry after 1 second.',
          details: { retry_after: 1 },
        },
      },
      retryAfter: '1',
    });
    // Another address has its own budget.
    expect(await admit('10.0.0.2', 'guess-3')).toEqual(ADMITTED);
  });

  it('lets a key refused before through on the retry slot, but not a new one', async () => {
    const { admit, fail } = await gateway({ perMinute: 3, totalPerMinute: 1_000 });
    await fail('10.0.0.1', 3);
    expect((await admit('10.0.0.1', 'first')).status).toBe(200);
    expect((await admit('10.0.0.1', 'mine')).status).toBe(429);
    expect((await admit('10.0.0.1', 'other')).status).toBe(429);
    expect((await admit('10.0.0.1', 'mine')).status).toBe(200);
    // The retry slot of this second is taken now.
    expect((await admit('10.0.0.1', 'other')).status).toBe(429);
  });

  it('never meters a missing key, a key valid in this replica or a key with a known verdict', async () => {
    const { admit, fail } = await gateway({ perMinute: 1, totalPerMinute: 1_000, known: ['revoked'], valid: ['good'] });
    await fail('10.0.0.1', 1);
    expect((await admit('10.0.0.1', 'spends-the-slot')).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect(await admit('10.0.0.1')).toEqual(ADMITTED);
      expect(await admit('10.0.0.1', 'good')).toEqual(ADMITTED);
      expect(await admit('10.0.0.1', 'revoked')).toEqual(ADMITTED);
    }
    expect((await admit('10.0.0.1', 'unknown')).status).toBe(429);
  });

  it("past the fleet's budget, meters every address and says so", async () => {
    const { admit, fail } = await gateway({ perMinute: 100, totalPerMinute: 4 });
    await fail('10.0.0.1', 2);
    await fail('10.0.0.2', 2);
    expect((await admit('10.0.0.3', 'a')).status).toBe(200);
    const refused = await admit('10.0.0.4', 'b');
    expect(refused.status).toBe(429);
    expect(refused.body.error?.message).toBe('Too many failed authentications right now: retry after 1 second.');
    expect(refused.retryAfter).toBe('1');
  });

  it('asks for no verdict while both budgets last', async () => {
    const { admit, fail, asked } = await gateway({ perMinute: 3, totalPerMinute: 1_000 });
    await fail('10.0.0.1', 2);
    await admit('10.0.0.1', 'k1');
    expect(asked).toEqual([]);
    await fail('10.0.0.1', 1);
    await admit('10.0.0.1', 'k2');
    expect(asked).toEqual(['k2']);
  });

  it('counts failures and meters per address: each spent address has its own slots, an unspent one none', async () => {
    const { admit, fail } = await gateway({ perMinute: 3, totalPerMinute: 1_000 });
    await fail('10.0.0.1', 3);
    for (let i = 0; i < 3; i++) expect((await admit('10.0.0.9', `fresh-${i}`)).status).toBe(200);
    await fail('10.0.0.2', 3);
    expect((await admit('10.0.0.1', 'one-1')).status).toBe(200);
    expect((await admit('10.0.0.2', 'two-1')).status).toBe(200);
    expect((await admit('10.0.0.1', 'one-2')).status).toBe(429);
    expect((await admit('10.0.0.2', 'two-2')).status).toBe(429);
    // Each address has its own retry slot too.
    expect((await admit('10.0.0.1', 'one-2')).status).toBe(200);
    expect((await admit('10.0.0.2', 'two-2')).status).toBe(200);
  });

  it("meters only by the fleet when only the fleet's budget is spent", async () => {
    // Address meter: 1 a second; fleet meter: 2 a second.
    const { admit, fail } = await gateway({ perMinute: 3, totalPerMinute: 120 });
    for (let i = 0; i < 60; i++) await fail(`10.0.1.${i}`, 2);
    expect((await admit('10.0.0.1', 'a')).status).toBe(200);
    expect((await admit('10.0.0.1', 'b')).status).toBe(200);
    expect((await admit('10.0.0.1', 'c')).status).toBe(429);
  });

  it("meters only by the address when only the address's budget is spent", async () => {
    // Fleet meter would allow 1 a second; two addresses each get their own.
    const { admit, fail } = await gateway({ perMinute: 3, totalPerMinute: 60 });
    await fail('10.0.0.1', 3);
    await fail('10.0.0.2', 3);
    expect((await admit('10.0.0.1', 'a')).status).toBe(200);
    expect((await admit('10.0.0.2', 'b')).status).toBe(200);
  });

  it('logs each refusal with whose budget was spent', async () => {
    const { admit, fail, logs } = await gateway({ perMinute: 3, totalPerMinute: 4 });
    await fail('10.0.0.1', 3);
    await admit('10.0.0.1', 'a');
    await admit('10.0.0.1', 'b');
    await fail('10.0.0.2', 1);
    await admit('10.0.0.3', 'c');
    await admit('10.0.0.3', 'd');
    expect(logs.map((l) => [l.msg, l.throttled])).toEqual([
      ['authentication throttled: too many failed authentications', 'address'],
      ['authentication throttled: too many failed authentications', 'fleet'],
    ]);
  });

  it('spreads a minute budget over its seconds, at least one a second', () => {
    expect(perSecond(300)).toBe(5);
    expect(perSecond(301)).toBe(6);
    expect(perSecond(60)).toBe(1);
    expect(perSecond(1)).toBe(1);
    expect(perSecond(0)).toBe(1);
  });
});

describe('auth throttle with its Redis unreachable', () => {
  it('lets every attempt through rather than lock clients out (keys are still verified)', async () => {
    // A port nothing listens on, and no offline queue: every command fails at once.
    const down = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    down.on('error', () => undefined);
    try {
      const { admit, fail } = await gateway({ perMinute: 1, totalPerMinute: 1, redis: down, prefix: 'down:' });
      await fail('10.0.0.1', 5);
      for (const key of ['a', 'b', 'c']) expect(await admit('10.0.0.1', key)).toEqual(ADMITTED);
    } finally {
      down.disconnect();
    }
  });
});
