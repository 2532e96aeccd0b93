// How the gateway's request and attempt spans end: the names, attributes and statuses of the OpenTelemetry GenAI
// semantic conventions (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/), written in one call when
// the span ends, from the fields recorded while serving (gateway-tracer.ts). Never any prompt or completion text.
import { SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import type { ObservedGeneration } from './observed-generation.js';
import { genAiProviderName } from './gen-ai-provider-name.js';

/** What a request span reports of its generation record. */
export type RequestSpanRecord = Pick<
  ObservedGeneration,
  'model' | 'provider' | 'upstream_model' | 'id' | 'prompt_tokens' | 'completion_tokens' | 'status' | 'finish_reason' | 'error_code' | 'cache_hit'
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
export function endRequestSpan(span: Span, httpStatus: number, record: RequestSpanRecord | undefined, operation = 'chat'): void {
  const attributes: Attributes = {};
  const failed = record !== undefined && record.status !== 'success';
  if (record) {
    attributes['gen_ai.provider.name'] = genAiProviderName(record.provider);
    attributes['modelgate.provider'] = record.provider;
    attributes['gen_ai.request.model'] = record.model;
    attributes['gen_ai.response.model'] = record.upstream_model;
    attributes['gen_ai.response.id'] = record.id;
    attributes['gen_ai.usage.input_tokens'] = record.prompt_tokens ?? 0;
    attributes['gen_ai.usage.output_tokens'] = record.completion_tokens ?? 0;
    attributes['modelgate.generation.status'] = record.status;
    if (record.finish_reason) attributes['gen_ai.response.finish_reasons'] = [record.finish_reason];
    // The record's error is more precise than the HTTP status.
    if (failed) attributes['error.type'] = record.error_code ?? record.status;
    // Answered from the response cache: no attempt span follows, and the usage is 0.
    if (record.cache_hit) attributes['modelgate.response_cache'] = 'hit';
    span.updateName(`${operation} ${record.model}`);
  }
  attributes['http.response.status_code'] = httpStatus;
  if (httpStatus >= 400 && !failed) attributes['error.type'] = String(httpStatus);
  span.setAttributes(attributes);
  if (failed || httpStatus >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Ends the CLIENT span `chat {upstream model}` of one upstream attempt (its start attributes are already set). */
export function endAttemptSpan(span: Span, attempt: AttemptSpanReport): void {
  const attributes: Attributes = {};
  if (attempt.host !== undefined) {
    attributes['server.address'] = attempt.host;
    attributes['server.port'] = attempt.port;
  }
  if (attempt.httpStatus !== undefined) attributes['http.response.status_code'] = attempt.httpStatus;
  // Failed before a body (an error status, a timeout...), or ended with the body: how, and what the upstream reported.
  const errorType = attempt.failedAtHead ?? attempt.bodyError;
  if (attempt.failedAtHead === undefined) {
    if (attempt.upstreamId) attributes['gen_ai.response.id'] = attempt.upstreamId;
    if (attempt.finishReason) attributes['gen_ai.response.finish_reasons'] = [attempt.finishReason];
    if (attempt.inputTokens !== undefined) {
      attributes['gen_ai.usage.input_tokens'] = attempt.inputTokens;
      attributes['gen_ai.usage.output_tokens'] = attempt.outputTokens ?? 0;
    }
  }
  attributes['modelgate.attempt.outcome'] = errorType ?? 'ok';
  if (errorType !== undefined) attributes['error.type'] = errorType;
  span.setAttributes(attributes);
  if (errorType !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
