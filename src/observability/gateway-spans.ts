// The gateway's request and attempt spans (gateway-tracer.ts) as exported spans, written on the export thread: the
// names, attributes and statuses of the OpenTelemetry GenAI semantic conventions
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/), from the fields recorded while serving.
import { SpanKind, SpanStatusCode, TraceFlags, type AttributeValue } from '@opentelemetry/api';
import type { NewGeneration } from '../db/tables/generations.js';
import { genAiProviderName } from './gen-ai-provider-name.js';
import type { FinishedSpan } from './recording-tracer.js';

/** What a request span reports of its generation record. */
export type RequestSpanRecord = Pick<
  NewGeneration,
  'model' | 'provider' | 'upstream_model' | 'id' | 'prompt_tokens' | 'completion_tokens' | 'status' | 'finish_reason' | 'error_code'
>;

/** An ended request span, as recorded (RequestTrace) or as it crossed to the export thread (span-wire.ts). */
export interface EndedRequest {
  traceId: string;
  spanId: string;
  traceState: string | undefined;
  parentSpanId: string | undefined;
  parentTraceFlags: number;
  parentIsRemote: boolean;
  startMs: number;
  endMs: number;
  httpStatus: number;
  /** Absent for a request refused before it had one (401, 402, 429...). */
  record: RequestSpanRecord | undefined;
}

/** An ended attempt span, as recorded (AttemptTrace) or as it crossed to the export thread. */
export interface EndedAttempt {
  request: { traceId: string; spanId: string; traceState: string | undefined };
  spanId: string;
  provider: string;
  upstreamModel: string;
  startMs: number;
  endMs: number;
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

/** The SERVER span `chat {model}` of a generation request. */
export function requestSpan(request: EndedRequest): FinishedSpan {
  const { record, httpStatus } = request;
  const attributes: (string | AttributeValue)[] = ['gen_ai.operation.name', 'chat'];
  const failed = record !== undefined && record.status !== 'success';
  if (record) {
    attributes.push(
      'gen_ai.provider.name', genAiProviderName(record.provider),
      'modelgate.provider', record.provider,
      'gen_ai.request.model', record.model,
      'gen_ai.response.model', record.upstream_model,
      'gen_ai.response.id', record.id,
      'gen_ai.usage.input_tokens', record.prompt_tokens ?? 0,
      'gen_ai.usage.output_tokens', record.completion_tokens ?? 0,
      'modelgate.generation.status', record.status,
    );
    if (record.finish_reason) attributes.push('gen_ai.response.finish_reasons', [record.finish_reason]);
    // The record's error is more precise than the HTTP status.
    if (failed) attributes.push('error.type', record.error_code ?? record.status);
  }
  attributes.push('http.response.status_code', httpStatus);
  // A refusal before any upstream call (401, 402, 429...) has no record: the HTTP status is the error type.
  if (httpStatus >= 400 && !failed) attributes.push('error.type', String(httpStatus));
  return {
    name: record ? `chat ${record.model}` : 'chat',
    kind: SpanKind.SERVER,
    traceId: request.traceId,
    spanId: request.spanId,
    traceFlags: TraceFlags.SAMPLED,
    traceState: request.traceState,
    parentSpanId: request.parentSpanId,
    parentTraceFlags: request.parentTraceFlags,
    parentIsRemote: request.parentIsRemote,
    startMs: request.startMs,
    endMs: request.endMs,
    statusCode: failed || httpStatus >= 400 ? SpanStatusCode.ERROR : SpanStatusCode.UNSET,
    statusMessage: undefined,
    attributes,
    events: undefined,
    links: undefined,
  };
}

/** The CLIENT span `chat {upstream model}` of one upstream attempt, child of its request's span. */
export function attemptSpan(attempt: EndedAttempt): FinishedSpan {
  const attributes: (string | AttributeValue)[] = [
    'gen_ai.operation.name', 'chat',
    'gen_ai.provider.name', genAiProviderName(attempt.provider),
    'gen_ai.request.model', attempt.upstreamModel,
    'modelgate.provider', attempt.provider,
  ];
  if (attempt.host !== undefined) attributes.push('server.address', attempt.host, 'server.port', attempt.port!);
  if (attempt.httpStatus !== undefined) attributes.push('http.response.status_code', attempt.httpStatus);
  // Failed before a body (an error status, a timeout...), or ended with the body: how, and what the upstream reported.
  const errorType = attempt.failedAtHead ?? attempt.bodyError;
  if (attempt.failedAtHead !== undefined) {
    attributes.push('error.type', attempt.failedAtHead, 'modelgate.attempt.outcome', attempt.failedAtHead);
  } else {
    if (attempt.upstreamId) attributes.push('gen_ai.response.id', attempt.upstreamId);
    if (attempt.finishReason) attributes.push('gen_ai.response.finish_reasons', [attempt.finishReason]);
    if (attempt.inputTokens !== undefined) attributes.push('gen_ai.usage.input_tokens', attempt.inputTokens, 'gen_ai.usage.output_tokens', attempt.outputTokens ?? 0);
    attributes.push('modelgate.attempt.outcome', attempt.bodyError ?? 'ok');
    if (attempt.bodyError !== undefined) attributes.push('error.type', attempt.bodyError);
  }
  const { request } = attempt;
  return {
    name: `chat ${attempt.upstreamModel}`,
    kind: SpanKind.CLIENT,
    traceId: request.traceId,
    spanId: attempt.spanId,
    traceFlags: TraceFlags.SAMPLED,
    traceState: request.traceState,
    parentSpanId: request.spanId,
    parentTraceFlags: TraceFlags.SAMPLED,
    parentIsRemote: false,
    startMs: attempt.startMs,
    endMs: attempt.endMs,
    statusCode: errorType === undefined ? SpanStatusCode.UNSET : SpanStatusCode.ERROR,
    statusMessage: undefined,
    attributes,
    events: undefined,
    links: undefined,
  };
}
