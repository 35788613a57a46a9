/**
 * The TypeScript client as an installable package (clients/typescript, `@openpm/client`): packed
 * with `npm pack` (its `prepack` builds it), installed from the tarball into fresh projects of
 * each kind a user starts with, and run there against a sandbox gateway: an ECMAScript-module
 * project, a CommonJS one, and TypeScript with `tsc --init`'s defaults (type-checked, then
 * run). Each makes a read, then a preview → confirm → execute with previewConfirmExecute.
 *
 * The package has no dependency, so installing its tarball needs no registry (`--offline`).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genericMarketId, outcomeId } from '../../sandbox/index.ts';
import { ROOT } from '../helpers/gateway-process.ts';
import { KEYS, startStack, type Stack } from '../helpers/stack.ts';

const run = promisify(execFile);
const PACKAGE_DIR = join(ROOT, 'clients', 'typescript');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** npm's scripts find this Node first (node_modules/.bin), whatever the system's is. */
const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}` };

let stack: Stack;
let work: string;
let tarball: string;
/** The paths `npm pack` put in the tarball. */
let files: string[] = [];
const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  name: string;
  dependencies?: Record<string, string>;
  exports: Record<string, unknown>;
};

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off' } });
  work = mkdtempSync(join(tmpdir(), 'openpm-client-package-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: PACKAGE_DIR, env, maxBuffer: 16 * 1024 * 1024 });
  // `prepack` prints the build's own line before npm's JSON.
  const json = packed.stdout.slice(packed.stdout.indexOf('['));
  const [info] = JSON.parse(json) as { filename: string; files: { path: string }[] }[];
  if (info === undefined) throw new Error(`npm pack said: ${packed.stdout}`);
  tarball = join(work, info.filename);
  files = info.files.map((f) => f.path);
}, 120_000);

afterAll(async () => {
  await stack?.close();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** A fresh project with `package.json` (`type`), the tarball installed, and these files. */
async function project(name: string, type: 'module' | 'commonjs', sources: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true, type }, null, 2)}\n`);
  await run('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund'], { cwd: dir, env });
  for (const [file, text] of Object.entries(sources)) writeFileSync(join(dir, file), text);
  return dir;
}

/** What each project does: a read, then an order through previewConfirmExecute on its own market. */
function program(market: number, flavour: 'esm' | 'cjs' | 'ts'): string {
  const topic = genericMarketId(market);
  const option = outcomeId(topic, 1);
  const names = 'createOpenPmClient, getMyProfile, listTopics, placeOrder, previewConfirmExecute, previewOrder';
  const body = `
  const client = createOpenPmClient({ baseUrl: '${stack.url}/open/v1', apiKey: '${KEYS.aliceWrite}' });
  const { data: me } = await getMyProfile({ client });
  const { data: page } = await listTopics({ client, query: { limit: 2 } });
  const outcome = await previewConfirmExecute({
    preview: async () =>
      (await previewOrder({ client, path: { topic_id: '${topic}' }, body: { option_id: '${option}', amount_coins: 25 } })).data,
    confirm: (preview) => preview.summary !== undefined,
    execute: async (token) => (await placeOrder({ client, body: { confirm_token: token } })).data,
  });
  const order = outcome.status === 'executed' ? outcome.result : null;
  console.log(JSON.stringify({ handle: me.handle, topics: page.data.length, status: outcome.status, topic: order?.topic_id, replayed: order?.replayed }));
`;
  if (flavour === 'cjs') return `const { ${names} } = require('${manifest.name}');\n\n(async () => {${body}})();\n`;
  return `import { ${names} } from '${manifest.name}';\n${body}`;
}

async function runNode(dir: string, file: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, [file], { cwd: dir, env });
  return JSON.parse(stdout.trim());
}

const expected = (market: number) => ({ handle: 'alice', topics: 2, status: 'executed', topic: genericMarketId(market), replayed: false });

describe('the client package', () => {
  it('ships compiled JavaScript (ESM and CommonJS) and declarations, no TypeScript source, and needs no dependency', () => {
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js']),
    );
    expect(files).toContain('dist/cjs/package.json');
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('works from a fresh ECMAScript-module project', async () => {
    const dir = await project('esm-app', 'module', { 'index.js': program(5, 'esm') });
    expect(await runNode(dir, 'index.js')).toEqual(expected(5));
  }, 60_000);

  it('works from a fresh CommonJS project', async () => {
    const dir = await project('cjs-app', 'commonjs', { 'index.js': program(6, 'cjs') });
    expect(await runNode(dir, 'index.js')).toEqual(expected(6));
  }, 60_000);

  it("type-checks under tsc --init's defaults (exactOptionalPropertyTypes, nodenext) and runs", async () => {
    const dir = await project('ts-app', 'module', { 'index.ts': program(7, 'ts') });
    await run(process.execPath, [TSC, '--init'], { cwd: dir, env });
    const tsconfig = readFileSync(join(dir, 'tsconfig.json'), 'utf8');
    expect(tsconfig).toMatch(/"exactOptionalPropertyTypes": true/);
    const compiled = await run(process.execPath, [TSC, '-p', '.'], { cwd: dir, env }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, out: err.stdout }),
    );
    expect(compiled).toEqual({ code: 0, out: '' });
    expect(await runNode(dir, 'index.js')).toEqual(expected(7));
  }, 60_000);
});
