// The conformance run: which operations of the profile the deployment implements, then every implemented one ×
// valid, invalid and unauthenticated inputs, undefined methods (405 + Allow), the mid-stream error trigger (with a
// hook), the model-based key lifecycle and (with a hook to add credits) the credits sequence. Used by `modelgate
// conformance` against any deployment and by test/contract against the in-process gateway.
import { loadDocument, type OpenApiDocument, type Operation } from './openapi-document.js';
import { createSchemaValidator } from './schema-validator.js';
import { RequestArbitraries } from './request-arbitraries.js';
import { createSender, type Exchange, type Sender } from './http-exchange.js';
import type { CheckContext } from './response-checks.js';
import type { InputKind } from './property-runner.js';
import { createSequenceEnvironment, type SequenceEnvironment } from './stateful-environment.js';
import { KEY_OPERATIONS, KEYS_TARGET, runKeySequences } from './stateful-keys.js';
import { CREDITS_OPERATIONS, CREDITS_TARGET, runCreditSequences } from './stateful-credits.js';
import { buildRequest, mainCredential, managementCredential } from './request-spec.js';
import { isOk, type CheckResult, type ConformanceReport } from './report.js';
import { chooseModels } from './choose-models.js';
import { selectOperations, type Profile } from './profiles.js';
import { probeRoutes } from './route-probes.js';
import { runProperties, sampleRequests } from './run-properties.js';
import { checkUnsupportedMethods } from './unsupported-method.js';
import { checkMidStreamError, MID_STREAM_ERROR_TARGET } from './mid-stream-error.js';

export interface RunnerOptions {
  /** API root, e.g. `http://127.0.0.1:8080/api/v1`; a bare origin gets the document's server path appended. */
  baseUrl: string;
  apiKey: string;
  /** `core`: the seed API's operations only; `modelgate` (default): the extensions too (profiles.ts). */
  profile?: Profile;
  /** An admin key: drives the operator API's operations (paths under /admin), which refuse `apiKey` with 403. */
  adminApiKey?: string;
  /**
   * A credential that may manage the account's keys (Modelgate: the account auth token or a management key, since an
   * API key may only revoke itself): drives createApiKey, updateApiKey, deleteApiKey and the key lifecycle, which
   * then also checks that a created key stays in its scope. Without it those use `apiKey` (implementations without
   * key scopes), and the lifecycle is skipped when `apiKey` may not create keys.
   */
  managementKey?: string;
  /** Generated inputs per property (operation × input kind) and command sequences per stateful test. */
  runs?: number;
  seed?: number;
  /** Model for valid chat requests; default: chosen from GET /models when the deployment has it. */
  model?: string;
  /** Per-request timeout. */
  requestTimeoutMs?: number;
  /** Time budget per property, shrinking included. */
  timeLimitMs?: number;
  /** Defaults to the document this build was generated from. */
  document?: OpenApiDocument;
  /** Adds credits to the key's account; without it the credits sequence is skipped. */
  addCredits?: (usd: number) => Promise<void>;
  /** A user message that makes the deployment fail a stream mid-way; without it the mid-stream error probe is skipped. */
  midStreamErrorPrompt?: string;
  /** Run only these operationIds (all of the profile by default). */
  operations?: string[];
  /** Which parts to run (all by default). */
  parts?: { properties?: InputKind[]; keys?: boolean; credits?: boolean; methods?: boolean; midStreamError?: boolean };
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
  const profile = options.profile ?? 'modelgate';
  const runs = options.runs ?? 100;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const timeLimitMs = options.timeLimitMs ?? 60_000;
  const log = options.log ?? (() => undefined);
  const validator = createSchemaValidator(doc);
  const checks: CheckContext = { doc, validator };
  const secrets = new Set([
    options.apiKey,
    ...[options.adminApiKey, options.managementKey].filter((k): k is string => k !== undefined),
  ]);
  const main = mainCredential(options.apiKey);
  const manager = options.managementKey === undefined ? main : managementCredential(options.managementKey);
  const createdKeys: string[] = [];
  let requests = 0;
  const sender = observe(createSender(baseUrl, { timeoutMs: options.requestTimeoutMs ?? 30_000 }), (ex) => {
    requests++;
    // Keys created by generated createApiKey requests (and route probes): never printed, deleted at the end.
    if (ex.request.operationId === 'createApiKey' && ex.request.method === 'POST' && ex.status === 201) {
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
  let implemented: Operation[] = [];
  const sequences = createSequenceEnvironment({
    doc,
    sender,
    checks,
    secrets,
    main,
    manager,
    numRuns: options.sequenceRuns ?? Math.max(3, Math.ceil(runs / 5)),
    seed,
    timeLimitMs,
    maxCommands: options.maxCommands ?? 10,
    available: (id) => implemented.some((op) => op.operationId === id),
  });
  let model: string | undefined;
  const parts = options.parts ?? {};
  try {
    const models = await chooseModels(doc, sender, options.apiKey, options.model);
    model = models.model;
    if (models.model)
      log(`model for valid requests: ${models.model}${models.freeModel ? `, free model: ${models.freeModel}` : ''}`);
    else
      log(
        `no model for valid requests (${models.unlisted ?? 'GET /models lists none'}; give --model): valid inputs of operations that name a model are skipped`,
      );
    const selected = selectOperations(doc.operations, profile, options.operations);
    const routes = await probeRoutes(selected, sender, main, secrets);
    results.push(...routes.results);
    implemented = routes.implemented;
    const absent = routes.results.filter((r) => r.outcome === 'not_implemented');
    if (absent.length > 0) log(`not implemented (404): ${absent.map((r) => r.target).join('; ')}`);

    const requestArbs = new RequestArbitraries(doc, validator, {
      apiKey: options.apiKey,
      adminApiKey: options.adminApiKey,
      managementKey: options.managementKey,
      model: models.model,
      embeddingModel: models.embeddingModel,
    });
    const env = { sender, checks, numRuns: runs, seed, timeLimitMs, secrets };
    results.push(
      ...(await runProperties(doc, env, requestArbs, {
        operations: implemented,
        kinds: parts.properties ?? ['valid', 'invalid', 'unauthorized'],
        model,
        log,
      })),
    );
    if (parts.methods !== false) {
      log('unsupported methods');
      results.push(...(await checkUnsupportedMethods(doc, implemented, { sender, main, secrets })));
    }
    const chat = implemented.find((op) => op.operationId === 'createChatCompletion');
    if (parts.midStreamError !== false && chat) {
      const skip = !options.midStreamErrorPrompt
        ? 'no trigger (--mid-stream-error-prompt)'
        : !model
          ? 'no model for valid requests'
          : undefined;
      if (skip)
        results.push({
          check: 'mid_stream_error',
          target: MID_STREAM_ERROR_TARGET,
          outcome: 'skipped',
          runs: 0,
          note: skip,
        });
      else
        results.push(
          await checkMidStreamError(checks, chat, {
            sender,
            request: { main, model: model!, prompt: options.midStreamErrorPrompt! },
            secrets,
          }),
        );
    }
    // A sequence runs when every operation it needs is in the document, selected and implemented.
    const missing = (ids: string[]) =>
      !ids.every((id) => doc.operations.some((op) => op.operationId === id))
        ? `the document lacks ${ids.join('/')}`
        : !ids.every((id) => selected.some((op) => op.operationId === id))
          ? `not selected (needs ${ids.join(', ')})`
          : !ids.every((id) => implemented.some((op) => op.operationId === id))
            ? `not implemented (needs ${ids.join(', ')})`
            : undefined;
    if (parts.keys !== false) {
      const skip =
        missing(KEY_OPERATIONS) ?? (options.managementKey === undefined ? await keysNeedManager(sequences) : undefined);
      if (!skip) {
        log('stateful: API key lifecycle');
        // One valid request per operation, to be replayed with a deleted key.
        const samples = sampleRequests(
          implemented.filter((op) => op.secured),
          requestArbs,
          seed,
        );
        // Key scopes are Modelgate's: judged under its profile, and only with a credential that can make keys to judge.
        const scoped = profile === 'modelgate' && options.managementKey !== undefined;
        results.push(...(await runKeySequences(sequences, samples, { scoped })));
      } else {
        results.push({ check: 'stateful_keys', target: KEYS_TARGET, outcome: 'skipped', runs: 0, note: skip });
      }
    }
    if (parts.credits !== false) {
      const skip = !options.addCredits
        ? 'no hook to add credits (--admin-cli)'
        : (missing(CREDITS_OPERATIONS) ?? (!models.paidModel ? 'no paid model served' : undefined));
      if (skip) {
        results.push({ check: 'stateful_credits', target: CREDITS_TARGET, outcome: 'skipped', runs: 0, note: skip });
      } else {
        log('stateful: credits');
        results.push(
          ...(await runCreditSequences(sequences, {
            addCredits: options.addCredits!,
            model: models.paidModel!,
            freeModel: models.freeModel,
          })),
        );
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
    profile,
    seed,
    runs,
    model,
    durationMs: Date.now() - started,
    results,
    requests,
    ok: isOk(results),
  };
}

/**
 * Without a management credential the lifecycle runs with the API key, which a deployment with key scopes refuses
 * (403): then the lifecycle is skipped with a note naming the option, rather than failed for a missing credential.
 */
async function keysNeedManager(env: SequenceEnvironment): Promise<string | undefined> {
  const op = env.doc.operations.find((o) => o.operationId === 'createApiKey')!;
  const probe = await env.sender.send(
    buildRequest(
      op,
      { params: {}, body: '{"name":"conformance-probe"}', contentType: 'application/json' },
      { credential: env.main, description: 'may the API key create keys?' },
    ),
  );
  // A key the probe created is deleted at the end with every other key the run created (the sender records them).
  return probe.status === 403
    ? 'the API key may not manage keys (403): give --management-key (an account token or management key)'
    : undefined;
}

/** The API root: the given URL, or its origin plus the document's server path when it has no path of its own. */
export function apiRoot(baseUrl: string, serverPath: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? serverPath : path}`;
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
