/**
 * The tests Stryker runs against each mutant of the money and limits path (stryker.config.mjs):
 * the unit suites of those modules, the registry and OpenAPI suites that hold what operations
 * declare, and the end-to-end suites that drive the previews and executions through a real gateway (the only tests that reach some of their branches). Other
 * suites reach none of the mutated code, or only through child processes Stryker cannot see.
 */
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Unit suites first, end-to-end suites last: Stryker stops a mutant's run at its first failing
 * test, so a mutant the fast suites kill never pays for booting a gateway.
 */
class UnitFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => (f.moduleId.includes('/test/e2e/') ? 1 : 0);
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  test: {
    include: [
      'test/confirm/**/*.test.ts',
      'test/config.test.ts',
      'test/limits/**/*.test.ts',
      'test/auth/**/*.test.ts',
      'test/mappers/decimal*.test.ts',
      'test/operations/writes/**/*.test.ts',
      // What the executions declare (tag, error codes, language) is held by these.
      'test/operations/registry.test.ts',
      'test/http/openapi.test.ts',
      // The throttle of the endpoints served without a key (src/limits/public-throttle.ts).
      'test/http/public-documents.test.ts',
      'test/e2e/writes-order.test.ts',
      'test/e2e/writes-opinion.test.ts',
      'test/e2e/writes-back.test.ts',
      'test/e2e/writes-token.test.ts',
      'test/e2e/writes-mcp.test.ts',
      // What each execution declares for its audit record, and the MCP client's confirmation.
      'test/e2e/audit-trail.test.ts',
      'test/e2e/writes-mcp-confirmation.test.ts',
      'test/e2e/auth-refusals-and-shared-verdicts.test.ts',
      'test/e2e/limits-burst.test.ts',
    ],
    exclude: [...configDefaults.exclude, '.stryker-tmp/**', 'reports/**'],
    environment: 'node',
    globalSetup: ['test/setup/redis-preflight.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One file at a time: Stryker already runs two workers, and the end-to-end suites that count
    // requests across several gateways must not compete with other files for the cores.
    fileParallelism: false,
    sequence: { sequencer: UnitFirst },
    reporters: ['default'],
  },
});
