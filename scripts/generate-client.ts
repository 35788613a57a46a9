/**
 * `npm run client`: generates the typed client of the REST surface from docs/openapi.json into
 * clients/typescript/src/generated/ with @hey-api/openapi-ts (types, one function per
 * operation, and hey-api's fetch client copied into the output, so the generated code imports
 * no package). `--out DIR` writes elsewhere: the drift test regenerates into a temp dir.
 *
 * hey-api 0.99 prints its output through TypeScript's JavaScript compiler API, which
 * TypeScript 7, the project's compiler, no longer ships (its `typescript` package is the native
 * compiler). The resolve hook below hands hey-api, and only hey-api, TypeScript 6's API from
 * @typescript/typescript6 when it imports `typescript`; everything else keeps TypeScript 7.
 */
import { registerHooks } from 'node:module';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/@hey-api/')) {
      return nextResolve('@typescript/typescript6', context);
    }
    return nextResolve(specifier, context);
  },
});

// Imported after the hook is in place: a static import would be resolved before it.
const { createClient } = await import('@hey-api/openapi-ts');

const DEFAULT_OUT = fileURLToPath(new URL('../clients/typescript/src/generated', import.meta.url));
const INPUT = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = values.out ?? DEFAULT_OUT;

await createClient({
  input: INPUT,
  output: {
    path: out,
    // Relative imports end in .ts, as everywhere in this repository: Node runs the sources as
    // they are and tsc (rewriteRelativeImportExtensions) accepts them.
    module: { extension: '.ts' },
    // Named, so that output written outside the repository (the drift test) is the same.
    tsConfigPath: TSCONFIG,
    header: '// Generated from docs/openapi.json by `npm run client` (@hey-api/openapi-ts): do not edit.',
  },
  plugins: [
    // Calls resolve with `{ data, request, response }` and reject on an error answer, so the
    // SDK's return types carry the success body, not a union with the error.
    { name: '@hey-api/client-fetch', throwOnError: true },
    '@hey-api/typescript',
    '@hey-api/sdk',
  ],
  logs: { level: 'warn' },
});
console.log(`wrote ${out}`);
