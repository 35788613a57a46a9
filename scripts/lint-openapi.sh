#!/usr/bin/env bash
# Lints docs/openapi.json with both linters integrators reach for; any problem, warnings
# included, fails: Redocly with its recommended-strict ruleset (redocly.yaml) and Spectral with
# spectral:oas (.spectral.yaml). Usage: scripts/lint-openapi.sh [redocly|spectral]
set -euo pipefail
cd "$(dirname "$0")/.."
# No telemetry, no update check: CI has no internet, and neither needs it.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true REDOCLY_SUPPRESS_NOTIFICATIONS=true
which="${1:-both}"
if [ "$which" = redocly ] || [ "$which" = both ]; then
  npx --no-install redocly lint docs/openapi.json --config redocly.yaml
fi
if [ "$which" = spectral ] || [ "$which" = both ]; then
  npx --no-install spectral lint docs/openapi.json --ruleset .spectral.yaml --fail-severity=hint
fi
