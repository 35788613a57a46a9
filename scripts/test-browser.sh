#!/usr/bin/env bash
# The browser tests of the docs page: installs Debian's chromium when it is missing (needs root
# and the Debian mirror), then runs test/browser with its own vitest configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "test-browser: installing chromium"
  (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null
fi
exec npx vitest run --config test/browser/vitest.config.ts "$@"
