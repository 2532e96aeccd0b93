// A Gemini GenerateContentResponse → GenerationResult, part by part in Gemini's order. The gateway returns one
// choice, so only candidates[0] is read. A prompt blocked before generation has no candidates and a
// `promptFeedback.blockReason`: that is a content_filter finish, not a failure. An error object in place of a
// response, or a body that cannot be one, raises UpstreamPayloadError.
import type { GenerationResult, OutputBlock } from '../../core/generation.js';
import { isRecord, readArray, readRecord, readString } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';
import { normalizeGeminiUsage } from './convert-usage.js';
import { mapGeminiEmbeddedError } from './map-error.js';
import { mapGeminiFinishReason } from './map-finish-reason.js';
import { newCursor, readPart } from './read-parts.js';
import { billedSearches, groundingSearch, withSearches } from './grounding.js';

/** `upstreamModel`: Google's name of the model, which decides how grounding is billed (grounding.ts). */
export function parseGeminiCompletion(body: unknown, providerId = 'google', upstreamModel = ''): GenerationResult {
  const payload = UpstreamPayloadError.parseJson(body);
  if (!isRecord(payload)) throw UpstreamPayloadError.malformed('body is not an object');
  if (isRecord(payload.error)) throw new UpstreamPayloadError(mapGeminiEmbeddedError(payload, providerId));

  const candidates = readArray(payload.candidates) ?? [];
  const candidate = readRecord(candidates.find((c) => isRecord(c) && (c.index ?? 0) === 0) ?? candidates[0]);
  const blockReason = readString(readRecord(payload.promptFeedback)?.blockReason);
  if (!candidate && !blockReason) throw UpstreamPayloadError.malformed('no candidates and no promptFeedback');

  const cursor = newCursor();
  cursor.responseId = readString(payload.responseId);
  const output: OutputBlock[] = [];
  // A candidate stopped by a safety filter or by MAX_TOKENS during thinking may come without content.
  const parts = readArray(readRecord(candidate?.content)?.parts) ?? [];
  for (const raw of parts) {
    const part = readPart(raw, cursor);
    if (part.kind === 'invalid') throw UpstreamPayloadError.malformed(part.reason);
    if (part.kind === 'skip') continue;
    // A signed thought is one record (text and signature); a signed text or call part is preceded by its signature.
    if (part.kind === 'thought')
      output.push(part.record ? { type: 'reasoning', ...part.record } : { type: 'reasoning', text: part.text });
    else {
      if (part.record) output.push({ type: 'reasoning', ...part.record });
      if (part.kind === 'text') {
        if (part.text !== '') output.push({ type: 'text', text: part.text });
      } else output.push(part.call);
    }
  }

  const search = candidate ? groundingSearch(candidate, cursor.responseId) : undefined;
  if (search) output.push({ type: 'web_search', ...search });

  const result: GenerationResult = {
    output,
    finishReason: candidate ? mapGeminiFinishReason(candidate.finishReason, cursor.toolCalls > 0) : 'content_filter',
  };
  if (cursor.responseId) result.upstreamId = cursor.responseId;
  const usage = normalizeGeminiUsage(payload.usageMetadata);
  if (usage) result.usage = withSearches(usage, billedSearches(candidate, upstreamModel));
  return result;
}
