// Gemini's stream (`streamGenerateContent?alt=sse`), read on the native lane: each chunk goes to the client as Google
// sent it, as one `data:` line (Google's own framing, which the Gen AI SDKs' parser requires), with `modelVersion` and
// `responseId` set to the gateway's model id and generation id as on the translated lane. The reader meters what
// Google reports: the response id, usageMetadata (cumulative: the latest counts), the finish reason (a blocked prompt
// is a content filter), and the generated text and function calls (the stream's progress and the key's token rate),
// and the Google Search requests and Google Maps grounded prompt the candidate's grounding is billed as (grounding.ts),
// added to the usage.
// An error chunk ends the stream; the client reads it as the same error answered over HTTP would read (status and
// message mapped, without the gateway's keys or Google's details).
import type { FinishReason } from '../../core/generation.js';
import type { SseEvent } from '../adapter.js';
import type { NativeAnswerContext, NativeEvent, NativeReading, NativeStreamReader } from '../native/native-protocol.js';
import { readEventJson } from '../native/native-protocol.js';
import { spliceTopLevel } from '../native/top-level-members.js';
import { isRecord, readArray, readRecord, readString, type JsonRecord } from '../payload-readers.js';
import { normalizeGeminiUsage } from './convert-usage.js';
import { mapGeminiEmbeddedError } from './map-error.js';
import { rpcStatusOf } from '../../core/google-rpc-status.js';
import { mapGeminiFinishReason } from './map-finish-reason.js';
import { billedSearches, mapsGrounded, withMapsGrounding, withSearches } from './grounding.js';

/** A response (or chunk) with the gateway's identity in it, the rest of its bytes as Google sent them. */
export function withGatewayIdentity(
  bytes: Uint8Array,
  ctx: Pick<NativeAnswerContext, 'model' | 'generationId'>,
): Buffer {
  return spliceTopLevel(bytes, {
    set: { modelVersion: JSON.stringify(ctx.model), responseId: JSON.stringify(ctx.generationId) },
  });
}

/** What a stream's chunks told so far and the next one needs: function calls (the finish), the latest usage, searches. */
export interface GeminiSeen {
  toolCalls: boolean;
  usage?: NativeReading['usage'];
  /** Billed Google Search requests: grounding may repeat on later chunks, so the most any chunk gave. */
  searches: number;
  /** Grounded with Google Maps (on any chunk so far). */
  maps: boolean;
}

export function newSeen(): GeminiSeen {
  return { toolCalls: false, searches: 0, maps: false };
}

/** The latest usage with what the grounding seen so far is billed. */
function billedUsage(seen: GeminiSeen): NativeReading['usage'] {
  return seen.usage ? withMapsGrounding(withSearches(seen.usage, seen.searches), seen.maps) : undefined;
}

/**
 * What one GenerateContentResponse tells the meter; `seen` carries across a stream's chunks. Its usage is the latest
 * usageMetadata with the searches billed so far (grounding may come on a chunk without usage, after the last one).
 */
export function readResponse(
  chunk: JsonRecord,
  seen: GeminiSeen,
  upstreamModel: string,
): { reading: NativeReading; finished: boolean } {
  const reading: NativeReading = { generatedChars: 0 };
  const id = readString(chunk.responseId);
  if (id) reading.upstreamId = id;
  const candidates = readArray(chunk.candidates) ?? [];
  const candidate = readRecord(candidates.find((c) => isRecord(c) && (c.index ?? 0) === 0) ?? candidates[0]);
  const searches = Math.max(seen.searches, billedSearches(candidate, upstreamModel));
  const usage = normalizeGeminiUsage(chunk.usageMetadata);
  if (usage) seen.usage = usage;
  if (searches > seen.searches) reading.webSearches = seen.searches = searches;
  if (!seen.maps && mapsGrounded(candidate)) {
    seen.maps = true;
    reading.toolUses = { maps_grounding: 1 };
  }
  if (seen.usage && (usage || reading.webSearches !== undefined || reading.toolUses !== undefined))
    reading.usage = billedUsage(seen);
  for (const part of readArray(readRecord(candidate?.content)?.parts) ?? []) {
    if (!isRecord(part)) continue;
    reading.generatedChars += readString(part.text)?.length ?? 0;
    const call = readRecord(part.functionCall);
    if (call) {
      seen.toolCalls = true;
      reading.generatedChars += (readString(call.name)?.length ?? 0) + JSON.stringify(call.args ?? {}).length;
    }
  }
  let finish: FinishReason | undefined;
  const reason = readString(candidate?.finishReason);
  if (reason && reason !== 'FINISH_REASON_UNSPECIFIED') finish = mapGeminiFinishReason(reason, seen.toolCalls);
  else if (readString(readRecord(chunk.promptFeedback)?.blockReason)) finish = 'content_filter';
  if (finish) reading.finish = finish;
  return { reading, finished: finish !== undefined };
}

/** One line: a JSON text's line breaks can only be whitespace between tokens (strings hold them escaped). */
function dataLine(json: Uint8Array): string {
  return `data: ${Buffer.from(json)
    .toString('utf8')
    .replace(/[\r\n]+/g, ' ')}\n\n`;
}

export function createNativeGeminiReader(ctx: NativeAnswerContext): NativeStreamReader {
  const seen = newSeen();
  let finished = false;
  let failed = false;
  const usage = () => billedUsage(seen);

  const read = (event: SseEvent): NativeEvent => {
    const data = readEventJson(event.data);
    // Google sends only JSON chunks; anything else (a proxy's keep-alive) is not passed: the SDKs' parser refuses it.
    if (!data) return { reading: { generatedChars: 0 }, render: () => undefined };
    if (isRecord(data.error)) {
      failed = true;
      const info = mapGeminiEmbeddedError(data, ctx.provider.id);
      const message = ctx.redact(info.message);
      const reading: NativeReading = { generatedChars: 0, error: { code: info.streamCode, message }, ends: true };
      const sofar = usage();
      if (sofar) reading.usage = sofar; // what was generated before the failure is billed
      // Told as the same failure answered before the stream would be (map-error.ts): the mapped status and message,
      // never Google's `details` (the operator's project number, quota names).
      const chunk = { error: { code: info.status, message, status: rpcStatusOf(info.status) } };
      return { reading, render: () => dataLine(Buffer.from(JSON.stringify(chunk))) };
    }
    const { reading, finished: ends } = readResponse(data, seen, ctx.upstreamModel);
    if (ends) finished = true;
    return { reading, render: () => dataLine(withGatewayIdentity(Buffer.from(event.data), ctx)) };
  };

  return {
    read,
    end(): NativeEvent {
      const reading: NativeReading = { generatedChars: 0 };
      // Gemini ends every complete stream with a finishReason; without one the connection dropped.
      if (!finished && !failed) {
        const sofar = usage();
        if (sofar) reading.usage = sofar;
        reading.error = {
          code: 'server_error',
          message: `Upstream provider ${ctx.provider.id} closed the stream before it finished.`,
        };
      }
      return { reading, render: () => undefined };
    },
  };
}
