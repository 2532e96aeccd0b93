#!/usr/bin/env bash
# Fails when generated/ does not match what spec/ generates (someone edited spec/ without running
# `make generate`, or edited generated/ by hand). Regenerates into a temp dir; never modifies generated/.
#
# Usage: scripts/check-generated.sh [ROOT]   (ROOT defaults to $MODELGATE_ROOT, else this repo)
set -euo pipefail

SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${1:-${MODELGATE_ROOT:-$SCRIPTS/..}}" && pwd)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/modelgate-check.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
FRESH="$WORK/generated"

"$SCRIPTS/generate.sh" "$ROOT" "$FRESH" >/dev/null

if [ ! -d "$ROOT/generated" ] || ! diff -r "$ROOT/generated" "$FRESH" >"$WORK/diff" 2>&1; then
  echo "generated/ is stale: run make generate" >&2
  head -n 40 "$WORK/diff" >&2
  exit 1
fi
echo "generated/ is up to date"
