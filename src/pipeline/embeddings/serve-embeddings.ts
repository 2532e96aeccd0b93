// POST /embeddings as a small flow of its own beside the generation pipeline, in the same steps and with the same
// parts: authenticate (HTTP layer) → resolve the model → check the request → admit (rate limits, the key's
// allow-list, credits for the request's upper bound) → call the provider → settle (one record, one debit, committed
// before the answer leaves) → answer. It shares admission, settlement, records, metrics and traces with generations,
// not their chat types.
import type { Catalog } from '../../catalog/catalog.js';
import type { CatalogEntry } from '../../catalog/types.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { Admission } from '../../billing/admission.js';
import { costNanos, maxCostNanos } from '../../billing/pricing.js';
import type { SettlementQueue } from '../../billing/settlement-queue.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerationAttempt } from '../../db/tables/generations.js';
import { rateBudgetsOf } from '../../limits/admit-rate.js';
import type { AdmissionParts } from '../admission/admission-ask.js';
import { admit } from '../admission/admit.js';
import { newGenerationId } from '../generation-meter.js';
import type { GenerationClient, GenerationResponse } from '../serve-generation.js';
import type { AdapterContext, ProviderConfig } from '../../providers/adapter.js';
import type { EmbeddingAdapter, EmbeddingAdapters } from '../../providers/embedding-adapter.js';
import type { HttpClient } from '../../providers/http-client.js';
import { providerEnvPrefix, type ProviderRegistry } from '../../providers/registry.js';
import { callEmbeddings, type BatchOutcome } from './call-embeddings.js';
import {
  checkEmbeddingRequest,
  estimateInputTokens,
  type CheckedEmbedding,
  type EmbeddingRequestBody,
} from './check-embedding-request.js';
import { embeddingRecord, type EmbeddingOutcome } from './embedding-record.js';
import { renderEmbeddings } from './render-embeddings.js';
import { organizationModels } from '../../catalog/organization-models.js';

export interface EmbeddingParts extends AdmissionParts {
  config: Pick<Config, 'rateLimitRpm' | 'rateLimitTpm' | 'freeRequestsPerDay' | 'passQuota'>;
  catalog: Catalog;
  providers: ProviderRegistry;
  embeddingAdapters: EmbeddingAdapters;
  http: HttpClient;
  settlements: SettlementQueue;
  logger: Logger;
}

/** Answers through the generation response port (JSON only), so the response cache wraps it as it wraps the doors. */
export type EmbeddingResponse = Pick<GenerationResponse, 'headers' | 'rate' | 'json'>;

export async function serveEmbeddings(
  parts: EmbeddingParts,
  client: GenerationClient,
  body: EmbeddingRequestBody,
  response: EmbeddingResponse,
): Promise<void> {
  const { principal } = client; //                                              1 authenticated
  // 2 resolve (an organization's alias names a catalog model)
  const entry = resolveModel(parts.catalog, organizationModels(parts.catalog, principal.aliases).canonical(body.model));
  const { provider, adapter } = embeddingEndpoint(parts, entry);
  const checked = checkEmbeddingRequest(body, entry, adapter.acceptsTokenInput(provider)); // 3 check
  // 4 admit: the key's allow-list, its limits, the free allowance, then credits for the request's upper bound
  const admitted = await admit(parts, {
    path: 'embeddings',
    principal,
    candidates: [{ entry }],
    estimatedTokens: checked.estimatedTokens,
    requestCounted: client.requestCounted,
    freeAllowance: true,
    spend: { kind: 'amount', amountNanos: maxCostNanos(entry, checked.maxTokens, 0) },
  });
  // An amount is always admitted with a hold (nothing, for a free model).
  const admission = admitted.admission!;
  const id = newGenerationId();
  const started = Date.now();
  response.rate(admitted.rate);
  response.headers({ 'x-generation-id': id });
  const connection = client.watchConnection();
  const attempts: GenerationAttempt[] = [];
  const ctx: AdapterContext = {
    provider,
    model: { id: entry.id, upstreamModel: entry.upstreamModel, supportsReasoning: false },
    stream: false,
  };
  let outcome: EmbeddingOutcome = {
    status: 'error',
    httpStatus: 500,
    errorCode: 'internal_error',
    promptTokens: 0,
    usageEstimated: false,
    costNanos: 0n,
  };
  let settling: Promise<void> | undefined;
  try {
    const batches = await callEmbeddings(
      {
        //                                    5+6 call, translate
        http: parts.http,
        adapter,
        ctx,
        signal: connection.signal,
        clientTrace: client.clientTrace,
        requestTrace: client.requestTrace,
      },
      checked.call,
      attempts,
    );
    outcome = { ...served(entry, checked, batches), status: 'success', httpStatus: 200 };
    const failed = batches.find((b) => !b.ok);
    if (failed && !failed.ok) throw failed.error;
    if (connection.signal.aborted)
      throw new GatewayError(499, 'Client closed the request', { reason: 'client_disconnected' });
    response.headers({ 'x-modelgate-provider': provider.id, 'x-modelgate-model': entry.id });
    // 7 settle before the body (it tells the cost) leaves, as for generations.
    settling = settle(parts, client, { id, entry, admission, outcome, attempts, started, checked });
    await settling;
    response.json(
      renderEmbeddings({
        //                                         8 respond
        id,
        model: entry.id,
        provider: provider.id,
        vectors: batches.flatMap((b) => (b.ok ? b.result.vectors : [])),
        encoding: checked.call.encoding,
        promptTokens: outcome.promptTokens,
        costNanos: outcome.costNanos,
        accessMode: admission.mode,
      }),
    );
  } catch (err) {
    outcome = failure(outcome, err, connection.signal.aborted);
    throw err;
  } finally {
    connection.dispose();
    // 7 settle, exactly once: here when the request failed.
    settling ??= settle(parts, client, { id, entry, admission, outcome, attempts, started, checked });
  }
}

function resolveModel(catalog: Catalog, model: string): CatalogEntry {
  const resolved = catalog.resolve(model);
  if (!resolved.ok)
    throw new GatewayError(resolved.reason === 'malformed' ? 400 : 404, resolved.message, {
      model,
      reason: resolved.reason,
    });
  return resolved.entry;
}

/** The model's provider and its embeddings adapter; 503 naming the variable when the operator has not configured it. */
function embeddingEndpoint(
  parts: EmbeddingParts,
  entry: CatalogEntry,
): { provider: ProviderConfig; adapter: EmbeddingAdapter } {
  const provider = parts.providers.getProvider(entry.upstreamProvider);
  if (!provider?.apiKey) {
    throw new GatewayError(
      503,
      `Provider ${entry.upstreamProvider} is not configured on this gateway (the operator has not set ${providerEnvPrefix(entry.upstreamProvider)}_API_KEY)`,
      {
        provider: entry.upstreamProvider,
        model: entry.id,
        reason: 'provider_not_configured',
      },
    );
  }
  const adapter = parts.embeddingAdapters[provider.kind];
  if (!adapter) {
    throw new GatewayError(503, `Provider ${provider.id} (${provider.kind}) has no embeddings API in this gateway`, {
      provider: provider.id,
      reason: 'provider_not_configured',
    });
  }
  return { provider, adapter };
}

/** The tokens and cost of the batches that were served: the provider's count, or the gateway's where it gave none. */
function served(
  entry: CatalogEntry,
  checked: CheckedEmbedding,
  batches: readonly BatchOutcome[],
): Omit<EmbeddingOutcome, 'status' | 'httpStatus'> {
  let promptTokens = 0;
  let usageEstimated = false;
  let start = 0;
  for (const batch of batches) {
    if (batch.ok) {
      const reported = batch.result.promptTokens;
      if (reported === undefined) usageEstimated = true;
      promptTokens += reported ?? estimateInputTokens(checked.call.inputs, start, start + batch.inputs);
    }
    start += batch.inputs;
  }
  const usage = { promptTokens, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  return { promptTokens, usageEstimated, costNanos: costNanos(entry, usage) };
}

function failure(outcome: EmbeddingOutcome, err: unknown, aborted: boolean): EmbeddingOutcome {
  if (aborted) return { ...outcome, status: 'aborted', httpStatus: 499, errorCode: 'client_disconnected' };
  if (err instanceof GatewayError)
    return {
      ...outcome,
      status: 'error',
      httpStatus: err.status,
      errorCode: String(err.metadata.reason ?? err.code),
      errorMessage: err.message,
    };
  return {
    ...outcome,
    status: 'error',
    httpStatus: 500,
    errorCode: 'internal_error',
    errorMessage: (err as Error)?.message,
  };
}

async function settle(
  parts: EmbeddingParts,
  client: GenerationClient,
  run: {
    id: string;
    entry: CatalogEntry;
    admission: Admission;
    outcome: EmbeddingOutcome;
    attempts: GenerationAttempt[];
    started: number;
    checked: CheckedEmbedding;
  },
): Promise<void> {
  try {
    const { principal } = client;
    // The provider's count replaces the estimate in the key's token budget.
    const extra = run.outcome.promptTokens - run.checked.estimatedTokens;
    if (extra > 0) parts.limiter.consumeTokens(rateBudgetsOf(principal, parts.config), extra, parts.now().getTime());
    const record = embeddingRecord({
      id: run.id,
      principal,
      entry: run.entry,
      admission: run.admission,
      outcome: run.outcome,
      latencyMs: Date.now() - run.started,
      tracking: client.tracking,
      attempts: run.attempts,
    });
    client.requestTrace?.annotate(record);
    await parts.settlements.settle(run.admission, record);
  } catch (err) {
    parts.logger.error({ err, generation_id: run.id }, 'could not queue settlement');
  }
}
