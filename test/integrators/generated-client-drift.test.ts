/**
 * The committed generated client is exactly what `npm run client` makes of docs/openapi.json
 * today: a change to the document (or to the generator's settings) that was not followed by a
 * regeneration fails here. The generator runs as integrators run it, in its own Node process.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMMITTED = join(ROOT, 'clients/typescript/src/generated');

/** Every file under `dir`, by path relative to it. */
async function tree(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const texts = await Promise.all(files.map((f) => readFile(f, 'utf8')));
  return new Map(files.map((f, i) => [relative(dir, f), texts[i] ?? ''] as const).sort(([a], [b]) => a.localeCompare(b)));
}

describe('generated client', () => {
  it('is up to date with docs/openapi.json (run `npm run client` when this fails)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'openpm-client-'));
    try {
      await promisify(execFile)(process.execPath, ['scripts/generate-client.ts', '--out', out], { cwd: ROOT });
      const fresh = await tree(out);
      const committed = await tree(COMMITTED);
      expect([...committed.keys()]).toEqual([...fresh.keys()]);
      const stale = [...fresh].filter(([file, text]) => committed.get(file) !== text).map(([file]) => file);
      expect(stale).toEqual([]);
      // Not vacuous: the SDK has one function per operation of the document.
      expect(fresh.get('sdk.gen.ts')).toContain('export const placeOrder = ');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);
});
