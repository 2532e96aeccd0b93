# Modelgate — every target a newcomer or CI needs. `make run` and `make test` work on a fresh clone.
SHELL := /bin/bash
NPM ?= npm

# Four npm packages, each with its own lock, so that running the gateway installs only what it needs:
#   package.json               the gateway: what runs it (dependencies) and what builds it (devDependencies)
#   test/package.json          the test kit: vitest, the official SDKs, playwright-core and axe-core, Spectral
#   test/compat/package.json   the agent CLIs of the compatibility matrix (make test runs one turn of each)
#   bench/package.json         the bench kit: autocannon and Portkey
# Each is installed by the targets that use it, and again only when its package.json or lock changed: the stamp is
# npm's own record of the installed tree, node_modules/.package-lock.json.
GATEWAY_PACKAGES := node_modules/.package-lock.json
TEST_KIT := test/node_modules/.package-lock.json
COMPAT_KIT := test/compat/node_modules/.package-lock.json
BENCH_KIT := bench/node_modules/.package-lock.json
VITEST := test/node_modules/.bin/vitest run --config test/vitest.config.ts
SPECTRAL := test/node_modules/.bin/spectral

# `make help` lists every target with the `##` lines above it: a target without them is missing from the list.
.PHONY: help format install install-test-kit install-compat install-bench generate check-generated build run test test-unit typecheck lint clean bench bench-quick bench-scale bench-lanes bench-load bench-sockets bench-history docs sdk screenshot conformance conformance-long schemathesis compatibility bench-sessions

## List the targets and what they do (this text: the `##` lines above each target).
help:
	@awk -f scripts/make-help.awk $(firstword $(MAKEFILE_LIST))

## Install the gateway's locked packages into node_modules/ (npm ci): what runs and builds it, none of the kits
## below. Again only when package.json or package-lock.json changed.
install: $(GATEWAY_PACKAGES)

$(GATEWAY_PACKAGES): package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

## Install the test kit (test/package.json: vitest, the SDKs the tests drive, playwright-core, Spectral) into
## test/node_modules/ (npm ci), again only when its package.json or lock changed. `make test` and `make lint` run it.
install-test-kit: $(TEST_KIT)

$(TEST_KIT): test/package.json test/package-lock.json
	cd test && $(NPM) ci --no-audit --no-fund
	@touch $@

## Install the agent CLIs of the compatibility matrix (test/compat/package.json) into test/compat/node_modules/ (npm
## install, which keeps the lock's versions), again only when its package.json or lock changed. `make test` and
## `make compatibility` run it.
install-compat: $(COMPAT_KIT)

# `npm install`, not `npm ci`: some agent CLIs (@kilocode/cli, @teddyzhu/clipboard under it) list per-platform
# optional packages that were never published; `npm ci` refuses a lock without them, while `npm install` skips them
# and installs the lock's versions unchanged (a clean clone's lock stays as committed). --loglevel=error: many packages
# under these CLIs declare Node 22+, and npm warns (EBADENGINE) for each on Node 20, where `make test` shows every
# client working; errors still print.
$(COMPAT_KIT): test/compat/package.json test/compat/package-lock.json
	cd test/compat && $(NPM) install --no-audit --no-fund --loglevel=error
	@touch $@

## Install the bench kit (bench/package.json: autocannon, Portkey) into bench/node_modules/ (npm ci), again only when
## its package.json or lock changed. `make bench`, bench-quick, bench-scale and bench-lanes run it.
install-bench: $(BENCH_KIT)

$(BENCH_KIT): bench/package.json bench/package-lock.json
	cd bench && $(NPM) ci --no-audit --no-fund
	@touch $@

## Regenerate generated/ (OpenAPI JSON + YAML, TypeScript types) from spec/.
generate: install
	bash scripts/generate.sh

## Fail when generated/ does not match spec/.
check-generated: install
	bash scripts/check-generated.sh

## Compile to dist/, incrementally (dist/tsconfig.build.tsbuildinfo): a rebuild after a small change takes ~3 s
## instead of ~9 s. Output of deleted sources stays in dist/ until `make clean`.
build: install
	npx tsc -p tsconfig.build.json --incremental

## Start the gateway on the embedded database (no external server needed). The node options are those of every
## production start: src/cli/serve-node-options.ts says why (a test keeps this line in step with it).
run: build
	node --max-old-space-size=1536 dist/src/cli.js serve

## Type-check src/, test/, bench/ and generated/ without emitting (the tests' types come from the test kit).
typecheck: install install-test-kit
	npx tsc -p tsconfig.json --noEmit

## Biome (biome.json: the formatter's layout and the recommended lint rules, every finding an error), types, then
## Spectral on the emitted OpenAPI (.spectral.yaml: spectral:oas, examples validated). Warnings fail too, so the code
## and the document stay at zero findings. `make format` writes Biome's layout.
lint: typecheck
	npx biome ci --error-on-warnings .
	$(SPECTRAL) lint generated/openapi.json generated/openapi.yaml --ruleset .spectral.yaml --fail-severity=warn

## Format the tree and apply Biome's safe lint fixes (what `make lint` checks).
format: install
	npx biome check --write .

## Static API reference (Swagger UI, no CDN) + OpenAPI JSON/YAML into dist/docs/, ready to publish on any static host.
docs: install check-generated
	npx tsx src/docs/write-static-docs.ts dist/docs

## Typed client SDK package (openapi-typescript types + openapi-fetch, streaming helper) into dist/sdk/.
sdk: install check-generated
	npx tsx src/sdk/build/build-package.ts dist/sdk

## Photograph the account page (a seeded account on a temp embedded database, headless Chromium via playwright-core)
## into docs/images/account-page.png. About 15 seconds; needs Chromium (/usr/bin/chromium or CHROMIUM_PATH).
screenshot: install install-test-kit
	npx tsx test/browser/account-screenshot.ts docs/images/account-page.png

## The whole suite: stale generated files, types, unit/db/provider/e2e/contract tests. Installs the test kit and the
## agent CLIs first (the suite runs one turn of each); one file: `npm test -- test/e2e/first-steps.test.ts`.
test: install install-test-kit install-compat check-generated typecheck
	$(VITEST)

## Remove dist/ and the default embedded database folder .modelgate/ (its data is lost).
clean:
	rm -rf dist .modelgate

## Gateway overhead side by side with the mock upstream, a bare Koa pass-through and Portkey, on PostgreSQL with
## real metering, then metrics+tracing on vs off and --workers 2 vs 1; writes bench/results/full.{md,json,svg}
## (bench/README.md); then the concurrent-streams load test of `make bench-load`. About 29 minutes.
bench: build install-bench
	bash bench/run.sh full

## A ~60 s subset of `make bench` (shorter windows: a smoke check of the targets); writes bench/results/quick.*.
bench-quick: build install-bench
	bash bench/run.sh quick

## The observability-cost and workers section of `make bench` alone, more rounds (bench/scale-compare.ts): metrics + tracing on vs off at c=16,
## `serve --workers 2` vs 1 at c=64 (needs PostgreSQL and redis-server); writes bench/results/scale.{md,json}. ~10 minutes.
## SCALE_ARGS="[seconds per round] [rounds] [observability|observability-sampled|workers...]" narrows or lengthens it.
bench-scale: build install-bench
	bash scripts/ensure-postgres.sh
	node dist/bench/scale-compare.js $(SCALE_ARGS)

## The lanes comparison of `make bench` alone (bench/lanes-compare.ts): CPU per request and paired ratios
## against a bare Koa + undici proxy, small and ~400 KB coding-agent requests, on each native lane (chat → OpenAI,
## Messages → Anthropic, Responses → OpenAI) and the translated lane; writes bench/results/lanes.{md,json}. ~8 minutes.
## LANES_ARGS="[seconds per run] [rounds] [lane id...]" narrows or lengthens it.
bench-lanes: build install-bench
	bash scripts/ensure-postgres.sh
	node dist/bench/lanes-compare.js $(LANES_ARGS)

## A 30-turn coding-agent session from the ~400 KB conversation of bench-lanes, growing by a tool call and its output
## each turn, three ways side by side (bench/sessions-compare.ts): HTTP re-sending everything, HTTP with
## previous_response_id, WebSocket mode; bytes received, gateway CPU and wall time per turn, median and range over
## rotating repetitions (needs PostgreSQL, not the bench kit). Writes bench/results/sessions.{md,json}. About 1 minute.
## SESSIONS_ARGS="[turns] [sessions per mode]".
bench-sessions: build
	bash scripts/ensure-postgres.sh
	node dist/bench/sessions-compare.js $(SESSIONS_ARGS)

## 1,000 concurrent slow streams (24 chunks 100 ms apart) through one gateway on PostgreSQL, 50 accounts
## (bench/load-streams.ts, docs/concurrency.md): time to first chunk, peak RSS, and each account's usage against its
## streams' reported costs; writes bench/results/load.{md,json}. About 1.5 minutes. LOAD_ARGS="[streams] [rounds]".
bench-load: build
	bash scripts/ensure-postgres.sh
	ulimit -n 65536 2>/dev/null || ulimit -n "$$(ulimit -Hn)"; node dist/bench/load-streams.js $(LOAD_ARGS)

## 200 Responses WebSocket sockets through one gateway (bench/websocket-memory.ts): its RSS idle, with the sockets
## open, while every socket runs a 2 MB answer its client does not read, and after they read on; every turn must
## complete. Embedded database, a local mock upstream. About 2 minutes. SOCKETS_ARGS="[sockets] [answer KiB]".
bench-sockets: install
	npx tsx bench/websocket-memory.ts $(SOCKETS_ARGS)

## Read times of GET /key, /api-keys, /activity and /admin/usage as the settled history grows to 1M generation records
## (inserted with generate_series into a scratch PostgreSQL database), beside the record sums they replaced; storage
## per request and pruning. Writes bench/results/history-reads.{md,json}. HISTORY_RECORDS sets the size. ~3 minutes.
bench-history: build
	bash scripts/ensure-postgres.sh
	node dist/bench/history-reads.js $(HISTORY_RECORDS)

## Property-based conformance run (`modelgate conformance`) against a gateway started here with a mock upstream, on
## PGlite in a temp folder, all on 127.0.0.1. Tune with CONFORMANCE_RUNS, CONFORMANCE_SEED, CONFORMANCE_TIME_LIMIT_SECONDS.
conformance: build
	bash scripts/conformance-local.sh

## The long run: the in-process contract suite with raised bounds (credits sequence included), then the local run.
conformance-long: build install-test-kit
	CONFORMANCE_RUNS=400 CONFORMANCE_TIME_LIMIT_MS=120000 $(VITEST) test/contract
	CONFORMANCE_RUNS=1000 CONFORMANCE_TIME_LIMIT_SECONDS=300 bash scripts/conformance-local.sh

## The client compatibility matrix: Claude Code, Codex, Gemini CLI, OpenCode, Qwen Code, Kilo CLI and Cline, each
## headless in a temp HOME × OpenAI, Anthropic, Gemini, DeepSeek and pass/ models × a plain and a tool turn, against the
## gateway on a loopback recorded upstream (test/compat/); writes docs/compatibility.md. About 10 minutes
## with COMPAT_CONCURRENCY=2 (clients at a time). COMPAT_ARGS="--client codex --family openai" narrows a run.
compatibility: install install-compat
	npx tsx test/compat/run-matrix.ts $(COMPAT_ARGS)

## Optional, not run in CI (needs a Docker engine): Schemathesis against a running gateway, e.g.
##   MODELGATE_API_KEY=mg-v1-... make schemathesis BASE_URL=http://127.0.0.1:8080/api/v1
SCHEMATHESIS_IMAGE ?= schemathesis/schemathesis:stable
BASE_URL ?= http://127.0.0.1:8080/api/v1
schemathesis:
	@test -n "$$MODELGATE_API_KEY" || { echo "set MODELGATE_API_KEY to the key of a test account" >&2; exit 2; }
	docker run --rm --network host -v "$(CURDIR)/generated:/spec:ro" $(SCHEMATHESIS_IMAGE) \
	  run /spec/openapi.json --url "$(BASE_URL)" -H "Authorization: Bearer $$MODELGATE_API_KEY" --checks all
