import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests have their own run (test/browser/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    environment: 'node',
    // Fails fast, in one line, when the Redis the suite needs is not there.
    globalSetup: ['test/setup/redis-preflight.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Suites boot real servers on ephemeral ports and share one Redis; files run in parallel
    // workers but each file keeps its own keys (prefixes) so they never collide.
    pool: 'forks',
    reporters: ['default'],
  },
});
