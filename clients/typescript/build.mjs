// `npm run build` (and `prepack`, so `npm pack` builds; nothing runs on install): the package's JavaScript and
// declarations in dist/, compiled from src/ by the repository's TypeScript, twice: an
// ECMAScript-module build (dist/esm) and a CommonJS one (dist/cjs, marked by a package.json of
// its own). Plain JavaScript, so any Node that runs npm can run it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = join(here, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(tsc)) {
  process.stderr.write(`build: TypeScript not found at ${tsc}; run npm ci at the repository's root first\n`);
  process.exit(1);
}

function compile(...args) {
  const r = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json'), ...args], { cwd: here, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/**
 * The sources import with `.ts` (Node runs them as they are); the compiler rewrites the
 * JavaScript's imports to `.js` but leaves the declarations' as they are. TypeScript 5 reads
 * those, older versions refuse a `.ts` import path (TS2691): name them `.js`, as everywhere.
 */
function rewriteDeclarationImports(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) rewriteDeclarationImports(path);
    else if (entry.name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8');
      const fixed = text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*?)\.ts\2/g, '$1$2$3.js$2');
      if (fixed !== text) writeFileSync(path, fixed);
    }
  }
}

rmSync(join(here, 'dist'), { recursive: true, force: true });
compile();
compile('--module', 'commonjs', '--moduleResolution', 'bundler', '--outDir', join(here, 'dist', 'cjs'));
mkdirSync(join(here, 'dist', 'cjs'), { recursive: true });
rewriteDeclarationImports(join(here, 'dist'));
writeFileSync(join(here, 'dist', 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
process.stdout.write('build: dist/esm and dist/cjs written\n');
