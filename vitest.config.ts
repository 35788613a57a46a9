import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects, both run by `npm test`:
 * - `unit`: everything that needs no Redis (`npm run test:unit` runs it alone, with no Redis);
 * - `redis`: the suites against a real Redis (`*.redis.test.ts`), the Redis topologies
 *   (test/redis-cluster/) and the end-to-end suites (test/e2e/), which boot whole gateways.
 */
const needsRedis = [
  'test/**/*.redis.test.ts',
  'test/redis-cluster/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  // The benchmark's count of Redis round trips.
  'test/bench/round-trips.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Suites boot real servers on ephemeral ports and share one Redis; files run in parallel
    // workers but each file keeps its own keys (prefixes) so they never collide.
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on two cores, the whole
    // suite in series. Much of it waits (on child processes, sockets, timers), so two workers.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          // Browser tests have their own run (test/browser/vitest.config.ts).
          exclude: [...configDefaults.exclude, 'test/browser/**', ...needsRedis],
        },
      },
      {
        extends: true,
        test: {
          name: 'redis',
          include: needsRedis,
          exclude: [...configDefaults.exclude, 'test/browser/**'],
          // Fails fast, in one line, when the Redis these suites need is not there.
          globalSetup: ['test/setup/redis-preflight.ts'],
        },
      },
    ],
  },
});
