// A response-cache hit, up to the answer. The request was admitted before the lookup (read-response-cache.ts: the
// key's allow-list, its requests per minute, a pass/ model's subscription); what depends on the stored answer is
// admitted here, through the same admission step, before anything of the answer is sent: the allow-list for the model
// that served it (another, for a `models` fallback), and what the hit costs (nothing, unless the operator prices hits:
// then that charge is admitted like any request's, 402 included). The hit has a generation record of its own
// (cache_hit, its own id, no tokens, the original's cost less its charge as savings), settled through the same queue
// as every generation, and committed before the replay's last bytes leave. No upstream is called.
import { memberOf, type Principal } from '../../auth/principal.js';
import { releaseAdmission, type Admission } from '../../billing/admission.js';
import type { SettlementQueue } from '../../billing/settlement-queue.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogEntry } from '../../catalog/types.js';
import type { Config } from '../../config.js';
import type { RateReport } from '../../core/rate-report.js';
import type { ApiFormat, NewGeneration } from '../../db/tables/generations.js';
import type { Logger } from '../../logger.js';
import type { RequestTrace } from '../../observability/gateway-tracer.js';
import type { AdmissionParts } from '../admission/admission-ask.js';
import { admit } from '../admission/admit.js';
import { newGenerationId } from '../generation-meter.js';
import type { TrackingHeaders } from '../generation-record.js';
import type { CachedAnswer, Replay } from './cached-answer.js';
import type { ResponseCache } from './response-cache.js';

/** What the read admitted. */
export interface ReadAdmission {
  /** The key's rate state: the request is counted. */
  rate: RateReport;
  /** A pass/ model's hold (no quota, a live subscription): a pass hit's admission, given back on a miss. */
  pass?: Admission;
}

export interface HitParts extends AdmissionParts {
  /** The keep-alive of a replayed stream is every stream's (MODELGATE_KEEP_ALIVE_SECONDS). */
  config: AdmissionParts['config'] & Pick<Config, 'keepAliveSeconds'>;
  catalog: Catalog;
  settlements: SettlementQueue;
  logger: Logger;
  responseCache: ResponseCache;
}

export interface AdmittedHit {
  replay: Replay;
  /** The key's rate state. */
  rate: RateReport;
  /** Queues the hit's record and settlement, once; resolves when it is committed, never rejects. */
  settle(outcome: { latencyMs: number; aborted: boolean }): Promise<void>;
}

export interface HitRequest {
  principal: Principal;
  apiFormat: ApiFormat;
  /** The model the request named (its `models` fallbacks are part of the key). */
  requestedModel: string;
  stream: boolean;
  tracking: TrackingHeaders;
  requestTrace?: RequestTrace;
}

/**
 * undefined when the answer's model has left the catalog: the request is then served as a miss. Takes the read's
 * pass/ hold: used by a pass hit, else given back (also when the hit is refused).
 */
export async function admitHit(
  parts: HitParts,
  request: HitRequest,
  answer: CachedAnswer,
  admitted: ReadAdmission,
): Promise<AdmittedHit | undefined> {
  const hold = admitted.pass;
  admitted.pass = undefined;
  const { rate } = admitted;
  const entry = parts.catalog.get(answer.model);
  const chargeNanos = parts.responseCache.chargeFor(answer);
  let admission: Admission | undefined;
  try {
    if (entry) admission = await admitCharge(parts, request, { answer, entry, chargeNanos, hold, rate });
  } finally {
    // The read's hold goes back unless it is the hit's admission.
    if (hold && hold !== admission) await releaseAdmission(parts.db, hold);
  }
  if (!admission) return undefined;
  const granted = admission;
  const id = newGenerationId();
  const savedNanos = answer.costNanos > chargeNanos ? answer.costNanos - chargeNanos : 0n;
  let settled: Promise<void> | undefined;
  return {
    replay: { generationId: id, costNanos: chargeNanos, accessMode: granted.mode },
    rate,
    settle: ({ latencyMs, aborted }) => {
      if (settled) return settled;
      const record = hitRecord({
        id,
        request,
        answer,
        admission: granted,
        chargeNanos,
        savedNanos,
        latencyMs,
        aborted,
      });
      request.requestTrace?.annotate(record);
      settled = parts.settlements
        .settle(granted, record)
        .catch((err: unknown) => parts.logger.error({ err, generation_id: id }, 'could not queue settlement'));
      return settled;
    },
  };
}

/** What the hit needs beyond the read's admission: the serving model's allow-list, and its charge or pass hold. */
async function admitCharge(
  parts: HitParts,
  request: HitRequest,
  hit: { answer: CachedAnswer; entry: CatalogEntry; chargeNanos: bigint; hold?: Admission; rate: RateReport },
): Promise<Admission> {
  const { principal } = request;
  const { answer, chargeNanos, hold } = hit;
  // A pass/ answer costs nothing: the read's hold (a live subscription) is the hit's admission.
  const held = answer.accessMode === 'pass' ? hold : undefined;
  // A priced hit is admitted like any request; a pass/ answer still needs a live subscription (a hit of 0 quota).
  const charged = !held && (chargeNanos > 0n || answer.accessMode === 'pass');
  const admitted = await admit(parts, {
    path: 'cache-hit',
    principal,
    candidates: [{ entry: hit.entry }],
    estimatedTokens: 0,
    requestCounted: hit.rate,
    freeAllowance: false,
    spend: charged ? { kind: 'amount', amountNanos: chargeNanos } : { kind: 'none' },
  });
  return held ?? admitted.admission ?? { mode: answer.accessMode, userId: principal.organizationId, reservedNanos: 0n };
}

function hitRecord(input: {
  id: string;
  request: HitRequest;
  answer: CachedAnswer;
  admission: Admission;
  chargeNanos: bigint;
  savedNanos: bigint;
  latencyMs: number;
  aborted: boolean;
}): NewGeneration {
  const { request, answer, admission } = input;
  const { principal, tracking } = request;
  return {
    id: input.id,
    user_id: principal.organizationId,
    api_key_id: principal.kind === 'api_key' ? principal.credentialId : null,
    member_user_id: memberOf(principal),
    access_mode: admission.mode,
    model: answer.model,
    provider: answer.provider,
    upstream_model: answer.upstreamModel,
    upstream_id: null,
    streamed: request.stream,
    finish_reason: answer.finishReason,
    status: input.aborted ? 'aborted' : 'success',
    http_status: 200,
    error_code: input.aborted ? 'client_disconnected' : null,
    error_message: null,
    // No provider was called: no tokens were used ("usage reports do not grow").
    prompt_tokens: 0,
    completion_tokens: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cost_nanos: admission.mode === 'pass' ? 0n : input.chargeNanos,
    reference_cost_nanos: admission.mode === 'pass' ? input.chargeNanos : null,
    latency_ms: input.latencyMs,
    time_to_first_token_ms: null,
    app_title: tracking.appTitle,
    app_referer: tracking.appReferer,
    task_id: tracking.taskId,
    api_format: request.apiFormat,
    attempts: null,
    cache_hit: true,
    cache_saved_nanos: input.savedNanos,
  };
}
