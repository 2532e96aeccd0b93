// How the gateway's request and attempt spans end: the names, attributes and statuses of the OpenTelemetry GenAI
// semantic conventions (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/), written in one call when
// the span ends, from the fields recorded while serving (gateway-tracer.ts). Never any prompt or completion text.
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { ObservedGeneration } from './observed-generation.js';
import { genAiProviderName } from './gen-ai-provider-name.js';

/** What a request span reports of its generation record. */
export type RequestSpanRecord = Pick<
  ObservedGeneration,
  | 'model'
  | 'provider'
  | 'upstream_model'
  | 'id'
  | 'prompt_tokens'
  | 'completion_tokens'
  | 'status'
  | 'finish_reason'
  | 'error_code'
  | 'cache_hit'
>;

/** What an attempt span reports of its exchange with the upstream. */
export interface AttemptSpanReport {
  host: string | undefined;
  port: number | undefined;
  httpStatus: number | undefined;
  failedAtHead: string | undefined;
  bodyError: string | undefined;
  upstreamId: string | undefined;
  finishReason: string | undefined;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/**
 * Ends the SERVER span `chat {model}` of a generation request. `record` is absent for a request refused before it
 * had one (401, 402, 429...): its span keeps the name `chat` and its HTTP status is the error type.
 */
export function endRequestSpan(
  span: Span,
  httpStatus: number,
  record: RequestSpanRecord | undefined,
  operation = 'chat',
): void {
  // One setAttribute per attribute: the SDK's setAttributes(object) walks Object.entries, an array per attribute.
  const failed = record !== undefined && record.status !== 'success';
  if (record) {
    span.setAttribute('gen_ai.provider.name', genAiProviderName(record.provider));
    span.setAttribute('modelgate.provider', record.provider);
    span.setAttribute('gen_ai.request.model', record.model);
    span.setAttribute('gen_ai.response.model', record.upstream_model);
    span.setAttribute('gen_ai.response.id', record.id);
    span.setAttribute('gen_ai.usage.input_tokens', record.prompt_tokens ?? 0);
    span.setAttribute('gen_ai.usage.output_tokens', record.completion_tokens ?? 0);
    span.setAttribute('modelgate.generation.status', record.status);
    if (record.finish_reason) span.setAttribute('gen_ai.response.finish_reasons', [record.finish_reason]);
    // The record's error is more precise than the HTTP status.
    if (failed) span.setAttribute('error.type', record.error_code ?? record.status);
    // Answered from the response cache: no attempt span follows, and the usage is 0.
    if (record.cache_hit) span.setAttribute('modelgate.response_cache', 'hit');
    span.updateName(`${operation} ${record.model}`);
  }
  span.setAttribute('http.response.status_code', httpStatus);
  if (httpStatus >= 400 && !failed) span.setAttribute('error.type', String(httpStatus));
  if (failed || httpStatus >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Ends the CLIENT span `chat {upstream model}` of one upstream attempt (its start attributes are already set). */
export function endAttemptSpan(span: Span, attempt: AttemptSpanReport): void {
  if (attempt.host !== undefined) {
    span.setAttribute('server.address', attempt.host);
    if (attempt.port !== undefined) span.setAttribute('server.port', attempt.port);
  }
  if (attempt.httpStatus !== undefined) span.setAttribute('http.response.status_code', attempt.httpStatus);
  // Failed before a body (an error status, a timeout...), or ended with the body: how, and what the upstream reported.
  const errorType = attempt.failedAtHead ?? attempt.bodyError;
  if (attempt.failedAtHead === undefined) {
    if (attempt.upstreamId) span.setAttribute('gen_ai.response.id', attempt.upstreamId);
    if (attempt.finishReason) span.setAttribute('gen_ai.response.finish_reasons', [attempt.finishReason]);
    if (attempt.inputTokens !== undefined) {
      span.setAttribute('gen_ai.usage.input_tokens', attempt.inputTokens);
      span.setAttribute('gen_ai.usage.output_tokens', attempt.outputTokens ?? 0);
    }
  }
  span.setAttribute('modelgate.attempt.outcome', errorType ?? 'ok');
  if (errorType !== undefined) {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
