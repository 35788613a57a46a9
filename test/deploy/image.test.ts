/**
 * The image, checked without a Docker engine (none runs here): the Dockerfile is read stage by
 * stage and its default target must listen on every interface, run as a numeric non-root user,
 * say NODE_ENV=production, carry a health check, and copy neither the sandbox, nor fixtures,
 * nor tests; .dockerignore must keep tests and everything else out of the build context. Then
 * the production file set is laid out as the image would hold it and started: it must serve
 * a real backend with only production dependencies imported.
 *
 * What this does not check: that `docker build` succeeds (no engine), the base image's
 * contents, or the HEALTHCHECK command inside a container.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.ts';
import { ROOT, startGateway } from '../helpers/gateway-process.ts';
import { KEYS, SERVICE_TOKEN } from '../helpers/stack.ts';

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

/** Dockerfile → stages, with line continuations joined, comments dropped and ARGs substituted. */
function parseDockerfile(text: string): Stage[] {
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  const logical = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const raw of logical) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [, op = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const expanded = rest.replace(/\$\{(\w+)\}/g, (_, k: string) => args.get(k) ?? '');
    const upper = op.toUpperCase();
    if (upper === 'ARG' && stages.length === 0) {
      const [k = '', v = ''] = expanded.split('=');
      args.set(k, v);
    } else if (upper === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(expanded);
      stages.push({ base: m?.[1] ?? '', name: m?.[2] ?? String(stages.length), instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ op: upper, args: expanded });
    }
  }
  return stages;
}

/** A stage and the stages it is built on, the stage itself first. */
function chain(stages: Stage[], name: string): Stage[] {
  const out: Stage[] = [];
  for (let s = stages.find((x) => x.name === name); s !== undefined; s = stages.find((x) => x.name === s?.base)) out.push(s);
  return out;
}

/** ENV as the running container sees it: later stages override earlier ones. */
function envOf(stages: Stage[]): Map<string, string> {
  const env = new Map<string, string>();
  for (const s of [...stages].reverse()) {
    for (const i of s.instructions.filter((x) => x.op === 'ENV')) {
      for (const m of i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env.set(m[1] as string, (m[2] as string).replace(/^"|"$/g, ''));
    }
  }
  return env;
}

const last = (stages: Stage[], op: string) => stages.flatMap((s) => s.instructions.filter((i) => i.op === op))[0];

/** The sources of the COPY instructions that read the build context (not another stage). */
function contextCopies(stages: Stage[]): string[] {
  return stages
    .flatMap((s) => s.instructions)
    .filter((i) => i.op === 'COPY' && !i.args.includes('--from='))
    .flatMap((i) => {
      const parts = i.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      return parts.slice(0, -1).map((p) => normalize(p).replace(/\/$/, ''));
    });
}

/** Whether the build context keeps `file` under .dockerignore's rules (the last match wins). */
function inContext(file: string, rules: { negate: boolean; re: RegExp }[]): boolean {
  let included = true;
  const parents = file.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  for (const r of rules) if (parents.some((p) => r.re.test(p))) included = r.negate;
  return included;
}
function dockerignoreRules(text: string): { negate: boolean; re: RegExp }[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = normalize(l.replace(/^!/, '')).replace(/\/$/, '');
      const re = pattern
        .split('/')
        .map((seg) =>
          seg === '**'
            ? '(?:.*)'
            : seg
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/')
        .replace(/\(\?:\.\*\)\//g, '(?:.*/)?');
      return { negate, re: new RegExp(`^${re}$`) };
    });
}

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const stages = parseDockerfile(dockerfile);
const production = chain(stages, stages.at(-1)?.name ?? '');
const run = promisify(execFile);

describe('Dockerfile', () => {
  it('builds the production image by default, and the sandbox only as a named target', () => {
    expect(stages.at(-1)?.name).toBe('production');
    expect(stages.map((s) => s.name)).toContain('sandbox');
    expect(production.map((s) => s.name)).not.toContain('sandbox');
  });

  it('listens on every interface, says NODE_ENV=production and runs node on the sources', () => {
    const env = envOf(production);
    expect(env.get('HOST')).toBe('0.0.0.0');
    expect(env.get('NODE_ENV')).toBe('production');
    expect(last(production, 'CMD')?.args).toMatch(/^\["node", (?:"--[a-z-]+=\d+", )*"src\/server\.ts"\]$/);
    expect(last(production, 'STOPSIGNAL')?.args).toBe('SIGTERM');
  });

  it('gives node the same flags as npm start, which the benchmark measures with', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
    const flags = pkg.scripts.start.replace(/^node\s+/, '').replace(/\s*src\/server\.ts$/, '');
    expect(flags).toMatch(/--max-semi-space-size=\d+/);
    expect(flags).toMatch(/--min-semi-space-size=\d+/);
    // Flags Node accepts in NODE_OPTIONS go there (an operator can change them); the others
    // on CMD's command line.
    const commandLine = (JSON.parse(last(production, 'CMD')?.args ?? '[]') as string[]).slice(1, -1);
    expect([envOf(production).get('NODE_OPTIONS'), ...commandLine].join(' ')).toBe(flags);
    for (const flag of commandLine) expect(process.allowedNodeEnvironmentFlags.has(flag.split('=')[0] as string)).toBe(false);
  });

  it('runs as a numeric, non-root user', () => {
    const user = last(production, 'USER')?.args ?? 'root';
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(Number(user.split(':')[0])).toBeGreaterThan(0);
  });

  it('has a health check on /livez', () => {
    expect(last(production, 'HEALTHCHECK')?.args).toMatch(/\/livez/);
  });

  it('copies no sandbox, fixtures or tests into the production image, and only production dependencies', () => {
    const sources = contextCopies(production);
    expect(sources.length).toBeGreaterThan(0);
    for (const src of sources) {
      expect(src).not.toBe('.');
      expect(src).not.toMatch(/^(sandbox|fixtures|test|helm|scripts)(\/|$)/);
      // Of the docs, only the MCP guide that /docs serves.
      if (src.startsWith('docs')) expect(src).toBe('docs/mcp.md');
    }
    // node_modules comes from a stage that installs without devDependencies.
    const fromStages = production
      .flatMap((s) => s.instructions)
      .flatMap((i) => [...i.args.matchAll(/--from=(\S+)/g)].map((m) => m[1] as string));
    expect(fromStages.length).toBeGreaterThan(0);
    for (const name of fromStages) {
      const installs = chain(stages, name).flatMap((s) => s.instructions.filter((i) => i.op === 'RUN' && /npm (ci|install)/.test(i.args)));
      expect(installs.length).toBeGreaterThan(0);
      for (const i of installs) expect(i.args).toMatch(/--omit=dev/);
    }
    // The npm package `node` (Node 24 for npm's scripts on an older system Node) is a
    // development dependency only: the image runs its base image's Node.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    expect(pkg['dependencies']?.['node']).toBeUndefined();
    expect(pkg['devDependencies']?.['node']).toMatch(/^\^24\./);
  });

  it('keeps tests, docs, the chart and secrets out of the build context (.dockerignore)', async () => {
    const rules = dockerignoreRules(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));
    const files = (await run('git', ['ls-files'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })).stdout.trim().split('\n');
    const sent = files.filter((f) => inContext(f, rules));
    expect(sent.filter((f) => /^(test|docs|helm|scripts|\.ci|node_modules)\//.test(f) || /\.test\.ts$/.test(f))).toEqual(['docs/mcp.md']);
    expect(inContext('.env', rules)).toBe(false);
    // Everything a stage copies is there.
    for (const src of contextCopies(stages)) expect(sent.some((f) => f === src || f.startsWith(`${src}/`))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// The production file set, laid out and run.

const layout = mkdtempSync(join(tmpdir(), 'openpm-image-'));
let sandbox: Sandbox;

beforeAll(async () => {
  for (const src of contextCopies(production)) cpSync(join(ROOT, src), join(layout, src), { recursive: true });
  // The dependencies the deps stage would install (the repo's own, dev ones included, so the
  // import check below is what keeps dev-only packages out).
  symlinkSync(join(ROOT, 'node_modules'), join(layout, 'node_modules'), 'dir');
  sandbox = await startSandbox({ serviceToken: SERVICE_TOKEN });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(layout, { recursive: true, force: true });
});

/** Every import of the production files: relative ones must resolve inside them, bare ones to production dependencies. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

describe('the production file set', () => {
  it('imports nothing outside itself, and only production dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const builtins = new Set(builtinModules);
    const missing: string[] = [];
    const files = ['src', 'mappers', 'bin'].flatMap((d) =>
      (readdirSync(join(layout, d), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(layout, d, f)),
    );
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      for (const spec of importsOf(file)) {
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          // The sandbox is loaded only without UPSTREAM_URL, which production never runs.
          if (relative(layout, target).startsWith('sandbox/') && file.endsWith('src/server.ts')) continue;
          if (!existsSync(target)) missing.push(`${relative(layout, file)} → ${spec}`);
        } else if (!spec.startsWith('node:') && !builtins.has(spec)) {
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
          if (!(name in pkg.dependencies)) missing.push(`${relative(layout, file)} → ${spec} (not a production dependency)`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('starts with the image environment and serves a real backend', async () => {
    const gw = await startGateway(
      {
        ...Object.fromEntries(envOf(production)),
        // Loopback and free ports here: this machine is shared; HOST=0.0.0.0 itself is checked above.
        HOST: '127.0.0.1',
        PORT: '0',
        ADMIN_PORT: '0',
        LOG_LEVEL: 'info',
        UPSTREAM_URL: sandbox.url,
        UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN,
      },
      { cwd: layout },
    );
    try {
      expect((await fetch(`${gw.url}/livez`)).status).toBe(200);
      const read = await fetch(`${gw.url}/open/v1/topic-categories`, { headers: { authorization: `Bearer ${KEYS.aliceRead}` } });
      expect(read.status).toBe(200);
      expect(gw.stdout() + gw.stderr()).not.toContain('demo key'); // no sandbox in play
    } finally {
      await gw.stop();
    }
  });
});
