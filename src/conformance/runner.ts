// The conformance run: every operation of the document × valid, invalid and unauthenticated inputs, then the
// model-based key lifecycle and (with a hook to add credits) the credits sequence. Used by `modelgate conformance`
// against any deployment and by test/contract against the in-process gateway.
import fc from 'fast-check';
import { loadDocument, type OpenApiDocument } from './openapi-document.js';
import { createSchemaValidator } from './schema-validator.js';
import { RequestArbitraries } from './request-arbitraries.js';
import { createSender, type Exchange, type Sender } from './http-exchange.js';
import type { CheckContext } from './response-checks.js';
import { runProperty, type InputKind } from './property-runner.js';
import { createSequenceEnvironment } from './stateful-environment.js';
import { KEY_OPERATIONS, KEYS_TARGET, runKeySequences } from './stateful-keys.js';
import { CREDITS_OPERATIONS, CREDITS_TARGET, runCreditSequences } from './stateful-credits.js';
import { mainCredential } from './request-spec.js';
import { isOk, type CheckResult, type ConformanceReport } from './report.js';
import { chooseModels } from './choose-models.js';

export interface RunnerOptions {
  /** API root, e.g. `http://127.0.0.1:8080/api/v1`; a bare origin gets the document's server path appended. */
  baseUrl: string;
  apiKey: string;
  /** An admin key: drives the operator API's operations (paths under /admin), which refuse `apiKey` with 403. */
  adminApiKey?: string;
  /** Generated inputs per property (operation × input kind) and command sequences per stateful test. */
  runs?: number;
  seed?: number;
  /** Model for valid chat requests; default: chosen from GET /models. */
  model?: string;
  /** Per-request timeout. */
  requestTimeoutMs?: number;
  /** Time budget per property, shrinking included. */
  timeLimitMs?: number;
  /** Defaults to the document this build was generated from. */
  document?: OpenApiDocument;
  /** Adds credits to the key's account; without it the credits sequence is skipped. */
  addCredits?: (usd: number) => Promise<void>;
  /** Run only these operationIds (all by default). */
  operations?: string[];
  /** Which parts to run (all by default). */
  parts?: { properties?: InputKind[]; keys?: boolean; credits?: boolean };
  /** Generated command sequences per stateful test (default: a fifth of `runs`, at least 3). */
  sequenceRuns?: number;
  /** Longest generated command sequence. */
  maxCommands?: number;
  log?: (line: string) => void;
}

export async function runConformance(options: RunnerOptions): Promise<ConformanceReport> {
  const started = Date.now();
  const doc = options.document ?? (await loadDocument());
  const baseUrl = apiRoot(options.baseUrl, doc.serverPath);
  const runs = options.runs ?? 100;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const timeLimitMs = options.timeLimitMs ?? 60_000;
  const log = options.log ?? (() => undefined);
  const validator = createSchemaValidator(doc);
  const checks: CheckContext = { doc, validator, eventSchemaPointer: chunkSchema(doc) };
  const secrets = new Set([options.apiKey, ...(options.adminApiKey === undefined ? [] : [options.adminApiKey])]);
  const createdKeys: string[] = [];
  let requests = 0;
  const sender = observe(createSender(baseUrl, { timeoutMs: options.requestTimeoutMs ?? 30_000 }), (ex) => {
    requests++;
    // Keys created by generated createApiKey requests: never printed, deleted at the end.
    if (ex.request.operationId === 'createApiKey' && ex.status === 201) {
      try {
        const body = JSON.parse(ex.body);
        if (typeof body.key === 'string') secrets.add(body.key);
        if (typeof body.key_id === 'string') createdKeys.push(body.key_id);
      } catch {
        // the schema check reports it
      }
    }
  });
  const results: CheckResult[] = [];
  const sequences = createSequenceEnvironment({
    doc, sender, checks, secrets, main: mainCredential(options.apiKey), numRuns: options.sequenceRuns ?? Math.max(3, Math.ceil(runs / 5)), seed, timeLimitMs,
    maxCommands: options.maxCommands ?? 10,
  });
  let model: string | undefined;
  try {
    const models = await chooseModels(doc, sender, options.apiKey, options.model);
    model = models.model;
    log(`model for valid requests: ${models.model ?? '(none: GET /models lists none)'}${models.freeModel ? `, free model: ${models.freeModel}` : ''}`);
    const requestArbs = new RequestArbitraries(doc, validator, { apiKey: options.apiKey, adminApiKey: options.adminApiKey, model: models.model });
    const env = { sender, checks, numRuns: runs, seed, timeLimitMs, secrets };
    const kinds = options.parts?.properties ?? ['valid', 'invalid', 'unauthorized'];
    const operations = doc.operations.filter((op) => !options.operations || options.operations.includes(op.operationId));
    for (const op of operations) {
      for (const kind of kinds) {
        const arbitrary = kind === 'valid' ? requestArbs.valid(op) : kind === 'invalid' ? requestArbs.invalid(op) : op.secured ? requestArbs.unauthorized(op) : undefined;
        if (!arbitrary) continue;
        log(`${op.operationId} [${kind}]`);
        results.push(...(await runProperty(env, op, kind, arbitrary)));
      }
    }
    // A sequence runs when the document has every operation it needs and --operation (if given) selects them all.
    const missing = (ids: string[]) =>
      !ids.every((id) => doc.operations.some((op) => op.operationId === id)) ? `the document lacks ${ids.join('/')}`
        : options.operations && !ids.every((id) => options.operations!.includes(id)) ? `not selected (needs ${ids.join(', ')})`
          : undefined;
    if (options.parts?.keys !== false) {
      const skip = missing(KEY_OPERATIONS);
      if (!skip) {
        log('stateful: API key lifecycle');
        // One valid request per operation, to be replayed with a deleted key.
        const samples = doc.operations.filter((op) => op.secured).map((op) => fc.sample(requestArbs.valid(op), { numRuns: 1, seed })[0]);
        results.push(...(await runKeySequences(sequences, samples)));
      } else {
        results.push({ check: 'stateful_keys', target: KEYS_TARGET, outcome: 'skipped', runs: 0, note: skip });
      }
    }
    if (options.parts?.credits !== false) {
      const skip = !options.addCredits ? 'no hook to add credits (--admin-cli)' : (missing(CREDITS_OPERATIONS) ?? (!models.paidModel ? 'no paid model served' : undefined));
      if (skip) {
        results.push({ check: 'stateful_credits', target: CREDITS_TARGET, outcome: 'skipped', runs: 0, note: skip });
      } else {
        log('stateful: credits');
        results.push(...(await runCreditSequences(sequences, { addCredits: options.addCredits!, model: models.paidModel!, freeModel: models.freeModel })));
      }
    }
  } finally {
    // Generated createApiKey requests leave keys behind: delete them (already deleted ones answer 404, harmlessly).
    for (const keyId of createdKeys) await sequences.deleteKey(keyId);
    await sender.close();
  }
  return {
    baseUrl,
    spec: { title: doc.title, version: doc.version },
    seed,
    runs,
    model,
    durationMs: Date.now() - started,
    results,
    requests,
    ok: isOk(results),
  };
}

/** The API root: the given URL, or its origin plus the document's server path when it has no path of its own. */
export function apiRoot(baseUrl: string, serverPath: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? serverPath : path}`;
}

function chunkSchema(doc: OpenApiDocument): string | undefined {
  return doc.raw.components?.schemas?.ChatCompletionChunk ? '#/components/schemas/ChatCompletionChunk' : undefined;
}

function observe(sender: Sender, onExchange: (ex: Exchange) => void): Sender {
  return {
    baseUrl: sender.baseUrl,
    close: () => sender.close(),
    async send(spec) {
      const ex = await sender.send(spec);
      onExchange(ex);
      return ex;
    },
  };
}
