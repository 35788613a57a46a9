/**
 * The failed-authentication throttle never refuses a valid key for its neighbours' failures
 * (src/limits/auth-throttle.ts; docs/operations.md, "Failed authentication"): an address past
 * its budget has its unknown keys metered, not blocked, so a valid key this replica has never
 * seen gets through at once or on its first retry while the address keeps sending made-up keys.
 * The meter still refuses made-up keys, per address and fleet-wide, and what it refuses never
 * reaches the backend's verification; a key verified by another replica is admitted at once.
 * Run on the in-memory and the Redis implementations.
 *
 * Outcomes are counted per request, never per second: the meters' one-second windows run on the
 * real clock, so the rate they allow is the unit tests' to check, not a test of whole processes.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { SERVICE_TOKEN, USERS, startStack, type Reply, type Stack } from '../helpers/stack.ts';
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

/**
 * Made-up keys, a concurrent batch at a time, until the meter refuses one: its ordinary slots
 * are taken at that moment. Each is verified (401) or refused (429), never let in. The test's
 * timeout bounds a meter that never refuses.
 */
async function untilRefused(stack: Stack, headers: () => Record<string, string> = () => ({})): Promise<Reply[]> {
  const answers: Reply[] = [];
  while (!answers.some((r) => r.status === 429)) {
    const batch = await Promise.all(Array.from({ length: 6 }, () => stack.get(PATH, madeUpKey(), headers())));
    for (const r of batch) expect([401, 429]).toContain(r.status);
    answers.push(...batch);
  }
  return answers;
}

/**
 * The valid key tried as a client does, each attempt right after made-up keys took the meter's
 * ordinary slots; a 429 is retried once, after its Retry-After. Returns the last answer, the
 * valid key's refusals and the made-up keys' answers.
 */
async function amidFlood(stack: Stack, key: string, floodHeaders?: () => Record<string, string>) {
  const flood: Reply[] = [];
  let refused = 0;
  for (;;) {
    flood.push(...(await untilRefused(stack, floodHeaders)));
    const answer = await stack.get(PATH, key);
    if (answer.status !== 429 || refused === 1) return { answer, refused, flood };
    refused += 1;
    await new Promise((r) => setTimeout(r, Number(answer.headers.get('retry-after')) * 1000));
  }
}

/** Keys this gateway has asked the backend to verify so far (the +Inf bucket counts every call). */
async function verifications(stack: Stack): Promise<number> {
  const metric = await stack.app.services.metrics.registry.getSingleMetric('openpm_upstream_request_duration_seconds')?.get();
  return (metric?.values ?? [])
    .filter((v) => v.labels['le'] === '+Inf' && v.labels['endpoint'] === '/internal/auth/api-keys/verify')
    .reduce((n, v) => n + v.value, 0);
}

const count = (answers: Reply[], status: number) => answers.filter((r) => r.status === status).length;

for (const shared of [false, true]) {
  describe(`failed-authentication throttle (${shared ? 'Redis' : 'in-memory'})`, () => {
    const start = (env: Record<string, string | number>, prefix?: string) => {
      const p = prefix ?? testPrefix('auth-throttle');
      prefixes.push(p);
      return startStack({ sandbox, redis: shared, prefix: p, env });
    };

    it('a valid key the replica never saw gets through at once or on its first retry while its address floods made-up keys', async () => {
      const stack = await start({ AUTH_ATTEMPTS_PER_MINUTE: 120 }); // metered at 2 verifications a second past it
      try {
        await burnBudget(stack, 130);
        // The address is past its budget: made-up keys are metered, and refused once the slots are taken.
        const refusal = (await untilRefused(stack)).find((r) => r.status === 429);
        expect(refusal?.body.error).toEqual({
          code: 'RATE_LIMITED',
          message: 'Too many failed authentications from this address: retry after 1 second.',
          details: { retry_after: 1 },
        });
        expect(refusal?.headers.get('retry-after')).toBe('1');

        const key = await freshKey(stack);
        const before = await verifications(stack);
        const valid = await amidFlood(stack, key);
        // At once, or on the first retry: the meter keeps slots for keys it refused before, and
        // new made-up keys never take them.
        expect(valid.answer.status).toBe(200);
        expect(valid.refused).toBeLessThanOrEqual(1);
        // What the meter refused never reached the backend: one verification per made-up key
        // that was answered 401, and one for the valid key.
        expect(await verifications(stack)).toBe(before + count(valid.flood, 401) + 1);

        // Verified now, the key passes at once, however the address behaves, and costs no verification.
        await untilRefused(stack);
        const verified = await verifications(stack);
        expect((await stack.get(PATH, key)).status).toBe(200);
        expect(await verifications(stack)).toBe(verified);
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
        // Each made-up key from an address of its own, none near its own budget: only the fleet's meters them.
        let n = 0;
        const elsewhere = () => {
          n += 1;
          return { 'x-forwarded-for': `198.18.${n >> 8}.${n & 255}` };
        };
        const refusal = (await untilRefused(stack, elsewhere)).find((r) => r.status === 429);
        expect(refusal?.body.error.message).toBe('Too many failed authentications right now: retry after 1 second.');

        const before = await verifications(stack);
        const valid = await amidFlood(stack, await freshKey(stack), elsewhere);
        expect(valid.answer.status).toBe(200);
        expect(valid.refused).toBeLessThanOrEqual(1);
        expect(await verifications(stack)).toBe(before + count(valid.flood, 401) + 1);
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
          // The meter (1 a second) has just refused a new key...
          await untilRefused(b);
          const verified = await verifications(b);
          // ...but the key replica A verified is known fleet-wide: B admits it without a slot
          // and without asking the backend.
          expect((await b.get(PATH, key)).status).toBe(200);
          expect(await verifications(b)).toBe(verified);
        } finally {
          await a.close();
          await b.close();
        }
      });
    }
  });
}
