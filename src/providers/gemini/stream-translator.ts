// Gemini `streamGenerateContent?alt=sse` events → internal StreamEvents. Every `data:` is a whole
// GenerateContentResponse holding the next parts: text and thought parts are deltas as they are (a thought's
// signature a record after it), a signed text or call part is preceded by its signature's record, and a functionCall
// arrives complete: a tool call's start with the full arguments; Google Search grounding, once, a web-search event
// (grounding.ts), its billed searches (the most any chunk's grounding gives) added to the usage. usageMetadata is
// cumulative (the last one wins) and goes out once, at the end. One translator per request; it never throws:
// bad JSON, unknown shapes and in-stream error objects become one `error` event, after which it is silent.
import type { SseEvent, StreamTranslator } from '../adapter.js';
import type { NormalizedUsage, StreamErrorCode, StreamEvent } from '../../core/generation.js';
import { isRecord, readArray, readRecord, readString, type JsonRecord } from '../payload-readers.js';
import { normalizeGeminiUsage } from './convert-usage.js';
import { mapGeminiEmbeddedError } from './map-error.js';
import { mapGeminiFinishReason } from './map-finish-reason.js';
import { newCursor, readPart, type ReadPart } from './read-parts.js';
import { billedSearches, groundingSearch, withSearches } from './grounding.js';

export interface GeminiStreamOptions {
  /** Named in error messages. */
  providerId?: string;
  /** Google's name of the model, which decides how grounding is billed (grounding.ts); absent: per search query. */
  upstreamModel?: string;
  now?: () => number;
}

/** Top-level fields of GenerateContentResponse; a chunk with none of them is not one. */
const RESPONSE_FIELDS = ['candidates', 'promptFeedback', 'usageMetadata', 'responseId', 'modelVersion'];

function eventsOf(part: Exclude<ReadPart, { kind: 'skip' | 'invalid' }>, out: StreamEvent[]): void {
  if (part.kind === 'thought') {
    if (part.text !== '') out.push({ type: 'reasoning-delta', text: part.text });
    if (part.record) out.push({ type: 'reasoning-state', state: part.record });
    return;
  }
  if (part.record) out.push({ type: 'reasoning-state', state: part.record });
  if (part.kind === 'text') {
    if (part.text !== '') out.push({ type: 'text-delta', text: part.text });
    return;
  }
  const { id, name, input } = part.call;
  out.push({ type: 'tool-call-start', index: part.index, id, name, kind: 'function', input });
}

export function createGeminiStreamTranslator(options: GeminiStreamOptions = {}): StreamTranslator {
  const providerId = options.providerId ?? 'google';
  const now = options.now ?? Date.now;
  const cursor = newCursor();
  let idSent = false;
  let finished = false;
  let failed = false;
  let closed = false;
  let searched = false;
  /** Billed Google Search requests: grounding metadata may repeat on later chunks, so the most any chunk gives. */
  let searches = 0;
  let usage: NormalizedUsage | undefined;

  /** Usage known so far goes out before the error: the pipeline stops reading at an error, and what was generated is billed. */
  function fail(code: StreamErrorCode, message: string, out: StreamEvent[] = []): StreamEvent[] {
    failed = true;
    if (usage) out.push({ type: 'usage', usage: withSearches(usage, searches) });
    usage = undefined;
    out.push({ type: 'error', code, message });
    return out;
  }

  function finish(out: StreamEvent[], rawReason: unknown, finishMessage: string | undefined): StreamEvent[] {
    const reason = mapGeminiFinishReason(rawReason, cursor.toolCalls > 0);
    if (reason === 'error') {
      const detail = finishMessage ? `: ${finishMessage}` : '';
      return fail(
        'server_error',
        `Upstream provider ${providerId} stopped generation (${String(rawReason)})${detail}`,
        out,
      );
    }
    finished = true;
    out.push({ type: 'finish', finishReason: reason });
    return out;
  }

  function onChunk(chunk: JsonRecord): StreamEvent[] {
    const out: StreamEvent[] = [];
    if (isRecord(chunk.error)) {
      const info = mapGeminiEmbeddedError(chunk, providerId, now());
      return fail(info.streamCode, info.message, out);
    }
    if (!RESPONSE_FIELDS.some((field) => chunk[field] !== undefined)) {
      return fail('server_error', `Upstream provider ${providerId} sent a stream chunk of unknown shape.`, out);
    }
    const responseId = readString(chunk.responseId);
    if (responseId && !idSent) {
      idSent = true;
      cursor.responseId = responseId;
      out.push({ type: 'upstream-id', id: responseId });
    }
    const newUsage = normalizeGeminiUsage(chunk.usageMetadata);
    if (newUsage) usage = newUsage;
    if (finished) {
      // Only usage may still change after the finish, and the searches it bills if grounding comes on a late chunk.
      const late = (readArray(chunk.candidates) ?? []).find((c) => isRecord(c) && (c.index ?? 0) === 0);
      if (isRecord(late)) searches = Math.max(searches, billedSearches(late, options.upstreamModel ?? ''));
      return out;
    }

    const blockReason = readString(readRecord(chunk.promptFeedback)?.blockReason);
    if (blockReason) return finish(out, 'PROHIBITED_CONTENT', undefined);

    const candidates = chunk.candidates === undefined ? [] : readArray(chunk.candidates);
    if (!candidates)
      return fail('server_error', `Upstream provider ${providerId} sent candidates that are not a list.`, out);
    const candidate = candidates.find((c) => isRecord(c) && (c.index ?? 0) === 0) ?? candidates[0];
    if (candidate === undefined) return out;
    if (!isRecord(candidate))
      return fail('server_error', `Upstream provider ${providerId} sent a malformed candidate.`, out);

    for (const raw of readArray(readRecord(candidate.content)?.parts) ?? []) {
      const part = readPart(raw, cursor);
      if (part.kind === 'invalid')
        return fail('server_error', `Upstream provider ${providerId} sent a malformed part: ${part.reason}.`, out);
      if (part.kind === 'skip') continue;
      eventsOf(part, out);
    }
    searches = Math.max(searches, billedSearches(candidate, options.upstreamModel ?? ''));
    const search = searched ? undefined : groundingSearch(candidate, cursor.responseId);
    if (search) {
      searched = true;
      out.push({ type: 'web-search', search });
    }
    const reason = readString(candidate.finishReason);
    if (reason && reason !== 'FINISH_REASON_UNSPECIFIED')
      return finish(out, reason, readString(candidate.finishMessage));
    return out;
  }

  return {
    push(event: SseEvent): StreamEvent[] {
      if (failed || closed) return [];
      const data = event.data.trim();
      if (data === '' || data === '[DONE]') return []; // keep-alive; Gemini sends no [DONE], proxies might
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        return fail('server_error', `Upstream provider ${providerId} sent an unparseable stream event.`);
      }
      // Without alt=sse Gemini wraps errors in an array; accept that shape too.
      const chunk = Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : parsed;
      if (!isRecord(chunk))
        return fail('server_error', `Upstream provider ${providerId} sent a stream event that is not an object.`);
      return onChunk(chunk);
    },
    end(): StreamEvent[] {
      if (closed) return [];
      closed = true;
      const out: StreamEvent[] = [];
      // Gemini ends every complete stream with a finishReason; without one the connection dropped.
      if (!finished && !failed)
        return fail('server_error', `Upstream provider ${providerId} closed the stream before it finished.`, out);
      if (usage) out.push({ type: 'usage', usage: withSearches(usage, searches) });
      usage = undefined;
      return out;
    },
  };
}
