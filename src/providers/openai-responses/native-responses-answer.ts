// An OpenAI Responses answer read on the native lane: every event goes to the client as OpenAI sent it (Codex reads
// them by their `type`, and needs `response.completed`), ids and all; the Response object that response.* lifecycle
// events carry names the gateway's model id and, with its usage, the cost (USD, `cost_details`), as on the
// translated lane. The meter reads OpenAI's own report: the response id, usage from response.completed (or
// .incomplete / .failed: input_tokens_details.cached_tokens, output_tokens_details.reasoning_tokens), the finish the
// status gives, and the generated text of the `*.delta` events (or of whole output items that came without deltas).
// Hosted web search calls, billed per call, are counted from the `web_search_call` items (responses-usage.ts), file
// search calls and code interpreter containers from theirs (hosted-tool-calls.ts). The processing tier OpenAI served
// (`service_tier` of the final Response: `priority`, `flex`) prices the tokens (core/served-options.ts).
import { nanosToUsd } from '../../core/money.js';
import type { FinishReason, StreamErrorCode } from '../../core/generation.js';
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
import { responsesUsage, webSearchCalls } from './responses-usage.js';
import { HostedToolCalls } from './hosted-tool-calls.js';
import { servedOptionsOf } from '../../core/served-options.js';

const TOOL_CALL_ITEMS = new Set(['function_call', 'custom_tool_call', 'mcp_call', 'local_shell_call', 'computer_call']);
const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed', 'response.cancelled']);

/** The finish a Response's status gives. */
export function finishOfResponse(response: JsonRecord): FinishReason {
  switch (response.status) {
    case 'incomplete':
      return readRecord(response.incomplete_details)?.reason === 'content_filter' ? 'content_filter' : 'length';
    case 'failed':
    case 'cancelled':
      return 'error';
    default:
      return readArray(response.output)?.some((item) => isRecord(item) && TOOL_CALL_ITEMS.has(String(item.type)))
        ? 'tool_calls'
        : 'stop';
  }
}

function streamCode(code: unknown): StreamErrorCode {
  switch (code) {
    case 'context_length_exceeded':
      return 'context_length_exceeded';
    case 'rate_limit_exceeded':
      return 'rate_limit';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'server_error';
  }
}

/** Characters of generated output in one output item (text, refusal, reasoning summary, tool input). */
export function itemChars(item: unknown): number {
  if (!isRecord(item)) return 0;
  let chars =
    (readString(item.arguments)?.length ?? 0) +
    (readString(item.input)?.length ?? 0) +
    (readString(item.name)?.length ?? 0);
  for (const part of [...(readArray(item.content) ?? []), ...(readArray(item.summary) ?? [])]) {
    if (isRecord(part)) chars += (readString(part.text)?.length ?? 0) + (readString(part.refusal)?.length ?? 0);
  }
  return chars;
}

/**
 * The Response object as the door shows it: the gateway's model id, and the cost beside the usage; a kept answer (a
 * stored response) goes by the generation id, the id it is kept under, with the keeping's fields.
 */
function withContract(response: JsonRecord, ctx: NativeAnswerContext, totals: () => GenerationTotals): JsonRecord {
  response.model = ctx.model;
  if (ctx.keeping) Object.assign(response, { id: ctx.generationId }, ctx.keeping.fields);
  if (isRecord(response.usage)) {
    const { costNanos, accessMode } = totals();
    // Pass (subscription) requests report their reference value, which is measured against quotas, never charged.
    response.usage = {
      ...response.usage,
      cost: nanosToUsd(costNanos),
      cost_details: { access_mode: accessMode, charged: accessMode === 'credits' && costNanos > 0n },
    };
  }
  return response;
}

/**
 * What a whole Response object (a JSON answer, or a terminal event's) tells the meter; `shown`: what a stream showed
 * before it (the web search calls' ids, the other hosted tools' calls).
 */
function readResponse(
  response: JsonRecord,
  ctx: NativeAnswerContext,
  reading: NativeReading,
  shown: { searchIds?: ReadonlySet<string>; tools?: HostedToolCalls } = {},
): NativeReading {
  const { searchIds, tools = new HostedToolCalls(ctx.toolBilling) } = shown;
  const id = readString(response.id);
  if (id) reading.upstreamId = id;
  const usage = responsesUsage(response.usage);
  const searches = webSearchCalls(response.output, searchIds);
  for (const item of readArray(response.output) ?? []) tools.observe(item);
  const toolUses = tools.uses();
  if (toolUses) reading.toolUses = toolUses;
  const served = servedOptionsOf(response, ['service_tier']);
  if (served) reading.served = served;
  if (usage) {
    reading.usage = searches > 0 ? { ...usage, webSearchRequests: searches } : usage;
    if (toolUses) reading.usage.toolUses = toolUses;
    if (served) reading.usage.served = served;
  }
  reading.finish = finishOfResponse(response);
  if (reading.finish === 'error') {
    const error = readRecord(response.error);
    reading.error = {
      code: streamCode(error?.code),
      message: ctx.redact(
        readString(error?.message) ??
          `Upstream provider ${ctx.provider.id} reported the response as ${String(response.status)}.`,
      ),
    };
    if (error && typeof error.message === 'string') error.message = reading.error.message;
  }
  return reading;
}

export function readResponsesJson(bytes: Buffer, ctx: NativeAnswerContext): NativeJsonAnswer {
  const body = UpstreamPayloadError.parseJson(bytes.toString('utf8'));
  if (!isRecord(body) || (body.object !== undefined && body.object !== 'response'))
    throw UpstreamPayloadError.malformed('the answer is not a Response object');
  const reading = readResponse(body, ctx, {
    generatedChars: (readArray(body.output) ?? []).reduce((n: number, item) => n + itemChars(item), 0),
  });
  if (reading.error)
    throw new UpstreamPayloadError({ status: 502, message: reading.error.message, streamCode: reading.error.code });
  return {
    reading,
    render: (totals) => {
      const shown = withContract(body, ctx, () => totals);
      ctx.keeping?.final(shown);
      return Buffer.from(JSON.stringify(shown));
    },
  };
}

export function createNativeResponsesReader(ctx: NativeAnswerContext): NativeStreamReader {
  let terminal = false;
  let failed = false;
  let responseId: string | undefined;
  /** Output items whose text came as deltas: their whole item is not counted again when it is done. */
  const streamedItems = new Set<string>();
  /** The web search calls shown so far, by item id (a call without one is counted from the final Response). */
  const searchIds = new Set<string>();
  /** The other hosted tools' calls shown so far (likewise). */
  const tools = new HostedToolCalls(ctx.toolBilling);

  const read = (event: SseEvent): NativeEvent => {
    const data = readEventJson(event.data);
    const pass = () => sseText(event.event, event.data);
    if (!data) return { reading: { generatedChars: 0 }, render: pass };
    const type = readString(data.type) ?? event.event ?? '';
    const response = readRecord(data.response);
    if (response) {
      const reading: NativeReading = { generatedChars: 0 };
      responseId ??= readString(response.id);
      if (responseId) reading.upstreamId = responseId;
      if (TERMINAL.has(type)) {
        terminal = true;
        readResponse(response, ctx, reading, { searchIds, tools });
        if (reading.error) {
          failed = true;
          reading.ends = true;
        }
      }
      return {
        reading,
        render: (totals) => {
          const shown = withContract(response, ctx, totals);
          if (TERMINAL.has(type)) ctx.keeping?.final(shown);
          return sseText(event.event, JSON.stringify({ ...data, response: shown }));
        },
      };
    }
    if (type === 'error') {
      // OpenAI follows it with response.failed, which ends the stream; the event itself passes, its text cleaned.
      const message = ctx.redact(readString(data.message) ?? `Upstream provider ${ctx.provider.id} reported an error.`);
      return {
        reading: { generatedChars: 0, error: { code: streamCode(data.code), message } },
        render: () => sseText(event.event, JSON.stringify({ ...data, message })),
      };
    }
    if (type.endsWith('.delta') && typeof data.delta === 'string') {
      const itemId = readString(data.item_id);
      if (itemId) streamedItems.add(itemId);
      return { reading: { generatedChars: data.delta.length }, render: pass };
    }
    if (type === 'response.output_item.done' || type === 'response.output_item.added') {
      const item = readRecord(data.item);
      const id = readString(item?.id);
      const done = type === 'response.output_item.done';
      const reading: NativeReading = { generatedChars: done && !(id && streamedItems.has(id)) ? itemChars(item) : 0 };
      if (done && item?.type === 'web_search_call' && id) {
        searchIds.add(id);
        reading.webSearches = searchIds.size;
      }
      // A container is created when its first call starts: counted from the item's start; a file search once done.
      if ((done || item?.type === 'code_interpreter_call') && tools.observe(item, false))
        reading.toolUses = tools.uses();
      return { reading, render: pass };
    }
    return { reading: { generatedChars: 0 }, render: pass };
  };

  return {
    read,
    end(): NativeEvent {
      if (terminal || failed) return { reading: { generatedChars: 0 }, render: () => undefined };
      return {
        reading: {
          generatedChars: 0,
          error: {
            code: 'server_error',
            message: `Upstream provider ${ctx.provider.id} closed the stream before response.completed.`,
          },
        },
        render: () => undefined,
      };
    },
  };
}
