// Step 5+6 of an embeddings request: the adapter's vendor requests (several for a vendor with a small batch limit)
// sent at once through the gateway's HTTP client, each counted and traced as an upstream attempt, and each answer
// read and translated. Every request's outcome is kept: a failure of one must not hide that the others were served
// (and billed by the vendor).
import type { EmbeddingBatchResult, EmbeddingCall } from '../../core/embedding.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { AdapterContext } from '../../providers/adapter.js';
import type { EmbeddingAdapter, EmbeddingUpstreamRequest } from '../../providers/embedding-adapter.js';
import type { CallSignal, HttpClient, UpstreamResponse } from '../../providers/http-client.js';
import { UpstreamPayloadError } from '../../providers/upstream-payload-error.js';
import { readErrorBody, readUpstreamJson, transportFailure, UpstreamHttpError } from '../call-upstream.js';
import { endUpstreamAttempt, observeUpstreamAttempt } from '../../observability/upstream-attempt.js';
import type { ClientTraceHeaders } from '../../observability/client-trace-context.js';
import type { RequestTrace } from '../../observability/gateway-tracer.js';
import type { GenerationAttempt } from '../../db/tables/generations.js';

export interface EmbeddingExchange {
  http: HttpClient;
  adapter: EmbeddingAdapter;
  ctx: AdapterContext;
  signal: CallSignal;
  clientTrace?: ClientTraceHeaders;
  requestTrace?: RequestTrace;
}

/** How one vendor request ended, with the inputs it carried (in order). */
export type BatchOutcome =
  | { ok: true; inputs: number; result: EmbeddingBatchResult }
  | { ok: false; inputs: number; error: unknown };

/** Sends every request at once; resolves when all have ended, never rejects. `attempts` gets one entry per request. */
export function callEmbeddings(
  exchange: EmbeddingExchange,
  call: EmbeddingCall,
  attempts: GenerationAttempt[],
): Promise<BatchOutcome[]> {
  const requests = exchange.adapter.buildRequests(call, exchange.ctx);
  return Promise.all(
    requests.map(async (request): Promise<BatchOutcome> => {
      const started = Date.now();
      const attempt: GenerationAttempt = {
        provider: exchange.ctx.provider.id,
        model: exchange.ctx.model.id,
        status: null,
        error_code: null,
        latency_ms: 0,
      };
      attempts.push(attempt);
      try {
        const result = await sendBatch(exchange, call, request, attempt);
        return { ok: true, inputs: request.inputs, result };
      } catch (error) {
        attempt.error_code =
          error instanceof GatewayError ? String(error.metadata.reason ?? error.status) : 'internal_error';
        return { ok: false, inputs: request.inputs, error };
      } finally {
        attempt.latency_ms = Date.now() - started;
      }
    }),
  );
}

async function sendBatch(
  exchange: EmbeddingExchange,
  call: EmbeddingCall,
  request: EmbeddingUpstreamRequest,
  attempt: GenerationAttempt,
): Promise<EmbeddingBatchResult> {
  const { http, adapter, ctx, signal } = exchange;
  const response = await observeUpstreamAttempt(http.observer, ctx, exchange.requestTrace, async (span) => {
    let answer: UpstreamResponse;
    try {
      answer = await http.send(request.upstream, signal, exchange.clientTrace, span);
    } catch (err) {
      throw transportFailure(err, ctx.provider.id);
    }
    attempt.status = answer.status;
    if (answer.status >= 200 && answer.status < 300) return answer;
    const body = await readErrorBody(answer);
    throw new UpstreamHttpError(
      adapter.mapError({ status: answer.status, body, headers: answer.headers }, ctx),
      ctx.provider.id,
      answer.status,
    );
  });
  let body: unknown;
  try {
    body = await readUpstreamJson(response, ctx.provider.id);
  } catch (err) {
    endUpstreamAttempt(response, { aborted: signal.aborted, error: err });
    throw signal.aborted ? transportFailure(err, ctx.provider.id) : err;
  }
  try {
    const result = adapter.parseResponse(body, request.inputs, call, ctx);
    endUpstreamAttempt(response, {
      report:
        result.promptTokens === undefined ? {} : { usage: { promptTokens: result.promptTokens, completionTokens: 0 } },
    });
    return result;
  } catch (err) {
    const failure =
      err instanceof UpstreamPayloadError
        ? new UpstreamHttpError(err.info, ctx.provider.id, 200)
        : new GatewayError(502, `Provider ${ctx.provider.id} returned an unexpected response`, {
            provider: ctx.provider.id,
            reason: 'upstream_malformed',
          });
    endUpstreamAttempt(response, { error: failure });
    throw failure;
  }
}
