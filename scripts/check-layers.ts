/**
 * `npm run lint`'s dependency check: dependency-cruiser over src/ and mappers/ with the rules of
 * .dependency-cruiser.cjs (the layers, no cycle). Exits 1 naming each violation.
 *
 * dependency-cruiser reads TypeScript through the compiler API, which TypeScript 7 (the
 * project's `typescript`) does not ship, so its `typescript` resolves to the TypeScript 6
 * package instead.
 */
import { createRequire, registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'typescript' || specifier.startsWith('typescript/')) {
      return next(`@typescript/typescript6${specifier.slice('typescript'.length)}`, context);
    }
    return next(specifier, context);
  },
});

const { cruise } = await import('dependency-cruiser');
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs');
const result = await cruise(['src', 'mappers'], {
  ...config.options,
  ruleSet: { forbidden: config.forbidden },
  validate: true,
  outputType: 'err',
});
if (typeof result.output === 'string' && result.output.trim() !== '') process.stdout.write(result.output);
const summary = typeof result.output === 'string' ? null : result.output.summary;
if (result.exitCode !== 0 || (summary !== null && summary.error > 0)) process.exit(1);
