# Modelgate — every target a newcomer or CI needs. `make run` and `make test` work on a fresh clone.
SHELL := /bin/bash
NPM ?= npm
NODE_MODULES_STAMP := node_modules/.package-lock.json

# `make help` lists every target with the `##` lines above it: a target without them is missing from the list.
.PHONY: help install generate check-generated build run test test-unit typecheck lint clean bench bench-quick bench-scale bench-lanes bench-load bench-history docs sdk screenshot conformance conformance-long schemathesis compatibility

## List the targets and what they do (this text: the `##` lines above each target).
help:
	@awk -f scripts/make-help.awk $(firstword $(MAKEFILE_LIST))

## Install the locked dependencies (npm install, which keeps the lock's versions), again only when package.json or
## package-lock.json changed.
install: $(NODE_MODULES_STAMP)

# `npm install`, not `npm ci`: some agent CLIs of the compatibility matrix (@kilocode/cli, @teddyzhu/clipboard under
# it) list per-platform optional packages that were never published; `npm ci` refuses a lock without them, while
# `npm install` skips them and installs the lock's versions unchanged (a clean clone's lock stays as committed).
$(NODE_MODULES_STAMP): package.json package-lock.json
	$(NPM) install --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

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

## Type-check src/, test/, bench/ and generated/ without emitting.
typecheck: install
	npx tsc -p tsconfig.json --noEmit

## Types, then Spectral on the emitted OpenAPI (.spectral.yaml: spectral:oas, examples validated). Warnings fail
## too, so the document stays at zero findings.
lint: typecheck
	npx spectral lint generated/openapi.json generated/openapi.yaml --ruleset .spectral.yaml --fail-severity=warn

## Static API reference (Scalar, no CDN) + OpenAPI JSON/YAML into dist/docs/, ready to publish on any static host.
docs: install check-generated
	npx tsx src/docs/write-static-docs.ts dist/docs

## Typed client SDK package (openapi-typescript types + openapi-fetch, streaming helper) into dist/sdk/.
sdk: install check-generated
	npx tsx src/sdk/build/build-package.ts dist/sdk

## Photograph the account page (a seeded account on a temp embedded database, headless Chromium via playwright-core)
## into docs/images/account-page.png. About 15 seconds; needs Chromium (/usr/bin/chromium or CHROMIUM_PATH).
screenshot: install
	npx tsx test/browser/account-screenshot.ts docs/images/account-page.png

## The whole suite: stale generated files, types, unit/db/provider/e2e/contract tests.
test: install check-generated typecheck
	npx vitest run

## Remove dist/ and the default embedded database folder .modelgate/ (its data is lost).
clean:
	rm -rf dist .modelgate

## Gateway overhead side by side with the mock upstream, a bare Koa pass-through and Portkey, on PostgreSQL with
## real metering, then metrics+tracing on vs off and --workers 2 vs 1; writes bench/results/full.{md,json,svg}
## (bench/README.md); then the concurrent-streams load test of `make bench-load`. About 29 minutes.
bench: build
	bash bench/run.sh full

## A ~60 s subset of `make bench` (shorter windows: a smoke check of the targets); writes bench/results/quick.*.
bench-quick: build
	bash bench/run.sh quick

## The observability-cost and workers section of `make bench` alone, more rounds (bench/scale-compare.ts): metrics + tracing on vs off at c=16,
## `serve --workers 2` vs 1 at c=64 (needs PostgreSQL and redis-server); writes bench/results/scale.{md,json}. ~10 minutes.
## SCALE_ARGS="[seconds per round] [rounds] [observability|observability-sampled|workers...]" narrows or lengthens it.
bench-scale: build
	bash scripts/ensure-postgres.sh
	node dist/bench/scale-compare.js $(SCALE_ARGS)

## The lanes comparison of `make bench` alone (bench/lanes-compare.ts, issue 37 §6): CPU per request and paired ratios
## against a bare Koa + undici proxy, small and ~400 KB coding-agent requests, on each native lane (chat → OpenAI,
## Messages → Anthropic, Responses → OpenAI) and the translated lane; writes bench/results/lanes.{md,json}. ~8 minutes.
## LANES_ARGS="[seconds per run] [rounds] [lane id...]" narrows or lengthens it.
bench-lanes: build
	bash scripts/ensure-postgres.sh
	node dist/bench/lanes-compare.js $(LANES_ARGS)

## 1,000 concurrent slow streams (24 chunks 100 ms apart) through one gateway on PostgreSQL, 50 accounts
## (bench/load-streams.ts, docs/concurrency.md): time to first chunk, peak RSS, and each account's usage against its
## streams' reported costs; writes bench/results/load.{md,json}. About 1.5 minutes. LOAD_ARGS="[streams] [rounds]".
bench-load: build
	bash scripts/ensure-postgres.sh
	ulimit -n 65536 2>/dev/null || ulimit -n "$$(ulimit -Hn)"; node dist/bench/load-streams.js $(LOAD_ARGS)

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
conformance-long: build
	CONFORMANCE_RUNS=400 CONFORMANCE_TIME_LIMIT_MS=120000 npx vitest run test/contract
	CONFORMANCE_RUNS=1000 CONFORMANCE_TIME_LIMIT_SECONDS=300 bash scripts/conformance-local.sh

## The client compatibility matrix: Claude Code, Codex, Gemini CLI, OpenCode, Qwen Code, Kilo CLI and Cline, each
## headless in a temp HOME × OpenAI, Anthropic, Gemini, DeepSeek and pass/ models × a plain and a tool turn, against the
## gateway on a loopback recorded upstream (test/compat/); writes docs/compatibility.md. About 10 minutes
## with COMPAT_CONCURRENCY=2 (clients at a time). COMPAT_ARGS="--client codex --family openai" narrows a run.
compatibility: install
	npx tsx test/compat/run-matrix.ts $(COMPAT_ARGS)

## Optional, not run in CI (needs a Docker engine): Schemathesis against a running gateway, e.g.
##   MODELGATE_API_KEY=mg-v1-... make schemathesis BASE_URL=http://127.0.0.1:8080/api/v1
SCHEMATHESIS_IMAGE ?= schemathesis/schemathesis:stable
BASE_URL ?= http://127.0.0.1:8080/api/v1
schemathesis:
	@test -n "$$MODELGATE_API_KEY" || { echo "set MODELGATE_API_KEY to the key of a test account" >&2; exit 2; }
	docker run --rm --network host -v "$(CURDIR)/generated:/spec:ro" $(SCHEMATHESIS_IMAGE) \
	  run /spec/openapi.json --url "$(BASE_URL)" -H "Authorization: Bearer $$MODELGATE_API_KEY" --checks all
