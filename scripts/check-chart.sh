#!/usr/bin/env bash
# Checks of the Helm chart that need Helm itself: `helm lint --strict` and `helm template` with
# every values file of the chart's ci/ folder (and a refusal without the required values), then
# `kubeconform -strict` on what was rendered. Each tool that is not on PATH is skipped, and said
# so; the script fails only on a failed check. The test suite checks the rest without Helm
# (test/deploy/chart.test.ts, promql.test.ts).
#
#   bash scripts/check-chart.sh
#   KUBECONFORM_SCHEMAS='default,https://example.com/crds/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' \
#     bash scripts/check-chart.sh      # also validate the ServiceMonitor and PrometheusRule
set -euo pipefail
cd "$(dirname "$0")/.."
CHART=helm/openpm-gateway
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

if ! command -v helm >/dev/null 2>&1; then
  echo "check-chart: helm not on PATH: skipped (lint, template, kubeconform)"
  exit 0
fi
echo "check-chart: $(helm version --short 2>/dev/null || helm version)"

for values in "$CHART"/ci/*.yaml; do
  name="$(basename "$values" .yaml)"
  helm lint --strict "$CHART" -f "$values" >/dev/null
  helm template openpm "$CHART" --namespace openpm -f "$values" >"$OUT/$name.yaml"
  echo "check-chart: lint and template ok with ci/$name.yaml"
done

# Without the required values the chart must refuse, naming them.
if helm template openpm "$CHART" >/dev/null 2>"$OUT/refusal.txt"; then
  echo "check-chart: rendering without upstream.url, redis.url and existingSecret should fail" >&2
  exit 1
fi
grep -q "upstream.url is required" "$OUT/refusal.txt"
echo "check-chart: refuses to render without the required values"

# A preStop pause that leaves the drain no time before SIGKILL must be refused too.
if helm template openpm "$CHART" -f "$CHART/ci/standalone-values.yaml" --set preStopSleepSeconds=25 >/dev/null 2>"$OUT/grace.txt"; then
  echo "check-chart: a grace period of 30 s with a 25 s preStop pause should fail" >&2
  exit 1
fi
grep -q "terminationGracePeriodSeconds (30) must be more than" "$OUT/grace.txt"
echo "check-chart: refuses a grace period shorter than the preStop pause plus the drain"

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
