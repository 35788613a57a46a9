/**
 * The failed-authentication throttle never refuses a valid key for its neighbours' failures
 * (src/limits/auth-throttle.ts; docs/operations.md, "Failed authentication"): an address past
 * its budget has its unknown keys metered, not blocked, so a valid key this replica has never
 * seen still gets through within seconds while the address keeps sending made-up keys. The
 * meter still refuses a burst (the backend's verification stays protected), per address and
 * fleet-wide, and a key verified by another replica is admitted at once. Run on the in-memory
 * and the Redis implementations.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { SERVICE_TOKEN, USERS, startStack, type Stack } from '../helpers/stack.ts';
import { connectTestRedis, dropPrefix, testPrefix } from '../helpers/redis.ts';

const PATH = '/open/v1/topic-categories';
let sandbox: Sandbox;
let redis: Redis;
const prefixes: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
  redis = await connectTestRedis();
});
afterAll(async () => {
  await sandbox.close();
  for (const p of prefixes) await dropPrefix(redis, p);
  redis.disconnect();
});

let guess = 0;
/** A well-formed key nobody has: each call a new one, so nothing is cached. */
const madeUpKey = () => `opk_test_guess_${String((guess += 1)).padStart(16, '0')}`;

const owners = [USERS.erin, USERS.frank, USERS.grace, USERS.heidi, USERS.ivan, USERS.judy];
let made = 0;
/** A key created in the backend just now: no replica has a verdict for it. */
async function freshKey(stack: Stack): Promise<string> {
  const userId = owners[(made += 1) % owners.length];
  return ((await stack.admin('POST', '/keys', { userId, scopes: ['read'] })) as { key: string }).key;
}

/** Spend the address's whole failure budget, a batch at a time. */
async function burnBudget(stack: Stack, failures: number, headers?: Record<string, string>): Promise<void> {
  for (let sent = 0; sent < failures; sent += 20) {
    const batch = Array.from({ length: Math.min(20, failures - sent) }, () => stack.get(PATH, madeUpKey(), headers));
    for (const r of await Promise.all(batch)) expect([401, 429]).toContain(r.status);
  }
}

/** Made-up keys from the same address, `perSecond` a second, until stopped. */
function flood(stack: Stack, perSecond: number): { stop(): Promise<number[]> } {
  const statuses: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      statuses.push((await stack.get(PATH, madeUpKey())).status);
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 / perSecond - (performance.now() - started))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return statuses;
    },
  };
}

/** A request with `key`, retried as Retry-After says, until it is not 429 or `withinMs` passed. */
async function authenticateWithin(stack: Stack, key: string, withinMs: number): Promise<{ status: number; ms: number; refused: number }> {
  const started = performance.now();
  let refused = 0;
  for (;;) {
    const r = await stack.get(PATH, key);
    const ms = performance.now() - started;
    if (r.status !== 429 || ms > withinMs) return { status: r.status, ms, refused };
    refused += 1;
    await new Promise((res) => setTimeout(res, Number(r.headers.get('retry-after') ?? '1') * 1000));
  }
}

for (const shared of [false, true]) {
  describe(`failed-authentication throttle (${shared ? 'Redis' : 'in-memory'})`, () => {
    const start = (env: Record<string, string | number>, prefix?: string) => {
      const p = prefix ?? testPrefix('auth-throttle');
      prefixes.push(p);
      return startStack({ sandbox, redis: shared, prefix: p, env });
    };

    it('a valid key the replica never saw succeeds within seconds while its address floods made-up keys', async () => {
      const stack = await start({ AUTH_ATTEMPTS_PER_MINUTE: 120 }); // metered at 2 verifications a second past it
      try {
        await burnBudget(stack, 130);
        // The address is past its budget: a burst of made-up keys is mostly refused.
        const burst = await Promise.all(Array.from({ length: 12 }, () => stack.get(PATH, madeUpKey())));
        expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(8);
        const refusal = burst.find((r) => r.status === 429);
        expect(refusal?.body.error.code).toBe('RATE_LIMITED');
        expect(refusal?.headers.get('retry-after')).toBe('1');

        const key = await freshKey(stack);
        // Five times faster than the meter admits: new made-up keys take every ordinary slot.
        const neighbours = flood(stack, 10);
        const valid = await authenticateWithin(stack, key, 5_000);
        const flooded = await neighbours.stop();
        expect(valid.status).toBe(200);
        // At once, or on the first retry: the meter keeps slots for keys it refused before.
        expect(valid.refused).toBeLessThanOrEqual(1);
        expect(valid.ms).toBeLessThan(3_000);
        // The flood got no more verifications than the meter allows (2 a second, 2 more for retries).
        expect(flooded.filter((s) => s === 401).length).toBeLessThanOrEqual(Math.ceil(valid.ms / 1000 + 1) * 4);
        // The flood's made-up keys were verified (401), metered, never let in.
        expect(flooded.length).toBeGreaterThan(0);
        expect(flooded.every((s) => s === 401 || s === 429)).toBe(true);
        // Verified now, the key passes at once, however the address behaves.
        await burnBudget(stack, 10);
        expect((await stack.get(PATH, key)).status).toBe(200);
      } finally {
        await stack.close();
      }
    });

    it('fleet-wide budget: many addresses past it are metered together, and a valid key still gets through', async () => {
      // TRUST_PROXY lets the test speak from many addresses through X-Forwarded-For.
      const stack = await start({ TRUST_PROXY: 'true', AUTH_ATTEMPTS_PER_MINUTE: 1000, AUTH_ATTEMPTS_TOTAL_PER_MINUTE: 60 });
      try {
        for (let i = 0; i < 70; i += 10) {
          await Promise.all(
            Array.from({ length: 10 }, (_, j) => stack.get(PATH, madeUpKey(), { 'x-forwarded-for': `203.0.113.${i + j}` })),
          );
        }
        const burst = await Promise.all(
          Array.from({ length: 10 }, (_, j) => stack.get(PATH, madeUpKey(), { 'x-forwarded-for': `198.51.100.${j}` })),
        );
        expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(7);
        const valid = await authenticateWithin(stack, await freshKey(stack), 5_000);
        expect(valid.status).toBe(200);
      } finally {
        await stack.close();
      }
    });

    if (shared) {
      it('a key verified by another replica is admitted at once, even when the meter has no slot', async () => {
        const prefix = testPrefix('auth-throttle-fleet');
        const a = await start({ AUTH_ATTEMPTS_PER_MINUTE: 60 }, prefix);
        const b = await start({ AUTH_ATTEMPTS_PER_MINUTE: 60 }, prefix);
        try {
          const key = await freshKey(a);
          expect((await a.get(PATH, key)).status).toBe(200);
          await burnBudget(b, 70);
          // The meter (1 a second) is spent by this burst: new keys are refused...
          const burst = await Promise.all(Array.from({ length: 5 }, () => b.get(PATH, madeUpKey())));
          expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(3);
          // ...but the key replica A verified is known fleet-wide.
          expect((await b.get(PATH, key)).status).toBe(200);
        } finally {
          await a.close();
          await b.close();
        }
      });
    }
  });
}
