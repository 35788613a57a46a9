import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Suites boot real servers on ephemeral ports and share one Redis; files run in parallel
    // workers but each file keeps its own keys (prefixes) so they never collide.
    pool: 'forks',
    reporters: ['default'],
  },
});
