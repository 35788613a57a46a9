// Mutation testing of the money and limits path (docs/reliability.md#mutation-testing-of-the-money-path).
// Run with `npm run test:mutation`; one file at a time with
// `npx stryker run --mutate src/limits/store.ts`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', './stryker.ignorers.mjs'],
  ignorers: ['operation-text', 'equivalent'],
  vitest: {
    configFile: 'vitest.stryker.config.ts',
    // The end-to-end suites reach the operations over HTTP, not by importing them.
    related: false,
  },
  // Each mutant runs only the tests that reached it in the initial run.
  coverageAnalysis: 'perTest',
  mutate: ['src/confirm/**/*.ts', 'src/limits/**/*.ts', 'src/auth/**/*.ts', 'mappers/decimal.ts', 'src/operations/writes/**/*.ts'],
  // Stryker reads tsconfig.json through the TypeScript compiler API, which TypeScript 7 does
  // not ship; naming a file that does not exist skips that. Type checking stays with
  // `npm run typecheck`.
  tsconfigFile: 'stryker-has-no-tsconfig.json',
  // Reuse the results of the last run (under the git-ignored reports/) for every mutant whose
  // code and covering tests did not change; `--force` tests everything again.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  concurrency: 2,
  timeoutMS: 10_000,
  tempDirName: 'reports/.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: ['reports', 'coverage', 'dist', 'helm', 'clients', '.git'],
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 80, break: null },
};
