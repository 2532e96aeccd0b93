// Vendor chat.completion.chunk events → internal StreamEvents: a delta's reasoning text, reasoning records, content,
// tool-call fragments (a call's first fragment starts it) and refusal, in that order. One translator per request; it
// never throws: bad JSON, unknown shapes and in-stream error objects all become one `error` event, after which the
// stream is over. Usage is held back until the stream completes so exactly one usage event is emitted.
import type { SseEvent, StreamTranslator } from '../adapter.js';
import type { NormalizedUsage, StreamErrorCode, StreamEvent } from '../../core/generation.js';
import { readReasoningDetails, readReasoningText, readToolCallDeltas, splitContent } from './convert-content.js';
import { normalizeUsage } from './convert-usage.js';
import { mapEmbeddedError } from './map-error.js';
import { mapFinishReason } from './map-finish-reason.js';
import { isRecord, readArray, readRecord, readString, type JsonRecord } from '../payload-readers.js';

export interface StreamTranslatorOptions {
  /** Named in error messages. */
  providerId?: string;
  /** Clock for Retry-After style computations; injected for tests. */
  now?: () => number;
}

/** The events of one chunk's delta. `started`: indexes of the tool calls already started. */
function eventsOf(raw: JsonRecord | undefined, started: Set<number>, out: StreamEvent[]): void {
  if (!raw) return;
  const { text, reasoning: inlineReasoning } = splitContent(raw.content);
  const reasoning = readReasoningText(raw) ?? inlineReasoning;
  if (reasoning) out.push({ type: 'reasoning-delta', text: reasoning });
  for (const state of readReasoningDetails(raw.reasoning_details) ?? []) out.push({ type: 'reasoning-state', state });
  if (text) out.push({ type: 'text-delta', text });
  for (const fragment of readToolCallDeltas(raw.tool_calls) ?? []) {
    if (!started.has(fragment.index)) {
      started.add(fragment.index);
      const start: StreamEvent = {
        type: 'tool-call-start',
        index: fragment.index,
        id: fragment.id ?? `call_${fragment.index}`,
        name: fragment.name ?? '',
        kind: 'function',
      };
      if (fragment.arguments !== undefined) start.input = fragment.arguments;
      out.push(start);
    } else if (fragment.arguments) {
      out.push({ type: 'tool-call-delta', index: fragment.index, input: fragment.arguments });
    }
  }
  const refusal = readString(raw.refusal);
  if (refusal) out.push({ type: 'refusal-delta', text: refusal });
}

export function createStreamTranslator(options: StreamTranslatorOptions = {}): StreamTranslator {
  const providerId = options.providerId ?? 'upstream';
  const now = options.now ?? Date.now;
  let idSent = false;
  let finished = false; // a finish event went out
  let done = false; // [DONE] seen
  let failed = false; // an error event went out
  let closed = false; // end() ran
  const started = new Set<number>();
  let usage: NormalizedUsage | undefined;

  function fail(code: StreamErrorCode, message: string, out: StreamEvent[] = []): StreamEvent[] {
    failed = true;
    // Usage reported before the failure goes out first: it is what the upstream bills, and a consumer stops at the
    // error event (as the Anthropic and Gemini translators order it).
    flushUsage(out);
    out.push({ type: 'error', code, message });
    return out;
  }

  function flushUsage(out: StreamEvent[]): StreamEvent[] {
    if (usage) out.push({ type: 'usage', usage });
    usage = undefined;
    return out;
  }

  function onChunk(chunk: JsonRecord, isErrorEvent: boolean): StreamEvent[] {
    const out: StreamEvent[] = [];
    const id = readString(chunk.id);
    if (id && !idSent) {
      idSent = true;
      out.push({ type: 'upstream-id', id });
    }
    if (isErrorEvent || (chunk.error !== undefined && chunk.error !== null)) {
      const info = mapEmbeddedError(chunk, providerId, now());
      return fail(info.streamCode, info.message, out);
    }
    const rawUsage = chunk.usage ?? readRecord(chunk.x_groq)?.usage; // Groq once reported usage under x_groq
    const choices = chunk.choices === undefined || chunk.choices === null ? undefined : readArray(chunk.choices);
    if ((chunk.choices !== undefined && chunk.choices !== null && !choices) || (!choices && !isRecord(rawUsage))) {
      return fail('server_error', `Upstream provider ${providerId} sent a stream chunk of unknown shape.`, out);
    }
    const newUsage = normalizeUsage(rawUsage);
    if (newUsage) usage = newUsage; // cumulative reports: the last one wins

    const choice = choices?.find((c) => isRecord(c) && (c.index ?? 0) === 0) ?? choices?.[0];
    if (choice === undefined) return out; // the usage-only chunk (choices: [])
    if (!isRecord(choice)) return fail('server_error', `Upstream provider ${providerId} sent a malformed choice.`, out);

    if (!finished) eventsOf(readRecord(choice.delta), started, out);
    if (isRecord(choice.error)) {
      const info = mapEmbeddedError(choice, providerId, now());
      return fail(info.streamCode, info.message, out);
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '' && !finished) {
      const reason = mapFinishReason(choice.finish_reason, started.size > 0);
      if (reason === 'error')
        return fail('server_error', `Upstream provider ${providerId} reported an error during generation.`, out);
      finished = true;
      out.push({ type: 'finish', finishReason: reason });
    }
    return out;
  }

  return {
    push(event: SseEvent): StreamEvent[] {
      if (done || failed || closed) return [];
      const data = event.data.trim();
      if (data === '[DONE]') {
        done = true;
        const out: StreamEvent[] = [];
        // A vendor that ends cleanly without a finish_reason still finished.
        if (!finished) {
          finished = true;
          out.push({ type: 'finish', finishReason: started.size > 0 ? 'tool_calls' : 'stop' });
        }
        return flushUsage(out);
      }
      if (data === '') return []; // keep-alive
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        return fail('server_error', `Upstream provider ${providerId} sent an unparseable stream event.`);
      }
      if (!isRecord(parsed))
        return fail('server_error', `Upstream provider ${providerId} sent a stream event that is not an object.`);
      return onChunk(parsed, event.event === 'error');
    },
    end(): StreamEvent[] {
      if (closed) return [];
      closed = true;
      const out: StreamEvent[] = [];
      // No [DONE] and no finish: the connection dropped mid-generation. Usage still goes out (before the error):
      // whatever was generated is billed.
      if (!done && !finished && !failed)
        return fail('server_error', `Upstream provider ${providerId} closed the stream before it finished.`, out);
      return flushUsage(out);
    },
  };
}
