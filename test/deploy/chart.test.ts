/**
 * The Helm chart, checked without Helm or a cluster (neither is available to the suite):
 * - values.schema.json compiles (ajv, draft-07, strict), accepts values.yaml and every ci/ file
 *   merged over it as Helm merges them, and refuses every file of chart-values/bad at the value
 *   it names; and it describes every value of values.yaml, no more;
 * - every `.Values` reference of the templates exists in values.yaml, every value is used, and
 *   the `required` checks of the templates hold for the ci/ files, and so does the refusal of a
 *   grace period shorter than the preStop pause plus the gateway's drain (whose length is the
 *   server's shutdown deadline);
 * - the README's parameter table is what @bitnami/readme-generator-for-helm makes of values.yaml;
 * - the Secret's keys are named alike in the Deployment, NOTES.txt and the README, and are real
 *   gateway variables, as are the names the schema keeps out of `env`.
 * Rendering the templates and validating the objects against Kubernetes' schemas needs helm and
 * kubeconform: scripts/check-chart.sh does that where they are installed.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isLoopbackHost } from '../../src/admin/app.ts';
import { ConfigSchema } from '../../src/config.ts';
import { ROOT } from '../helpers/gateway-process.ts';

const CHART = join(ROOT, 'helm', 'openpm-gateway');
const BAD = join(ROOT, 'test', 'deploy', 'chart-values', 'bad');
const read = (path: string) => readFileSync(path, 'utf8');

type Values = Record<string, unknown>;
const isMap = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Helm's merge of a values file over the defaults: maps merge key by key, anything else replaces. */
function merge(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete out[k];
    else out[k] = isMap(v) && isMap(base[k]) ? merge(base[k], v) : v;
  }
  return out;
}

function get(values: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, k) => (isMap(v) ? v[k] : undefined), values);
}

const defaults = parse(read(join(CHART, 'values.yaml'))) as Values;
const schema = JSON.parse(read(join(CHART, 'values.schema.json'))) as Record<string, unknown>;
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(schema);
const errorsOf = (values: Values): ErrorObject[] => (validate(values) ? [] : [...(validate.errors ?? [])]);

const ciFiles = readdirSync(join(CHART, 'ci')).filter((f) => f.endsWith('.yaml'));
const badFiles = readdirSync(BAD).filter((f) => f.endsWith('.yaml'));

/** Every template, helper and file Helm renders. */
const templates = [
  ...readdirSync(join(CHART, 'templates')).map((f) => join(CHART, 'templates', f)),
  join(CHART, 'files', 'alerts.yaml'),
].map((path) => ({ path, text: read(path) }));

describe('values.schema.json', () => {
  it('accepts the defaults', () => {
    expect(errorsOf(defaults)).toEqual([]);
  });

  it.each(ciFiles)('accepts ci/%s merged over the defaults', (file) => {
    expect(errorsOf(merge(defaults, parse(read(join(CHART, 'ci', file))) as Values))).toEqual([]);
  });

  it('has bad examples to refuse', () => {
    expect(badFiles.length).toBeGreaterThanOrEqual(20);
  });

  it.each(badFiles)('refuses bad/%s at the value it names', (file) => {
    const text = read(join(BAD, file));
    const expected = /^# expect: (\S+)/m.exec(text)?.[1];
    expect(expected, 'each bad file names the value it gets wrong').toBeDefined();
    // Over a complete install, so that nothing but the named value is wrong.
    const values = merge(merge(defaults, parse(read(join(CHART, 'ci', 'standalone-values.yaml'))) as Values), parse(text) as Values);
    const errors = errorsOf(values);
    expect(errors.length).toBeGreaterThan(0);
    const at = errors.map((e) => (e.instancePath === '' ? '/' : e.instancePath));
    expect(at, JSON.stringify(errors)).toContain(expected);
  });

  it('describes every value of values.yaml, and nothing values.yaml lacks', () => {
    const missing: string[] = [];
    const stale: string[] = [];
    const walk = (values: unknown, node: Record<string, unknown> | undefined, path: string[]) => {
      if (node === undefined) return void missing.push(path.join('.'));
      const props = node['properties'] as Record<string, Record<string, unknown>> | undefined;
      if (!isMap(values) || props === undefined) return; // a leaf, or a free-form map
      for (const [k, v] of Object.entries(values)) walk(v, props[k], [...path, k]);
      for (const k of Object.keys(props)) if (!(k in values) && !(path.length === 0 && k === 'global')) stale.push([...path, k].join('.'));
    };
    walk(defaults, schema, []);
    expect(missing).toEqual([]);
    expect(stale).toEqual([]);
  });

  it('keeps secrets and the variables the chart sets out of env, by real variable names', () => {
    const env = (schema['properties'] as Record<string, { propertyNames: { not: { enum: string[] } } }>)['env'];
    const names = env?.propertyNames.not.enum ?? [];
    const known = new Set(Object.keys(ConfigSchema.shape));
    expect(names.filter((n) => !known.has(n))).toEqual([]);
    for (const n of Object.keys(defaults['env'] as Values)) expect(known.has(n)).toBe(true);
  });
});

describe('templates', () => {
  const helpers = read(join(CHART, 'templates', '_helpers.tpl'));
  const drainSeconds = Number(/\$drainSeconds := (\d+)/.exec(helpers)?.[1]);
  const refs = new Set<string>();
  for (const t of templates)
    for (const m of t.text.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) refs.add((m[1] as string).slice(1));

  it('refer only to values that values.yaml defines', () => {
    expect([...refs].filter((r) => get(defaults, r.split('.')) === undefined)).toEqual([]);
  });

  it('use every value of values.yaml', () => {
    const unused: string[] = [];
    const walk = (v: unknown, path: string[]) => {
      const name = path.join('.');
      const used = [...refs].some((r) => r === name || r.startsWith(`${name}.`) || name.startsWith(`${r}.`));
      if (used) return;
      if (isMap(v) && Object.keys(v).length > 0) for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
      else unused.push(name);
    };
    for (const [k, v] of Object.entries(defaults)) walk(v, [k]);
    expect(unused).toEqual([]);
  });

  it.each(ciFiles)('find every required value in ci/%s', (file) => {
    const values = merge(defaults, parse(read(join(CHART, 'ci', file))) as Values);
    const required = [...templates.flatMap((t) => [...t.text.matchAll(/required "[^"]*" \.Values\.([\w.]+)/g)].map((m) => m[1] as string))];
    expect(required.length).toBeGreaterThanOrEqual(3);
    for (const path of required) expect(get(values, path.split('.')), path).toBeTruthy();
    if (get(values, ['redis', 'mode']) === 'sentinel') expect((get(values, ['redis', 'sentinels']) as unknown[]).length).toBeGreaterThan(0);
    const grace = get(values, ['terminationGracePeriodSeconds']) as number;
    expect(grace).toBeGreaterThan((get(values, ['preStopSleepSeconds']) as number) + drainSeconds);
  });

  it("refuse a grace period that leaves no room for the preStop pause and the gateway's drain", () => {
    // The helper's drain is the server's own shutdown deadline, in seconds.
    const server = /const SHUTDOWN_GRACE_MS = ([\d_]+);/.exec(read(join(ROOT, 'src', 'server.ts')))?.[1];
    expect(Number(server?.replaceAll('_', '')) / 1000).toBe(drainSeconds);
    expect(helpers).toMatch(
      /if le \(int \.Values\.terminationGracePeriodSeconds\) \(add \(int \.Values\.preStopSleepSeconds\) \$drainSeconds\) -\}\}\n\{\{- fail /,
    );
  });

  it('carry the standard labels, and select by the stable ones only', () => {
    const helpers = read(join(CHART, 'templates', '_helpers.tpl'));
    for (const label of [
      'helm.sh/chart',
      'app.kubernetes.io/managed-by',
      'app.kubernetes.io/version',
      'app.kubernetes.io/name',
      'app.kubernetes.io/instance',
    ]) {
      expect(helpers).toContain(`${label}:`);
    }
    const selector = /define "openpm.selectorLabels" -}}([\s\S]*?){{- end/.exec(helpers)?.[1] ?? '';
    expect(
      selector
        .trim()
        .split('\n')
        .map((l) => l.split(':')[0]?.trim()),
    ).toEqual(['app.kubernetes.io/name', 'app.kubernetes.io/instance']);
    for (const t of templates.filter((x) => x.path.endsWith('.yaml') && x.text.includes('kind:'))) {
      expect(t.text, t.path).toContain('include "openpm.labels"');
    }
  });

  it('default to a restricted pod: non-root, no token, seccomp, no capabilities, read-only root', () => {
    expect(defaults['serviceAccount']).toMatchObject({ create: true, automountServiceAccountToken: false });
    expect(defaults['podSecurityContext']).toMatchObject({ seccompProfile: { type: 'RuntimeDefault' } });
    expect(defaults['containerSecurityContext']).toMatchObject({
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    const deployment = read(join(CHART, 'templates', 'deployment.yaml'));
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) expect(deployment).toContain(`${probe}:`);
    expect(deployment).toContain('automountServiceAccountToken:');
    expect(deployment).toContain('mountPath: /tmp');
  });
});

describe('loopback', () => {
  const loopback = (schema['definitions'] as Record<string, { pattern: string }>)['loopbackAddress'];
  const isLoopbackInSchema = ajv.compile({ ...loopback, definitions: undefined });

  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::FFFF:127.0.0.9',
    'localhost',
    'LocalHost',
    'admin.localhost',
    '0.0.0.0',
    '::',
    '10.1.2.3',
    'fd00::5',
    '::ffff:10.0.0.1',
    'notlocalhost',
    'localhost.example.com',
    '128.0.0.1',
  ])('%s is loopback to the values schema exactly when it is to the gateway', (host) => {
    expect(isLoopbackInSchema(host)).toBe(isLoopbackHost(host));
  });

  it("is judged by NOTES.txt with the schema's own pattern", () => {
    const notes = read(join(CHART, 'templates', 'NOTES.txt'));
    expect(/regexMatch `([^`]+)` \.Values\.adminListenAddress/.exec(notes)?.[1]).toBe(loopback?.pattern);
  });
});

describe('the Secret', () => {
  const deployment = read(join(CHART, 'templates', 'deployment.yaml'));
  const keys = [...(/range \$key, \$optional := dict ([^}]*)}}/.exec(deployment)?.[1] ?? '').matchAll(/"([A-Z_]+)" (true|false)/g)].map(
    (m) => ({
      key: m[1] as string,
      optional: m[2] === 'true',
    }),
  );

  it('has its keys named as gateway variables', () => {
    expect(keys.length).toBeGreaterThanOrEqual(7);
    const known = new Set(Object.keys(ConfigSchema.shape));
    expect(keys.filter((k) => !known.has(k.key))).toEqual([]);
  });

  it('is explained key by key in NOTES.txt and the README, required ones in the create command', () => {
    const notes = read(join(CHART, 'templates', 'NOTES.txt'));
    const readme = read(join(CHART, 'README.md'));
    for (const { key, optional } of keys) {
      expect(notes, key).toContain(key);
      expect(readme, key).toMatch(new RegExp(`\\| \`${key}\` \\| ${optional ? 'no' : 'yes'} \\|`));
      if (!optional) expect(notes, key).toContain(`--from-literal=${key}=`);
    }
  });
});

describe('README', () => {
  it('has the parameter table readme-generator makes of values.yaml', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openpm-readme-'));
    try {
      copyFileSync(join(CHART, 'values.yaml'), join(dir, 'values.yaml'));
      copyFileSync(join(CHART, 'README.md'), join(dir, 'README.md'));
      const bin = join(ROOT, 'node_modules', '@bitnami', 'readme-generator-for-helm', 'bin', 'index.js');
      await promisify(execFile)(process.execPath, [bin, '--values', join(dir, 'values.yaml'), '--readme', join(dir, 'README.md')]);
      expect(
        read(join(dir, 'README.md')),
        'regenerate: npx readme-generator -v helm/openpm-gateway/values.yaml -r helm/openpm-gateway/README.md',
      ).toBe(read(join(CHART, 'README.md')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
