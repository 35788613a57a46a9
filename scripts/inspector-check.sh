#!/usr/bin/env bash
# Drives the MCP server with a client nobody here wrote, the MCP Inspector CLI (a 2025-revision
# client), against the gateway as `npm start` runs it (the embedded sandbox): tools/list for both
# scopes with the CLI's schema portability report (0 errors and 0 warnings expected), a
# tools/call, a tool error, and a bad key answered with the gateway's own message.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${INSPECTOR_CHECK_PORT:-18765}"
URL="http://127.0.0.1:${PORT}/mcp"
LOG="$(mktemp)"
# Node itself rather than `npm start`: the trap below kills this pid, and killing npm does not
# always stop the gateway it started (one was left running after a CI run).
# With REDIS_URL set (CI sets it for the suite), the gateway's keys get a prefix of this run's
# own: the rate-limit windows and key verdicts other processes left under the default prefix
# must not decide this check (a day window spent by an earlier load run answered 429 here).
# A fleet's shared secrets too, since with REDIS_URL the gateway refuses to start without them.
PORT="$PORT" ADMIN_PORT=0 LOG_LEVEL=warn REDIS_KEY_PREFIX="inspector-check-$$-$(date +%s):" \
  CONFIRM_KEYS="ic:inspector-check-confirm-secret-0123456789" CURSOR_SECRET="inspector-check-cursor-secret" \
  node src/server.ts >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -f "$LOG"' EXIT

for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:${PORT}/livez" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fs "http://127.0.0.1:${PORT}/livez" >/dev/null || { echo "inspector-check: gateway did not start"; cat "$LOG"; exit 1; }

inspector() {
  local key="$1"; shift
  npx --no-install mcp-inspector --cli "$URL" --transport http --header "Authorization: Bearer ${key}" "$@"
}

count_tools() {
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const t=JSON.parse(s).tools;console.log(t.length+" "+t.map(x=>x.name).sort().join(","))})'
}

read_list=$(inspector opk_test_alice_read_0000000000 --method tools/list | count_tools)
write_list=$(inspector opk_test_alice_write_000000000 --method tools/list | count_tools)
echo "inspector-check: read key sees ${read_list%% *} tools, read+write key sees ${write_list%% *} tools"
[ "${read_list%% *}" = 12 ] || { echo "inspector-check: expected 12 tools: $read_list"; exit 1; }
[ "${write_list%% *}" = 18 ] || { echo "inspector-check: expected 18 tools: $write_list"; exit 1; }
case "$read_list" in *place_order*) echo "inspector-check: a read key sees a write tool"; exit 1 ;; esac

# --strict reports every portability finding on stderr (one "Warning:"/"Error:" line each) and
# exits 6 on an error; without findings it prints nothing there.
lint="$(mktemp)"
set +e
inspector opk_test_alice_write_000000000 --method tools/list --strict >/dev/null 2>"$lint"
rc=$?
set -e
errors=$(grep -c '^Error: tool' "$lint" || true)
warnings=$(grep -c '^Warning: tool' "$lint" || true)
echo "inspector-check: schema portability: ${errors} errors, ${warnings} warnings across 18 tools"
if [ "$rc" != 0 ] || [ "$errors" != 0 ] || [ "$warnings" != 0 ]; then cat "$lint"; rm -f "$lint"; exit 1; fi
rm -f "$lint"

call=$(inspector opk_test_alice_read_0000000000 --method tools/call --tool-name get_my_profile)
echo "$call" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);const p=r.structuredContent;if(r.isError||!p||p.handle!=="alice"||p.sapphires!=="0.0000"){console.error("unexpected tools/call result:",s);process.exit(1)}console.log("inspector-check: tools/call get_my_profile -> handle "+p.handle+", coins "+p.coins)})'

set +e
inspector opk_test_alice_read_0000000000 --method tools/call --tool-name get_topic --tool-arg topic_id=00000000-0000-4000-8000-00000000ffff >/dev/null 2>&1
rc=$?
set -e
[ "$rc" != 0 ] || { echo "inspector-check: a tool error was not reported as one"; exit 1; }
echo "inspector-check: tool error for a missing topic reported (exit $rc)"

# A bad key: the CLI takes any 401 for an OAuth server; --stored-auth-only makes it report the
# gateway's own message instead of starting a browser flow (docs/mcp.md#oauth-first-clients).
set +e
bad=$(inspector opk_test_nobody_000000000000000000 --method tools/list --stored-auth-only 2>&1)
set -e
case "$bad" in
  *"The API key is invalid, revoked or expired."*) echo "inspector-check: a bad key is reported with the gateway's message" ;;
  *) echo "inspector-check: unexpected answer to a bad key: $bad"; exit 1 ;;
esac
echo "inspector-check: ok"
