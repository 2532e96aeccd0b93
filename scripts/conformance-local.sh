#!/usr/bin/env bash
# `make conformance`: runs `modelgate conformance` against a gateway started here, everything on 127.0.0.1:
#   1. the conformance mock upstream (its own process), standing in for every provider of the test catalog;
#   2. a user, an API key, a management key (creating and deleting keys takes one: an API key may only revoke
#      itself) and credits, created with the CLI BEFORE the gateway starts (the embedded PGlite database in a temp
#      MODELGATE_DATA_DIR serves one process at a time);
#   3. the built gateway (`node dist/src/cli.js serve`) on a free port;
#   4. the runner, with the keys in MODELGATE_API_KEY and MODELGATE_MANAGEMENT_KEY (never on a command line).
# Everything is torn down on exit; the exit code is the runner's. Needs `make build` first.
#
# Tuning: CONFORMANCE_RUNS (default 100), CONFORMANCE_SEED, CONFORMANCE_TIME_LIMIT_SECONDS (per operation and input
# kind, default 30), MODELGATE_DIST (compiled tree, default dist). Extra arguments go to the runner
# (e.g. --operation createChatCompletion --json, --profile core, --junit conformance.xml).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIST="${MODELGATE_DIST:-dist}"
[ -f "$DIST/src/cli.js" ] || { echo "$DIST/src/cli.js is missing: run make build" >&2; exit 2; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/modelgate-conformance.XXXXXX")"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# Polls until a command succeeds, or fails after N tenths of a second.
wait_for() {
  local tries=$1
  shift
  until "$@" >/dev/null 2>&1; do
    tries=$((tries - 1))
    [ "$tries" -gt 0 ] || return 1
    sleep 0.1
  done
}

node "$DIST/src/conformance/mock-upstream-server.js" --port 0 >"$WORK/mock.out" 2>"$WORK/mock.err" &
PIDS+=($!)
wait_for 100 grep -q '^listening ' "$WORK/mock.out" || { echo "mock upstream did not start:" >&2; cat "$WORK/mock.err" >&2; exit 1; }
MOCK_URL="$(sed -n 's/^listening //p' "$WORK/mock.out")"

unset DATABASE_URL
export MODELGATE_DATA_DIR="$WORK/data"
export MODELGATE_CATALOG="$ROOT/test/fixtures/catalog/test-catalog.json"
export OPENAI_API_KEY=sk-conformance-mock OPENAI_BASE_URL="$MOCK_URL/v1"
export DEEPSEEK_API_KEY=sk-conformance-mock DEEPSEEK_BASE_URL="$MOCK_URL"
export OPENROUTER_API_KEY=sk-conformance-mock OPENROUTER_BASE_URL="$MOCK_URL/api/v1"
# Rate limits would turn long runs into 429s (documented, but they stop requests reaching the real path).
export MODELGATE_RATE_LIMIT_RPM=0 MODELGATE_RATE_LIMIT_TPM=0
export LOG_LEVEL="${LOG_LEVEL:-warn}"

EMAIL=conformance@example.com
node "$DIST/src/cli.js" users create --email "$EMAIL" >/dev/null
json_key() { node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).key))'; }
KEY="$(node "$DIST/src/cli.js" keys create --email "$EMAIL" --name conformance --json | json_key)"
MANAGEMENT_KEY="$(node "$DIST/src/cli.js" keys create --email "$EMAIL" --name conformance-manager --manage --json | json_key)"
node "$DIST/src/cli.js" credits add --email "$EMAIL" --usd 1000 >/dev/null

PORT="$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
HOST=127.0.0.1 PORT="$PORT" node "$DIST/src/cli.js" serve >"$WORK/gateway.log" 2>&1 &
PIDS+=($!)
BASE_URL="http://127.0.0.1:$PORT/api/v1"
# Any HTTP answer (401 without a key) means the gateway is up.
wait_for 300 node -e 'fetch(process.argv[1]).then(()=>process.exit(0),()=>process.exit(1))' "$BASE_URL/models" || {
  echo "gateway did not start:" >&2
  cat "$WORK/gateway.log" >&2
  exit 1
}

# The mock upstream fails a stream mid-way when a message carries its trigger phrase (MID_STREAM_ERROR_TRIGGER).
args=(--base-url "$BASE_URL" --model openai/gpt-test --runs "${CONFORMANCE_RUNS:-100}" --time-limit-seconds "${CONFORMANCE_TIME_LIMIT_SECONDS:-30}"
  --mid-stream-error-prompt "conformance: fail mid-stream")
[ -n "${CONFORMANCE_SEED:-}" ] && args+=(--seed "$CONFORMANCE_SEED")
set +e
MODELGATE_API_KEY="$KEY" MODELGATE_MANAGEMENT_KEY="$MANAGEMENT_KEY" node "$DIST/src/cli.js" conformance "${args[@]}" "$@"
status=$?
set -e
if [ "$status" -ne 0 ]; then
  echo "" >&2
  echo "gateway log (warnings and errors, last 40 lines):" >&2
  tail -n 40 "$WORK/gateway.log" >&2
fi
exit "$status"
