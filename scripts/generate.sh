#!/usr/bin/env bash
# Regenerates generated/ from the TypeSpec sources in spec/: OpenAPI 3.0 (JSON + YAML) and the
# openapi-typescript types. generated/ is written only by this script (`make generate`).
#
# Usage: scripts/generate.sh [ROOT] [OUT_DIR]
#   ROOT     project root holding spec/ and tsp-config.yaml (default: $MODELGATE_ROOT, else this repo).
#            ROOT (or a parent) must contain node_modules with the TypeSpec libraries, which the compiler
#            resolves relative to the spec files.
#   OUT_DIR  where to write (default: ROOT/generated). check-generated.sh points it at a temp dir.
set -euo pipefail

TOOLS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "${1:-${MODELGATE_ROOT:-$TOOLS_ROOT}}" && pwd)"
OUT="${2:-$ROOT/generated}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

BIN="$TOOLS_ROOT/node_modules/.bin"

# Compile into a scratch dir first so a failed compile never leaves generated/ half-written.
STAGE="$(mktemp -d "${TMPDIR:-/tmp}/modelgate-generate.XXXXXX")"
trap 'rm -rf "$STAGE"' EXIT

cd "$ROOT"
"$BIN/tsp" compile spec --config tsp-config.yaml --output-dir "$STAGE" >"$STAGE/tsp.log" 2>&1 || {
  cat "$STAGE/tsp.log" >&2
  echo "generate: TypeSpec compilation failed" >&2
  exit 1
}

# --default-non-nullable false: a property with a default (e.g. `stream`) stays optional in the types,
# because clients may omit it and handlers must apply the default themselves.
# --root-types: also export each schema at top level (`ChatCompletion`, not only components["schemas"][...]).
"$BIN/openapi-typescript" "$STAGE/openapi.yaml" -o "$STAGE/openapi-types.ts" \
  --default-non-nullable false --root-types --root-types-no-schema-prefix >/dev/null 2>"$STAGE/oat.log" || {
  cat "$STAGE/oat.log" >&2
  echo "generate: openapi-typescript failed" >&2
  exit 1
}

for f in openapi.json openapi.yaml openapi-types.ts; do
  cp "$STAGE/$f" "$OUT/$f"
done
echo "generate: wrote $OUT/{openapi.json,openapi.yaml,openapi-types.ts}"
