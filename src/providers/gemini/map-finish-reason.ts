// Gemini `Candidate.finishReason` → the gateway's five (https://ai.google.dev/api/generate-content#FinishReason).
// Safety-type stops are content filters; stops that mean the model produced something unusable are errors;
// anything else (OTHER, LANGUAGE, unspecified or new values) reads as a plain stop, since the reply did end.
import type { FinishReason } from '../../core/generation.js';

const KNOWN: Readonly<Record<string, FinishReason>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  IMAGE_PROHIBITED_CONTENT: 'content_filter',
  IMAGE_RECITATION: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
  MISSING_THOUGHT_SIGNATURE: 'error',
};

/** `hasToolCalls` turns a plain stop into `tool_calls`: Gemini says STOP when it returns function calls. */
export function mapGeminiFinishReason(value: unknown, hasToolCalls: boolean): FinishReason {
  const mapped = typeof value === 'string' ? (KNOWN[value.toUpperCase()] ?? 'stop') : 'stop';
  return mapped === 'stop' && hasToolCalls ? 'tool_calls' : mapped;
}
