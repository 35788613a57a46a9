#!/usr/bin/env bash
# Checks of the Helm chart that need Helm itself: `helm lint --strict` and `helm template` with
# every values file of the chart's ci/ folder and of test/deploy/chart-values/good (over
# ci/standalone-values.yaml), refusals of every file of chart-values/bad (by the values schema)
# and chart-values/refused (by the templates, with the message each file names) and of an
# install without the required values, a few facts of the rendered objects, then
# `kubeconform -strict` on what was rendered. Each tool that is not on PATH is skipped, and said
# so; the script fails only on a failed check. The test suite checks the rest without Helm
# (test/deploy/chart.test.ts, promql.test.ts).
#
#   bash scripts/check-chart.sh
#   HELM=/path/to/helm bash scripts/check-chart.sh     # a helm that is not on PATH
#   KUBECONFORM_SCHEMAS='default,https://example.com/crds/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' \
#     bash scripts/check-chart.sh      # also validate the ServiceMonitor and PrometheusRule
set -euo pipefail
cd "$(dirname "$0")/.."
CHART=helm/openpm-gateway
VALUES=test/deploy/chart-values
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
HELM="${HELM:-helm}"

if ! command -v "$HELM" >/dev/null 2>&1; then
  echo "check-chart: helm not on PATH: skipped (lint, template, refusals, kubeconform)"
  exit 0
fi
echo "check-chart: $("$HELM" version --short 2>/dev/null || "$HELM" version)"
render() { "$HELM" template openpm "$CHART" --namespace openpm "$@"; }
fail() {
  echo "check-chart: $*" >&2
  exit 1
}

for values in "$CHART"/ci/*.yaml; do
  name="$(basename "$values" .yaml)"
  "$HELM" lint --strict "$CHART" -f "$values" >/dev/null
  render -f "$values" >"$OUT/$name.yaml"
  echo "check-chart: lint and template ok with ci/$name.yaml"
done
for values in "$VALUES"/good/*.yaml; do
  name="$(basename "$values" .yaml)"
  render -f "$CHART/ci/standalone-values.yaml" -f "$values" >"$OUT/good-$name.yaml"
done
echo "check-chart: template ok with every file of $VALUES/good"

# Values the schema refuses, each over a complete install.
for values in "$VALUES"/bad/*.yaml; do
  if render -f "$CHART/ci/standalone-values.yaml" -f "$values" >/dev/null 2>"$OUT/refusal.txt"; then
    fail "$values should be refused by the values schema"
  fi
  grep -qi "schema" "$OUT/refusal.txt" || fail "$values was refused, but not by the schema: $(cat "$OUT/refusal.txt")"
done
echo "check-chart: the schema refuses every file of $VALUES/bad"

# Values the templates refuse, with the message each file names on its `# refused:` line.
for values in "$VALUES"/refused/*.yaml; do
  message="$(sed -n 's/^# refused: //p' "$values")"
  [ -n "$message" ] || fail "$values names no message (# refused: ...)"
  if render -f "$CHART/ci/standalone-values.yaml" -f "$values" >/dev/null 2>"$OUT/refusal.txt"; then
    fail "$values should be refused: $message"
  fi
  grep -qF -- "$message" "$OUT/refusal.txt" || fail "$values was refused otherwise than by '$message': $(cat "$OUT/refusal.txt")"
done
echo "check-chart: the templates refuse every file of $VALUES/refused, each with its message"

# Without the required values the chart must refuse, naming them.
if render >/dev/null 2>"$OUT/refusal.txt"; then
  fail "rendering without upstream.url, redis.url, existingSecret and env.PUBLIC_WEB_URL should fail"
fi
grep -q "upstream.url is required" "$OUT/refusal.txt"
echo "check-chart: refuses to render without the required values"

# A few facts of the rendered objects that the suite can only read from the templates' text.
standalone="$OUT/standalone-values.yaml"
grep -q "^kind: NetworkPolicy$" "$standalone" || fail "no NetworkPolicy with the defaults"
grep -q "enableServiceLinks: false" "$standalone" || fail "service links are on"
grep -q "rollingUpdate:" "$OUT/hardened-values.yaml" && fail "a rollingUpdate block beside Recreate"
for port in 6379 26379 26380 443; do
  grep -q -- "- port: $port$" "$OUT/hardened-values.yaml" || fail "closed egress lacks port $port (Redis, sentinels, backend)"
done
grep -q "localhostProfile" "$standalone" && fail "a seccomp localhostProfile beside RuntimeDefault"
echo "check-chart: NetworkPolicy by default, no service links, no rollingUpdate with Recreate, egress to Redis and the backend"

if ! command -v kubeconform >/dev/null 2>&1; then
  echo "check-chart: kubeconform not on PATH: skipped (schema validation of the rendered objects)"
  exit 0
fi
schemas=()
IFS=',' read -r -a locations <<<"${KUBECONFORM_SCHEMAS:-default}"
for l in "${locations[@]}"; do schemas+=(-schema-location "$l"); done
skip=()
[ -z "${KUBECONFORM_SCHEMAS:-}" ] && skip=(-skip ServiceMonitor,PrometheusRule) && echo "check-chart: no CRD schemas given: ServiceMonitor and PrometheusRule not validated"
kubeconform -strict -summary "${schemas[@]}" "${skip[@]}" "$OUT"/*.yaml
