/**
 * The browser tests (`npm run test:browser`): kept out of `npm test` because they need a
 * chromium, which CI installs (scripts/test-browser.sh) but a developer machine may lack.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/browser/**/*.test.ts'],
    environment: 'node',
    // Scalar's page is a few megabytes of script; on a busy 2-core machine it takes a while.
    testTimeout: 120_000,
    hookTimeout: 150_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
