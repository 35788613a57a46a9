/**
 * Every PromQL expression the chart ships, the alerts (files/alerts.yaml) and the Grafana
 * dashboard (files/dashboard.json), parsed with Prometheus's own grammar
 * (@prometheus-io/lezer-promql), and every metric and label name in it looked up in the
 * /metrics of a running gateway (a real process, with Redis, after some traffic): an alert on a
 * metric that does not exist would never fire.
 *
 * Label names that Prometheus adds when scraping (namespace, pod, job, …) are allowed, and so is
 * `up`, the series Prometheus itself writes for every target; label values are not checked (a
 * healthy replica shows only some of them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { outcomeId } from '../../sandbox/ids.ts';
import { ROOT, startGateway, useFleet, type GatewayProcess } from '../helpers/gateway-process.ts';
import { KEYS, MARKETS } from '../helpers/stack.ts';

const CHART = join(ROOT, 'helm', 'openpm-gateway');
/** Labels the scrape adds (ServiceMonitor / Kubernetes discovery), not the gateway. */
const TARGET_LABELS = new Set(['namespace', 'pod', 'job', 'instance', 'service', 'container', 'endpoint']);
/** Series Prometheus writes for each target it scrapes, with the target's labels only. */
const SCRAPE_SERIES = new Set(['up']);

// ---------------------------------------------------------------------------------------------
// The expressions, with the template parts substituted as Helm and Grafana would.

const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const valueAt = (path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], values);

/** files/alerts.yaml as the PrometheusRule template renders it (only the actions it may hold). */
function renderAlerts(text: string, target = 'service="openpm-openpm-gateway-metrics"'): string {
  return text.replace(/\{\{\s*`([^`]*)`\s*\}\}|\{\{(.*?)\}\}/g, (whole, raw: string | undefined, inner: string | undefined) => {
    if (raw !== undefined) return raw; // Prometheus's own templating, passed through
    const action = (inner ?? '').trim();
    if (action === '.selector') return 'namespace="openpm"';
    if (action === '.target') return target;
    const ref = /^\.Values\.([\w.]+)$/.exec(action);
    if (ref !== null && valueAt(ref[1] as string) !== undefined) return String(valueAt(ref[1] as string));
    throw new Error(`files/alerts.yaml may hold only the selector, the target, .Values references and raw strings: ${whole}`);
  });
}

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const alertsText = readFileSync(join(CHART, 'files', 'alerts.yaml'), 'utf8');
const rules = parse(renderAlerts(alertsText)) as Rule[];
/** The same alerts for pods scraped through their annotations (no ServiceMonitor, so no `service` label). */
const rulesByPod = parse(renderAlerts(alertsText, 'pod=~"openpm-openpm-gateway-[a-z0-9]+-[a-z0-9]+"')) as Rule[];

interface Panel {
  title?: string;
  targets?: { expr: string }[];
  panels?: Panel[];
}
const dashboard = JSON.parse(readFileSync(join(CHART, 'files', 'dashboard.json'), 'utf8')) as {
  panels: Panel[];
  templating: { list: { name: string; query?: { query: string } | string }[] };
};
const grafana = (expr: string) => expr.replaceAll('$__rate_interval', '5m').replaceAll('$namespace', 'openpm').replaceAll('$pod', '.*');
const panelExprs = dashboard.panels
  .flatMap((p) => [p, ...(p.panels ?? [])])
  .flatMap((p) => (p.targets ?? []).map((t) => ({ where: `dashboard "${p.title ?? ''}"`, expr: grafana(t.expr) })));
/** Grafana's label_values(selector, label): the selector is PromQL, the label must exist on it. */
const variableQueries = dashboard.templating.list
  .map((v) => ({ name: v.name, query: typeof v.query === 'string' ? v.query : v.query?.query }))
  .filter((v): v is { name: string; query: string } => typeof v.query === 'string' && v.query.startsWith('label_values('))
  .map((v) => {
    const m = /^label_values\((.*),\s*(\w+)\)$/.exec(v.query);
    return { where: `dashboard variable ${v.name}`, expr: grafana(m?.[1] ?? ''), label: m?.[2] ?? '' };
  });

const expressions = [
  ...rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })),
  ...rulesByPod.filter((r) => r.expr.includes('pod=~')).map((r) => ({ where: `alert ${r.alert} (pods by annotation)`, expr: r.expr })),
  ...panelExprs,
  ...variableQueries.map(({ where, expr }) => ({ where, expr })),
];

// ---------------------------------------------------------------------------------------------
// PromQL, through Prometheus's grammar.

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

interface Selector {
  metric: string;
  labels: string[];
}
interface Parsed {
  errors: string[];
  selectors: Selector[];
  grouping: string[];
}
function analyse(expr: string): Parsed {
  const tree = parser.parse(expr);
  const text = (n: SyntaxNode) => expr.slice(n.from, n.to);
  const out: Parsed = { errors: [], selectors: [], grouping: [] };
  tree.iterate({
    enter: (ref) => {
      const node = ref.node;
      if (ref.type.isError) out.errors.push(`syntax error at ${ref.from}: …${expr.slice(Math.max(0, ref.from - 20), ref.from + 20)}…`);
      if (ref.name === 'VectorSelector') {
        const id = node.getChild('Identifier');
        const labels: string[] = [];
        const matchers = node.getChild('LabelMatchers');
        for (let m = matchers?.firstChild ?? null; m !== null; m = m.nextSibling) {
          const name = m.getChild('LabelName');
          if (name !== null) labels.push(text(name));
        }
        out.selectors.push({ metric: id === null ? '' : text(id), labels });
      }
      if (ref.name === 'GroupingLabels') {
        for (let c = node.firstChild; c !== null; c = c.nextSibling) if (c.name === 'LabelName') out.grouping.push(text(c));
      }
    },
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// What a running gateway exports.

interface Exported {
  /** Series names (histograms: _bucket, _sum, _count) → label names seen on them. */
  series: Map<string, Set<string>>;
}
function exposition(text: string): Exported {
  const series = new Map<string, Set<string>>();
  const add = (name: string, labels: string[] = []) => {
    const set = series.get(name) ?? new Set<string>();
    for (const l of labels) set.add(l);
    series.set(name, set);
  };
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type !== null) {
      const [, name = '', kind] = type;
      if (kind === 'histogram') for (const s of ['_bucket', '_sum', '_count']) add(name + s, s === '_bucket' ? ['le'] : []);
      else if (kind === 'summary') {
        add(name, ['quantile']);
        add(`${name}_sum`);
        add(`${name}_count`);
      } else add(name);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (sample !== null)
      add(
        sample[1] as string,
        [...(sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)].map((m) => m[1] as string),
      );
  }
  return { series };
}

const fleet = useFleet('promql');
let gateway: GatewayProcess;
let exported: Exported;

beforeAll(async () => {
  gateway = await startGateway(fleet.env());
  // Traffic that puts samples behind every family: reads, a refusal, a preview, a health check.
  const auth = { authorization: `Bearer ${KEYS.aliceWrite}` };
  await fetch(`${gateway.url}/livez`);
  await fetch(`${gateway.url}/open/v1/topic-categories`, { headers: auth });
  await fetch(`${gateway.url}/open/v1/topic-categories`);
  await fetch(`${gateway.url}/open/v1/topics/${MARKETS.boosted}/order-preview`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ option_id: outcomeId(MARKETS.boosted, 1), amount_coins: 10 }),
  });
  exported = exposition(await (await fetch(`${gateway.adminUrl}/metrics`)).text());
}, 30_000);

describe('the chart ships expressions for every alert the issue asks', () => {
  it('has the seven alerts, each with a severity, a summary and a description', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual([
      'OpenpmGatewayCircuitOpen',
      'OpenpmGatewayHighErrorRatio',
      'OpenpmGatewayHighLatency',
      'OpenpmGatewayKillSwitchOn',
      'OpenpmGatewayMetricsMissing',
      'OpenpmGatewayRateLimitRefusals',
      'OpenpmGatewayRedisUnavailable',
    ]);
    for (const r of rules) {
      expect(['critical', 'warning']).toContain(r.labels?.['severity']);
      expect(r.annotations?.['summary']).toBeTruthy();
      expect(r.annotations?.['description']).toBeTruthy();
      expect(r.for).toMatch(/^\d+[smh]$/);
    }
    expect(rules.find((r) => r.alert === 'OpenpmGatewayKillSwitchOn')?.for).toBe(
      `${String(valueAt('metrics.prometheusRule.killSwitchMinutes'))}m`,
    );
  });

  it("fires when the release's targets fail or vanish, so a scrape that stops cannot silence the others", () => {
    const missing = rules.find((r) => r.alert === 'OpenpmGatewayMetricsMissing');
    const target = 'up{ namespace="openpm", service="openpm-openpm-gateway-metrics" }';
    expect(missing?.expr.replace(/\s+/g, ' ').trim()).toBe(`${target} == 0 or absent(${target})`);
    expect(missing?.labels?.['severity']).toBe('critical');
    // Every other alert reads the gateway's own series, which stop with the scrape.
    for (const r of rules.filter((x) => x !== missing)) expect(r.expr).not.toContain('absent(');
  });

  it('has dashboard panels to read', () => {
    expect(panelExprs.length).toBeGreaterThanOrEqual(15);
  });
});

describe('every expression', () => {
  it('the gateway exports the metrics the alerts and the dashboard are about', () => {
    for (const name of ['openpm_upstream_circuit_open', 'openpm_redis_up', 'openpm_kill_switch_state', 'openpm_requests_total']) {
      expect(exported.series.has(name), name).toBe(true);
    }
  });

  it.each(expressions)('$where parses as PromQL and uses only exported metrics and labels', ({ expr }) => {
    const parsed = analyse(expr);
    expect(parsed.errors).toEqual([]);
    expect(parsed.selectors.length).toBeGreaterThan(0);
    const labelsInPlay = new Set<string>(TARGET_LABELS);
    for (const s of parsed.selectors) {
      const labels = SCRAPE_SERIES.has(s.metric) ? new Set<string>() : exported.series.get(s.metric);
      expect(labels, `${s.metric} is not in /metrics`).toBeDefined();
      for (const l of labels ?? []) labelsInPlay.add(l);
      for (const l of s.labels) expect(TARGET_LABELS.has(l) || (labels?.has(l) ?? false), `${s.metric} has no label ${l}`).toBe(true);
    }
    for (const l of parsed.grouping) expect(labelsInPlay.has(l), `grouping by ${l}, which none of its metrics has`).toBe(true);
  });

  it.each(variableQueries)('$where asks for a label its metric has', ({ expr, label }) => {
    const metric = analyse(expr).selectors[0]?.metric ?? '';
    expect(TARGET_LABELS.has(label) || (exported.series.get(metric)?.has(label) ?? false)).toBe(true);
  });
});

describe('the checker itself', () => {
  it('catches a syntax error, an unknown metric and an unknown label', () => {
    expect(analyse('sum(rate(openpm_requests_total[5m])').errors.length).toBeGreaterThan(0);
    expect(exported.series.has(analyse('rate(openpm_request_total[5m])').selectors[0]?.metric ?? '')).toBe(false);
    const labels = exported.series.get(analyse('openpm_requests_total{code="500"}').selectors[0]?.metric ?? '');
    expect(labels?.has('code')).toBe(false);
    expect(labels?.has('status')).toBe(true);
  });
});
