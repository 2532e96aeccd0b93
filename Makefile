# Modelgate — every target a newcomer or CI needs. `make run` and `make test` work on a fresh clone.
SHELL := /bin/bash
NPM ?= npm
NODE_MODULES_STAMP := node_modules/.package-lock.json

.PHONY: install generate check-generated build run test test-unit typecheck lint clean bench bench-quick

install: $(NODE_MODULES_STAMP)

$(NODE_MODULES_STAMP): package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

## Regenerate generated/ (OpenAPI JSON + YAML, TypeScript types) from spec/.
generate: install
	bash scripts/generate.sh

## Fail when generated/ does not match spec/.
check-generated: install
	bash scripts/check-generated.sh

build: install
	rm -rf dist
	npx tsc -p tsconfig.build.json

## Start the gateway on the embedded database (no external server needed).
run: build
	node dist/src/cli.js serve

typecheck: install
	npx tsc -p tsconfig.json --noEmit

lint: typecheck

## The whole suite: stale generated files, types, unit/db/provider/e2e/contract tests.
test: install check-generated typecheck
	npx vitest run

clean:
	rm -rf dist .modelgate

## Gateway overhead side by side with the mock upstream, a bare Koa pass-through and Portkey, on PostgreSQL with
## real metering; writes bench/results/full.{md,json,svg} (bench/README.md). Under 15 minutes.
bench: build
	bash bench/run.sh full

## A ~45 s subset of `make bench`; writes bench/results/quick.{md,json,svg}.
bench-quick: build
	bash bench/run.sh quick
