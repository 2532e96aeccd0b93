#!/usr/bin/env bash
# Entry of `make bench` (full, ~29 min: run-bench.js, then the load test load-streams.js) and `make bench-quick`
# (quick, ~60 s); expects `make build` done.
# Outside: makes sure PostgreSQL is up, snapshots dist/ (a concurrent `make build` cannot pull files away
# mid-run), then re-enters itself in a private network namespace (`unshare -n`, loopback only), where
# Portkey's 0.0.0.0 listener is unreachable from outside. Inside: runs the orchestrator in its own process
# group and, whatever happens, kills that group on exit.
set -euo pipefail
MODE="${1:-quick}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUN_DIR="$ROOT/bench/.run"

if [ "${BENCH_STAGE:-outer}" = outer ]; then
  if [ ! -f "$ROOT/dist/bench/run-bench.js" ] || [ ! -f "$ROOT/dist/src/cli.js" ]; then
    echo "bench: dist/ is missing; run 'make build' first (make bench does)" >&2
    exit 1
  fi
  bash "$ROOT/scripts/ensure-postgres.sh"
  rm -rf "$RUN_DIR"
  mkdir -p "$RUN_DIR"
  # dist/ and generated/ side by side, as in the repository: the gateway finds generated/ relative to dist/.
  cp -R "$ROOT/dist" "$RUN_DIR/dist"
  cp -R "$ROOT/generated" "$RUN_DIR/generated"
  # The account page's browser sources are read at run time from src/ beside dist/ (tsc does not copy them).
  mkdir -p "$RUN_DIR/src/account"
  cp -R "$ROOT/src/account/browser" "$RUN_DIR/src/account/browser"
  if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
    exec unshare -n -- env BENCH_STAGE=inner BENCH_NETNS=1 bash "${BASH_SOURCE[0]}" "$MODE"
  fi
  echo "bench: cannot create a private network namespace (needs root); Portkey, which binds 0.0.0.0, is skipped" >&2
  export BENCH_STAGE=inner BENCH_NETNS=0
fi

if [ "${BENCH_NETNS:-0}" = 1 ]; then
  ip link set lo up
else
  export BENCH_PORTKEY=0
fi
export BENCH_REPO_ROOT="$ROOT" BENCH_RUN_DIR="$RUN_DIR"

# A thousand streams hold three sockets each across the load test's processes.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# setsid: the orchestrator leads a new process group that holds every process it starts.
setsid node "$RUN_DIR/dist/bench/run-bench.js" "$MODE" &
PID=$!
stop_group() {
  kill -TERM -- "-$PID" 2>/dev/null || true
  sleep 1
  kill -KILL -- "-$PID" 2>/dev/null || true
}
trap 'stop_group; exit 130' INT TERM
trap 'kill -KILL -- "-$PID" 2>/dev/null || true; rm -rf "$RUN_DIR/dist" "$RUN_DIR/generated" "$RUN_DIR/src"' EXIT
status=0
wait "$PID" || status=$?
if [ "$MODE" = full ] && [ "$status" = 0 ]; then
  # The concurrent-streams load test (`make bench-load`), in its own process group likewise.
  setsid node "$RUN_DIR/dist/bench/load-streams.js" &
  PID=$!
  wait "$PID" || status=$?
fi
exit "$status"
