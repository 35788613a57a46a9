/**
 * The Helm chart, checked without Helm or a cluster (neither is available to the suite):
 * - values.schema.json compiles (ajv, draft-07, strict), accepts values.yaml, every ci/ file and
 *   every file of chart-values/good merged over it as Helm merges them, and refuses every file of
 *   chart-values/bad at the value it names; and it describes every value of values.yaml, no more;
 * - every `.Values` reference of the templates exists in values.yaml, every value is used, and
 *   the `required` checks of the templates hold for the ci/ files;
 * - the refusals of the validation helper (`fail` in templates/_helpers.tpl: a grace period the
 *   drain does not fit in, a Redis command timeout the readiness probe cannot wait for, a
 *   disruption budget that blocks every drain, …): their conditions and messages are read from
 *   the helper's text and applied, as written there, to the ci/ files and chart-values/good
 *   (none refused) and chart-values/refused (each refused with the message it names);
 * - what the templates render, read from their text: the NetworkPolicy's defaults, egress to
 *   Redis and the backend when egress is closed, no service links, no rollingUpdate beside
 *   Recreate, spreading per topology, seccomp profiles, IP families, and monitoring objects
 *   named per release;
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
import { isLoopbackHost } from '../../src/admin/tokens.ts';
import { ConfigSchema } from '../../src/config.ts';
import { ROOT } from '../helpers/gateway-process.ts';

const CHART = join(ROOT, 'helm', 'openpm-gateway');
const BAD = join(ROOT, 'test', 'deploy', 'chart-values', 'bad');
const GOOD = join(ROOT, 'test', 'deploy', 'chart-values', 'good');
const REFUSED = join(ROOT, 'test', 'deploy', 'chart-values', 'refused');
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
const goodFiles = readdirSync(GOOD).filter((f) => f.endsWith('.yaml'));
const refusedFiles = readdirSync(REFUSED).filter((f) => f.endsWith('.yaml'));
const standalone = () => merge(defaults, parse(read(join(CHART, 'ci', 'standalone-values.yaml'))) as Values);
/** A file of chart-values/ over a complete install (ci/standalone-values.yaml), as scripts/check-chart.sh renders it. */
const overStandalone = (dir: string, file: string) => merge(standalone(), parse(read(join(dir, file))) as Values);

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

  it.each(goodFiles)('accepts good/%s over a complete install', (file) => {
    expect(errorsOf(overStandalone(GOOD, file))).toEqual([]);
  });

  it.each(refusedFiles)('accepts refused/%s over a complete install (the templates refuse it, not the schema)', (file) => {
    expect(errorsOf(overStandalone(REFUSED, file))).toEqual([]);
  });

  it('has bad examples to refuse', () => {
    expect(badFiles.length).toBeGreaterThanOrEqual(40);
  });

  it.each(badFiles)('refuses bad/%s at the value it names', (file) => {
    const text = read(join(BAD, file));
    const expected = /^# expect: (\S+)/m.exec(text)?.[1];
    expect(expected, 'each bad file names the value it gets wrong').toBeDefined();
    // Over a complete install, so that nothing but the named value is wrong.
    const values = overStandalone(BAD, file);
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

describe('the validation helper', () => {
  const helpers = read(join(CHART, 'templates', '_helpers.tpl'));
  const body = helpers.slice(helpers.indexOf('{{- define "openpm.validate" -}}'));
  const drainSeconds = Number(/\$drainSeconds := (\d+)/.exec(body)?.[1]);
  const num = (v: Values, path: string) => Number(get(v, path.split('.')));
  const str = (v: Values, path: string) => String(get(v, path.split('.')) ?? '');

  /** The message of a `fail (printf "…"` or `fail "…"` or `required "…"` of the helper, found by its start. */
  const message = (start: string): string => {
    const found = [...body.matchAll(/(?:fail \(printf |fail |required )"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] as string);
    const hits = found.filter((f) => f.startsWith(start));
    expect(hits, start).toHaveLength(1);
    return (hits[0] as string).replaceAll('\\"', '"');
  };
  const sprintf = (format: string, args: (string | number)[]) => {
    let i = 0;
    return format.replace(/%[ds]/g, () => String(args[i++]));
  };

  /** The fewest replicas there may be, as the helper counts them. */
  const replicas = (v: Values) =>
    get(v, ['autoscaling', 'hpa', 'enabled']) === true ? num(v, 'autoscaling.hpa.minReplicas') : num(v, 'replicaCount');
  /** Pods minAvailable keeps, a percentage rounded up as the disruption controller rounds it. */
  const kept = (v: Values) => {
    const min = str(v, 'pdb.minAvailable');
    return min.endsWith('%') ? Math.ceil((Number(min.slice(0, -1)) * replicas(v)) / 100) : Number(min);
  };

  /**
   * Each refusal: the condition as the helper writes it (held to its text), the same condition
   * over values, and the message's arguments.
   */
  const refusals: { start: string; conditions: string[]; when: (v: Values) => boolean; args?: (v: Values) => (string | number)[] }[] = [
    ...(['upstream.url', 'redis.url', 'existingSecret', 'env.PUBLIC_WEB_URL'] as const).map((path) => ({
      start: `${path} is required`,
      conditions: [`" .Values.${path} -}}`],
      when: (v: Values) => str(v, path) === '',
    })),
    {
      start: 'redis.sentinels is required',
      conditions: ['if and (eq .Values.redis.mode "sentinel") (empty .Values.redis.sentinels)'],
      when: (v) => str(v, 'redis.mode') === 'sentinel' && ((get(v, ['redis', 'sentinels']) as unknown[] | undefined) ?? []).length === 0,
    },
    {
      start: 'autoscaling.hpa.minReplicas must not exceed',
      conditions: [
        'if and .Values.autoscaling.hpa.enabled (gt (int .Values.autoscaling.hpa.minReplicas) (int .Values.autoscaling.hpa.maxReplicas))',
      ],
      when: (v) =>
        get(v, ['autoscaling', 'hpa', 'enabled']) === true && num(v, 'autoscaling.hpa.minReplicas') > num(v, 'autoscaling.hpa.maxReplicas'),
    },
    {
      start: 'terminationGracePeriodSeconds (',
      conditions: ['if le (int .Values.terminationGracePeriodSeconds) (add (int .Values.preStopSleepSeconds) $drainSeconds)'],
      when: (v) => num(v, 'terminationGracePeriodSeconds') <= num(v, 'preStopSleepSeconds') + drainSeconds,
      args: (v) => [num(v, 'terminationGracePeriodSeconds'), num(v, 'preStopSleepSeconds'), drainSeconds],
    },
    {
      start: 'redis.commandTimeoutMs (',
      conditions: [
        '{{- if .Values.readinessProbe.enabled -}}\n{{- if ge (int .Values.redis.commandTimeoutMs) (mul (int .Values.readinessProbe.timeoutSeconds) 1000) -}}\n{{- fail',
      ],
      when: (v) =>
        get(v, ['readinessProbe', 'enabled']) === true &&
        num(v, 'redis.commandTimeoutMs') >= num(v, 'readinessProbe.timeoutSeconds') * 1000,
      args: (v) => [
        num(v, 'redis.commandTimeoutMs'),
        num(v, 'readinessProbe.timeoutSeconds'),
        num(v, 'readinessProbe.timeoutSeconds') * 1000,
      ],
    },
    {
      start: 'pdb.minAvailable (',
      conditions: [
        'if and .Values.pdb.create (ne (toString .Values.pdb.minAvailable) "")',
        '$replicas := ternary (int .Values.autoscaling.hpa.minReplicas) (int .Values.replicaCount) .Values.autoscaling.hpa.enabled',
        '{{- if hasSuffix "%" $minAvailable -}}\n{{- $keep = div (add (mul (trimSuffix "%" $minAvailable | int) $replicas) 99) 100 -}}\n{{- else -}}\n{{- $keep = int $minAvailable -}}',
        '{{- if and (gt $replicas 0) (ge (int $keep) $replicas) -}}\n{{- fail',
      ],
      when: (v) => get(v, ['pdb', 'create']) === true && str(v, 'pdb.minAvailable') !== '' && replicas(v) > 0 && kept(v) >= replicas(v),
      args: (v) => [
        str(v, 'pdb.minAvailable'),
        replicas(v),
        get(v, ['autoscaling', 'hpa', 'enabled']) === true ? 'autoscaling.hpa.minReplicas' : 'replicaCount',
      ],
    },
  ];
  const refusedBy = (v: Values) => refusals.filter((r) => r.when(v)).map((r) => sprintf(message(r.start), r.args?.(v) ?? []));

  it('has every refusal of the helper mirrored here, each condition as the helper writes it', () => {
    const written = [...body.matchAll(/fail \(printf "|fail "|required "/g)].length;
    expect(refusals).toHaveLength(written);
    for (const r of refusals) for (const c of r.conditions) expect(body, r.start).toContain(c);
  });

  it("counts the drain the server's own shutdown deadline gives", () => {
    const server = /const SHUTDOWN_GRACE_MS = ([\d_]+);/.exec(read(join(ROOT, 'src', 'server.ts')))?.[1];
    expect(Number(server?.replaceAll('_', '')) / 1000).toBe(drainSeconds);
  });

  it('bounds the Redis PING that /readyz waits on by the command timeout the chart checks', () => {
    // /readyz (src/app.ts) answers once services.redis.ping() settles; ioredis bounds every
    // command by commandTimeout, which is REDIS_COMMAND_TIMEOUT_MS (src/store/redis.ts).
    expect(read(join(ROOT, 'src', 'app.ts'))).toMatch(/await services\.redis\.ping\(\)/);
    expect(read(join(ROOT, 'src', 'store', 'redis.ts'))).toMatch(/commandTimeout: opts\.commandTimeoutMs/);
    expect(read(join(CHART, 'templates', 'deployment.yaml'))).toMatch(
      /- name: REDIS_COMMAND_TIMEOUT_MS\n\s+value: \{\{ \.Values\.redis\.commandTimeoutMs \| quote \}\}/,
    );
  });

  it('lets the defaults through but for the required values', () => {
    expect(refusedBy(defaults).map((m) => m.split(' ')[0])).toEqual(['upstream.url', 'redis.url', 'existingSecret', 'env.PUBLIC_WEB_URL']);
  });

  it.each(ciFiles)('refuses nothing of ci/%s', (file) => {
    expect(refusedBy(merge(defaults, parse(read(join(CHART, 'ci', file))) as Values))).toEqual([]);
  });

  it.each(goodFiles)('refuses nothing of good/%s', (file) => {
    expect(refusedBy(overStandalone(GOOD, file))).toEqual([]);
  });

  it('has refused examples, at least one for each refusal but the required values', () => {
    const texts = refusedFiles.map((f) => read(join(REFUSED, f)));
    for (const r of refusals)
      if (!r.start.includes(' is required'))
        expect(
          texts.some((t) => t.includes(`# refused: ${r.start}`)),
          r.start,
        ).toBe(true);
  });

  it.each(refusedFiles)('refuses refused/%s with the message it names, and nothing else', (file) => {
    const expected = /^# refused: (.+)$/m.exec(read(join(REFUSED, file)))?.[1];
    expect(expected, 'each refused file names the start of its message').toBeDefined();
    const got = refusedBy(overStandalone(REFUSED, file));
    expect(got).toHaveLength(1);
    expect(got[0]?.startsWith(expected as string), got[0]).toBe(true);
  });
});

describe('what the templates render', () => {
  const template = (name: string) => read(join(CHART, 'templates', name));
  const helpers = template('_helpers.tpl');
  /** A helper's body: up to the next helper or comment (its own `{{- end -}}` lines look like its loops'). */
  const define = (name: string) => {
    const from = helpers.indexOf(`{{- define "${name}" -}}`);
    expect(from, name).toBeGreaterThanOrEqual(0);
    const rest = helpers.slice(from + 1);
    const ends = ['\n{{- define', '\n{{/*'].map((e) => rest.indexOf(e)).filter((i) => i >= 0);
    return rest.slice(0, ends.length > 0 ? Math.min(...ends) : undefined);
  };

  it('keep the admin port to Prometheus by default, and the API port open', () => {
    expect(defaults['networkPolicy']).toMatchObject({
      enabled: true,
      allowExternal: true,
      allowExternalEgress: true,
      metricsFrom: [
        {
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
          podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
        },
      ],
    });
    const policy = template('networkpolicy.yaml');
    expect(policy).toMatch(/- ports:\n\s+- port: admin\n\s+protocol: TCP\n\s+from:\n\s+\{\{- toYaml \. \| nindent 8 \}\}/);
    expect(policy).toMatch(
      /\{\{- if \.Values\.networkPolicy\.allowExternal \}\}\n\s+- ports:\n\s+- port: http\n\s+protocol: TCP\n\s+\{\{- else if/,
    );
  });

  it('open egress to Redis and the backend whenever egress is closed, from their endpoints', () => {
    const policy = template('networkpolicy.yaml');
    const closed = policy.slice(policy.indexOf('{{- if not .Values.networkPolicy.allowExternalEgress }}\n  {{- /*'));
    expect(closed).toContain('include "openpm.redisEgressPorts" .');
    expect(closed).toContain('include "openpm.upstreamEgressPorts" .');
    expect(closed).toMatch(/\(get \$\.Values\.networkPolicy \(printf "%sEgress" \$target\)\)\.to/);
    const redis = define('openpm.redisEgressPorts');
    for (const from of [
      '.Values.networkPolicy.redisEgress.ports',
      '.Values.redis.url',
      '.Values.redis.clusterNodes',
      '.Values.redis.sentinels',
    ])
      expect(redis).toContain(from);
    expect(redis).toMatch(/"default" 6379/);
    expect(redis).toMatch(/"default" 26379/);
    const upstream = define('openpm.upstreamEgressPorts');
    expect(upstream).toContain('.Values.networkPolicy.upstreamEgress.ports');
    expect(upstream).toContain('urlParse .Values.upstream.url');
    expect(upstream).toContain('(ternary 443 80 (eq $url.scheme "https"))');
  });

  it('turn service links off', () => {
    expect(template('deployment.yaml')).toMatch(/\n {6}enableServiceLinks: false\n/);
  });

  it('render rollingUpdate only with the RollingUpdate strategy', () => {
    const deployment = template('deployment.yaml');
    expect(deployment).not.toContain('toYaml .Values.updateStrategy |');
    expect(deployment).toMatch(
      /strategy:\n\s+type: \{\{ \.Values\.updateStrategy\.type \}\}\n[^\n]*\n\s+\{\{- if and \(eq \.Values\.updateStrategy\.type "RollingUpdate"\) \.Values\.updateStrategy\.rollingUpdate \}\}\n\s+rollingUpdate:/,
    );
  });

  it('spread over zones and over nodes each by its own setting, zones only preferred by default', () => {
    expect(defaults['topologySpread']).toMatchObject({ zoneWhenUnsatisfiable: 'ScheduleAnyway' });
    expect(template('deployment.yaml')).toContain(
      'range $key, $when := dict "topology.kubernetes.io/zone" .Values.topologySpread.zoneWhenUnsatisfiable "kubernetes.io/hostname" .Values.topologySpread.nodeWhenUnsatisfiable',
    );
    expect(template('deployment.yaml')).toContain('whenUnsatisfiable: {{ $when }}');
  });

  it("render a seccomp profile's path with Localhost only, for the pod and the container", () => {
    const deployment = template('deployment.yaml');
    expect(deployment).toContain('omit .Values.podSecurityContext "enabled" "seccompProfile"');
    expect(deployment).toContain('omit .Values.containerSecurityContext "enabled" "seccompProfile"');
    expect([...deployment.matchAll(/include "openpm\.seccompProfile" \./g)]).toHaveLength(2);
    expect(define('openpm.seccompProfile')).toMatch(/type: \{\{ \.type \}\}\n\{\{- if eq \.type "Localhost" \}\}\nlocalhostProfile: /);
  });

  it('give both Services the IP family settings', () => {
    for (const name of ['service.yaml', 'service-metrics.yaml']) expect(template(name)).toContain('include "openpm.serviceIpFamilies" .');
    const families = define('openpm.serviceIpFamilies');
    expect(families).toContain('ipFamilyPolicy: {{ . }}');
    expect(families).toContain('ipFamilies:');
  });

  it('name the monitoring objects, and the dashboard its uid, title and file, per release', () => {
    for (const [name, suffix] of [
      ['servicemonitor.yaml', '""'],
      ['prometheusrule.yaml', '""'],
      ['dashboard-configmap.yaml', '"-dashboard"'],
    ] as const) {
      expect(template(name), name).toContain(
        `include "openpm.monitoringName" (dict "context" $ "namespace" $namespace "suffix" ${suffix})`,
      );
    }
    // Outside the release's namespace, the release's namespace leads the name.
    expect(define('openpm.monitoringName')).toMatch(/if ne \.namespace \$own -\}\}\n\{\{- \$name = printf "%s-%s" \$own \$name/);
    expect(define('openpm.dashboardUid')).toContain('(printf "%s/%s" (include "openpm.namespace" .) .Release.Name)');
    const dashboard = template('dashboard-configmap.yaml');
    expect(dashboard).toContain('set $dashboard "uid" (include "openpm.dashboardUid" .)');
    expect(dashboard).toContain(
      'set $dashboard "title" (printf "%s (%s/%s)" $dashboard.title (include "openpm.namespace" .) .Release.Name)',
    );
    expect(dashboard).toContain('{{ $name }}.json: |-');
    // The file keeps a uid and a title of its own for the template to replace.
    const json = JSON.parse(read(join(CHART, 'files', 'dashboard.json'))) as { uid?: unknown; title?: unknown };
    expect(typeof json.uid).toBe('string');
    expect(typeof json.title).toBe('string');
    // The alert on `up` picks the release's targets: its metrics Service, or its pods.
    expect(template('prometheusrule.yaml')).toContain('"target" (include "openpm.targetSelector" .)');
    const target = define('openpm.targetSelector');
    expect(target).toMatch(
      /if \.Values\.metrics\.serviceMonitor\.enabled -\}\}\n\{\{- printf "service=%q" \(include "openpm\.metricsServiceName" \.\)/,
    );
    expect(target).toContain('printf "pod=~%q" (printf "%s-[a-z0-9]+-[a-z0-9]+" (include "openpm.fullname" .))');
    // Grafana's uid limit: 40 characters ("openpm-" and 16 hex digits).
    expect(define('openpm.dashboardUid')).toContain('| trunc 16');
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
