// A chat-completions answer read on the native lane. Every chunk goes to the client as the vendor sent it, unknown
// fields included, with what the door's contract (the spec's Completion chunk) promises:
// - `id` the generation id and `model` the gateway's model id in every chunk (and `provider`, as on the translated
//   lane); the usage in the door's terms (prompt_tokens_details.cached_tokens, completion_tokens_details.
//   reasoning_tokens, completion tokens with reasoning: vendors differ, e.g. DeepSeek's prompt_cache_hit_tokens), the
//   vendor's other fields kept, and `cost` (USD, with `cost_details`);
// - reasoning as `reasoning` (DeepSeek and xAI call it `reasoning_content`);
// - the last content chunk carries finish_reason and usage: the vendor's finish chunk waits for its usage chunk
//   (OpenAI sends them apart, the usage one with no choices) and leaves with it, as one chunk; a vendor that reports
//   no usage gets the gateway's count there, as the translated lane does;
// - the stream ends with `[DONE]`.
// The reader meters the vendor's own report: the first id, the usage (prompt_tokens_details.cached_tokens,
// completion_tokens_details.reasoning_tokens), the finish reason, the generated text of the deltas, and the
// processing tier OpenAI served (`service_tier` of the completion or of each chunk: core/served-options.ts). An error
// the vendor reports inside the stream ends it with the door's own error chunk (rendered by the door).
import { nanosToUsd } from '../../core/money.js';
import type { GenerationTotals } from '../../core/stream-renderer.js';
import type { SseEvent } from '../adapter.js';
import type {
  NativeAnswerContext,
  NativeEvent,
  NativeJsonAnswer,
  NativeReading,
  NativeStreamReader,
} from '../native/native-protocol.js';
import { readEventJson, sseText } from '../native/native-protocol.js';
import { isRecord, readArray, readRecord, readString, type JsonRecord } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';
import { normalizeUsage } from './convert-usage.js';
import { mapEmbeddedError } from './map-error.js';
import { mapFinishReason } from './map-finish-reason.js';
import { servedOptionsOf } from '../../core/served-options.js';

/** Characters generated in a delta or message: text, reasoning (under any vendor's name), refusal, tool calls. */
function generatedChars(part: JsonRecord | undefined): number {
  if (!part) return 0;
  let chars =
    (readString(part.content)?.length ?? 0) +
    (readString(part.reasoning)?.length ?? 0) +
    (readString(part.reasoning_content)?.length ?? 0) +
    (readString(part.refusal)?.length ?? 0);
  for (const call of readArray(part.tool_calls) ?? []) {
    const fn = isRecord(call) ? readRecord(call.function) : undefined;
    chars += (readString(fn?.arguments)?.length ?? 0) + (readString(fn?.name)?.length ?? 0);
  }
  return chars;
}

function rawUsage(object: JsonRecord): unknown {
  return object.usage ?? readRecord(object.x_groq)?.usage; // Groq once reported usage under x_groq
}

/** `reasoning_content` (DeepSeek, xAI) under the door's name, `reasoning`, in a delta or message. */
function renameReasoning(part: JsonRecord | undefined): void {
  if (!part || typeof part.reasoning_content !== 'string') return;
  if (typeof part.reasoning !== 'string') part.reasoning = part.reasoning_content;
  delete part.reasoning_content;
}

/** The gateway's count, in the chat usage shape, for a vendor that reported none. */
function gatewayUsage({ usage }: GenerationTotals): JsonRecord {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, cache_write_tokens: usage.cacheWriteTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

/** The object with the contract's identity and, where it carries usage, the cost. */
function withContract(object: JsonRecord, ctx: NativeAnswerContext, totals: () => GenerationTotals): JsonRecord {
  object.id = ctx.generationId;
  object.model = ctx.model;
  object.provider = ctx.provider.id;
  for (const choice of readArray(object.choices) ?? []) {
    if (isRecord(choice)) {
      renameReasoning(readRecord(choice.delta));
      renameReasoning(readRecord(choice.message));
    }
  }
  if (isRecord(object.usage)) object.usage = contractUsage(object.usage, totals());
  return object;
}

/** The vendor's usage with the door's counts (what the gateway metered and bills) and the cost. */
function contractUsage(vendor: JsonRecord, totals: GenerationTotals): JsonRecord {
  const counts = gatewayUsage(totals);
  const { costNanos, accessMode } = totals;
  return {
    ...vendor,
    ...counts,
    prompt_tokens_details: { ...readRecord(vendor.prompt_tokens_details), ...readRecord(counts.prompt_tokens_details) },
    completion_tokens_details: {
      ...readRecord(vendor.completion_tokens_details),
      ...readRecord(counts.completion_tokens_details),
    },
    cost: nanosToUsd(costNanos),
    // Pass (subscription) requests report their reference value, which is measured against quotas, never charged.
    cost_details: { access_mode: accessMode, charged: accessMode === 'credits' && costNanos > 0n },
  };
}

function embeddedError(payload: JsonRecord, ctx: NativeAnswerContext): NonNullable<NativeReading['error']> {
  const info = mapEmbeddedError(payload, ctx.provider.id);
  return { code: info.streamCode, message: ctx.redact(info.message) };
}

export function readChatJson(bytes: Buffer, ctx: NativeAnswerContext): NativeJsonAnswer {
  const body = UpstreamPayloadError.parseJson(bytes.toString('utf8'));
  if (!isRecord(body)) throw UpstreamPayloadError.malformed('the completion is not a JSON object');
  if (body.error !== undefined && body.error !== null) {
    const info = mapEmbeddedError(body, ctx.provider.id);
    throw new UpstreamPayloadError({ ...info, message: ctx.redact(info.message) });
  }
  const choice = readRecord(readArray(body.choices)?.[0]);
  if (!choice) throw UpstreamPayloadError.malformed('the completion has no choices');
  const message = readRecord(choice.message);
  const reading: NativeReading = {
    generatedChars: generatedChars(message),
    finish: mapFinishReason(choice.finish_reason, (readArray(message?.tool_calls)?.length ?? 0) > 0),
  };
  const id = readString(body.id);
  if (id) reading.upstreamId = id;
  const usage = normalizeUsage(rawUsage(body));
  const served = servedOptionsOf(body, ['service_tier']);
  if (usage) reading.usage = served ? { ...usage, served } : usage;
  if (served) reading.served = served;
  return {
    reading,
    render: (totals) => {
      if (!isRecord(body.usage)) body.usage = {};
      return Buffer.from(JSON.stringify(withContract(body, ctx, () => totals)));
    },
  };
}

export function createNativeChatReader(ctx: NativeAnswerContext): NativeStreamReader {
  let idSeen = false;
  let finished = false;
  let done = false;
  let failed = false;
  let sawToolCalls = false;
  /** The finish chunk, waiting for the usage chunk to leave with it. */
  let held: JsonRecord | undefined;

  /** The held finish chunk, with the usage given (or the gateway's count): the last content chunk. */
  const release = (totals: () => GenerationTotals, usage?: unknown): string => {
    const chunk = held!;
    held = undefined;
    chunk.usage = isRecord(usage) ? usage : {};
    return sseText(undefined, JSON.stringify(withContract(chunk, ctx, totals)));
  };

  const fail = (reading: NativeReading, error: NonNullable<NativeReading['error']>): NativeEvent => {
    failed = true;
    return { reading: { ...reading, error, ends: true }, render: () => undefined };
  };

  const read = (event: SseEvent): NativeEvent => {
    const data = event.data.trim();
    if (data === '[DONE]') {
      done = true;
      const reading: NativeReading = { generatedChars: 0 };
      // A vendor that ends cleanly without a finish_reason still finished.
      if (!finished) {
        finished = true;
        reading.finish = sawToolCalls ? 'tool_calls' : 'stop';
      }
      return { reading, render: (totals) => `${held ? release(totals) : ''}data: [DONE]\n\n` };
    }
    if (data === '') return { reading: { generatedChars: 0 }, render: () => undefined };
    const chunk = readEventJson(data);
    if (!chunk)
      return fail(
        { generatedChars: 0 },
        { code: 'server_error', message: `Upstream provider ${ctx.provider.id} sent an unparseable stream event.` },
      );
    const reading: NativeReading = { generatedChars: 0 };
    const id = readString(chunk.id);
    if (id && !idSeen) {
      idSeen = true;
      reading.upstreamId = id;
    }
    const usage = normalizeUsage(rawUsage(chunk));
    if (usage) reading.usage = usage;
    const served = servedOptionsOf(chunk, ['service_tier']);
    if (served) reading.served = served;
    if (event.event === 'error' || (chunk.error !== undefined && chunk.error !== null))
      return fail(reading, embeddedError(chunk, ctx));
    const choices = readArray(chunk.choices);
    const choice = choices?.find((c) => isRecord(c) && (c.index ?? 0) === 0);
    let finishes = false;
    if (isRecord(choice)) {
      const delta = readRecord(choice.delta);
      if (readArray(delta?.tool_calls)?.length) sawToolCalls = true;
      reading.generatedChars = generatedChars(delta);
      if (isRecord(choice.error)) return fail(reading, embeddedError(choice, ctx));
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '' && !finished) {
        const finish = mapFinishReason(choice.finish_reason, sawToolCalls);
        if (finish === 'error')
          return fail(reading, {
            code: 'server_error',
            message: `Upstream provider ${ctx.provider.id} reported an error during generation.`,
          });
        finished = true;
        finishes = true;
        reading.finish = finish;
      }
    }
    return {
      reading,
      render: (totals) => {
        // The usage chunk (no choices) joins the held finish chunk.
        if (held && (choices === undefined || choices.length === 0) && isRecord(chunk.usage))
          return release(totals, chunk.usage);
        const before = held ? release(totals) : '';
        if (finishes && !isRecord(chunk.usage)) {
          held = chunk;
          return before === '' ? undefined : before;
        }
        return `${before}${sseText(undefined, JSON.stringify(withContract(chunk, ctx, totals)))}`;
      },
    };
  };

  return {
    read,
    end(): NativeEvent {
      if (!done && !finished && !failed) {
        return fail(
          { generatedChars: 0 },
          {
            code: 'server_error',
            message: `Upstream provider ${ctx.provider.id} closed the stream before it finished.`,
          },
        );
      }
      // The door's stream ends with [DONE]; a vendor that finished without it gets it added.
      return {
        reading: { generatedChars: 0 },
        render: (totals) => (done || failed ? undefined : `${held ? release(totals) : ''}data: [DONE]\n\n`),
      };
    },
  };
}
