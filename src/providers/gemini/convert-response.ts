// A Gemini GenerateContentResponse → AdapterCompletion. The gateway returns one choice, so only
// candidates[0] is read. A prompt blocked before generation has no candidates and a
// `promptFeedback.blockReason`: that is a content_filter finish, not a failure. An error object in place of a
// response, or a body that cannot be one, raises UpstreamPayloadError.
import type { ReasoningDetail, ToolCall } from '../../core/chat-types.js';
import type { AdapterCompletion } from '../../core/generation.js';
import { isRecord, readArray, readRecord, readString } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';
import { normalizeGeminiUsage } from './convert-usage.js';
import { mapGeminiEmbeddedError } from './map-error.js';
import { mapGeminiFinishReason } from './map-finish-reason.js';
import { newCursor, readPart } from './read-parts.js';


export function parseGeminiCompletion(body: unknown, providerId = 'google'): AdapterCompletion {
  const payload = UpstreamPayloadError.parseJson(body);
  if (!isRecord(payload)) throw UpstreamPayloadError.malformed('body is not an object');
  if (isRecord(payload.error)) throw new UpstreamPayloadError(mapGeminiEmbeddedError(payload, providerId));

  const candidates = readArray(payload.candidates) ?? [];
  const candidate = readRecord(candidates.find((c) => isRecord(c) && (c.index ?? 0) === 0) ?? candidates[0]);
  const blockReason = readString(readRecord(payload.promptFeedback)?.blockReason);
  if (!candidate && !blockReason) throw UpstreamPayloadError.malformed('no candidates and no promptFeedback');

  const cursor = newCursor();
  cursor.responseId = readString(payload.responseId);
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  const details: ReasoningDetail[] = [];
  // A candidate stopped by a safety filter or by MAX_TOKENS during thinking may come without content.
  const parts = readArray(readRecord(candidate?.content)?.parts) ?? [];
  for (const raw of parts) {
    const part = readPart(raw, cursor);
    if (part.kind === 'invalid') throw UpstreamPayloadError.malformed(part.reason);
    if (part.kind === 'skip') continue;
    if (part.detail) details.push(part.detail);
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'thought') reasoning += part.text;
    else toolCalls.push(part.call);
  }

  const completion: AdapterCompletion = {
    content: text === '' ? null : text,
    finishReason: candidate ? mapGeminiFinishReason(candidate.finishReason, toolCalls.length > 0) : 'content_filter',
  };
  if (cursor.responseId) completion.upstreamId = cursor.responseId;
  if (reasoning !== '') completion.reasoning = reasoning;
  if (details.length > 0) completion.reasoningDetails = details;
  if (toolCalls.length > 0) completion.toolCalls = toolCalls;
  const usage = normalizeGeminiUsage(payload.usageMetadata);
  if (usage) completion.usage = usage;
  return completion;
}
