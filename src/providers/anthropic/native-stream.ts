// Anthropic's Messages events, read on the native lane: each event goes to the client as Anthropic sent it (event
// line and data), only message_start's `model` set to the gateway's id. The reader meters what Anthropic reports:
// the message id, the cumulative usage of message_start and message_delta (input, output, cache reads and writes
// with their 5m/1h split), the stop reason, and the generated text of the deltas (the stream's progress and the
// key's token rate). An `error` event ends the stream; its message reaches the client without the gateway's keys.
// Web searches are billed from the usage's `server_tool_use.web_search_requests`; a stream cut before its final usage
// bills at least the `web_search` server tool calls it showed. A code execution container (code-execution.ts) is
// billed once the stream showed one, by message_delta's container or a code execution call. message_start's usage says
// what Anthropic served (service_tier, speed, inference_geo: convert-usage.ts), which prices the tokens.
// Unknown event types pass untouched (Anthropic's versioning policy adds new ones).
import type { NormalizedUsage } from '../../core/generation.js';
import type { SseEvent } from '../adapter.js';
import type { NativeAnswerContext, NativeEvent, NativeReading, NativeStreamReader } from '../native/native-protocol.js';
import { readEventJson, sseText } from '../native/native-protocol.js';
import { isRecord, readRecord, readString } from '../payload-readers.js';
import { mergeUsage, normalizeUsage, readUsage, type UsageCounts } from './convert-usage.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapStreamError } from './map-error.js';
import { STATUS_OF_TYPE, readAnthropicError } from './read-error.js';
import { codeExecutionUses, containerOf, isCodeExecutionCall } from './code-execution.js';

/** message_start with the gateway's model id in its Message (as the translated lane names it); ids stay Anthropic's. */
function messageStartWithModel(data: Record<string, unknown>, model: string): Record<string, unknown> {
  const message = readRecord(data.message);
  return message ? { ...data, message: { ...message, model } } : data;
}

const passAs =
  (event: SseEvent): NativeEvent['render'] =>
  () =>
    sseText(event.event, event.data);

function deltaChars(delta: Record<string, unknown> | undefined): number {
  if (!delta) return 0;
  return (
    (readString(delta.text)?.length ?? 0) +
    (readString(delta.thinking)?.length ?? 0) +
    (readString(delta.partial_json)?.length ?? 0)
  );
}

function startChars(block: Record<string, unknown> | undefined): number {
  if (!block) return 0;
  return (
    (readString(block.text)?.length ?? 0) +
    (readString(block.thinking)?.length ?? 0) +
    (readString(block.name)?.length ?? 0)
  );
}

/** Usage of a stream that ended before its final report: the searches it showed count when more than reported. */
function withSearchesSeen(usage: NormalizedUsage | undefined, searches: number): NormalizedUsage | undefined {
  return usage && searches > (usage.webSearchRequests ?? 0) ? { ...usage, webSearchRequests: searches } : usage;
}

/** Usage with the code execution container the stream showed. */
function withContainer(
  usage: NormalizedUsage | undefined,
  toolUses: NormalizedUsage['toolUses'],
): NormalizedUsage | undefined {
  return usage && toolUses ? { ...usage, toolUses } : usage;
}

export function createNativeMessagesReader(ctx: NativeAnswerContext): NativeStreamReader {
  let usage: UsageCounts = {};
  let stopped = false; // message_delta with a stop reason, or message_stop
  let failed = false;
  let sawToolUse = false;
  let searches = 0; // web_search server tool calls shown so far
  let inContainer = false; // a code execution container ran (code-execution.ts)
  const toolUses = () => codeExecutionUses(inContainer, ctx.toolBilling);
  /** Marks the container ran; the reading carries the billed uses the first time. */
  const ranInContainer = (reading: NativeReading) => {
    if (inContainer) return;
    inContainer = true;
    const uses = toolUses();
    if (uses) reading.toolUses = uses;
  };

  const read = (event: SseEvent): NativeEvent => {
    const data = readEventJson(event.data);
    const type = readString(data?.type) ?? event.event;
    if (!data) {
      // Anthropic sends only JSON data; anything else is passed along and otherwise ignored (a proxy's comment).
      return { reading: { generatedChars: 0 }, render: passAs(event) };
    }
    switch (type) {
      case 'message_start': {
        const message = readRecord(data.message);
        const started = readUsage(message?.usage);
        usage = mergeUsage(usage, started);
        const reading: NativeReading = { generatedChars: 0 };
        // Fast mode and US-only inference, said only here: a stream cut before message_delta is billed at them too.
        if (started.served) reading.served = started.served;
        const id = readString(message?.id);
        if (id) reading.upstreamId = id;
        if (containerOf(message)) ranInContainer(reading);
        return {
          reading,
          render: () => sseText(event.event ?? 'message_start', JSON.stringify(messageStartWithModel(data, ctx.model))),
        };
      }
      case 'content_block_start': {
        const block = readRecord(data.content_block);
        if (block?.type === 'tool_use' || block?.type === 'server_tool_use') sawToolUse = true;
        const reading: NativeReading = { generatedChars: startChars(block) };
        if (block?.type === 'server_tool_use' && block.name === 'web_search') reading.webSearches = ++searches;
        if (isCodeExecutionCall(block)) ranInContainer(reading);
        return { reading, render: passAs(event) };
      }
      case 'content_block_delta':
        return { reading: { generatedChars: deltaChars(readRecord(data.delta)) }, render: passAs(event) };
      case 'message_delta': {
        usage = mergeUsage(usage, readUsage(data.usage));
        const delta = readRecord(data.delta);
        const reading: NativeReading = { generatedChars: 0 };
        if (containerOf(delta)) ranInContainer(reading);
        if (delta?.stop_reason !== undefined && delta.stop_reason !== null) {
          stopped = true;
          reading.finish = mapFinishReason(delta.stop_reason, sawToolUse);
          const stopSequence = readString(delta.stop_sequence);
          if (stopSequence !== undefined && delta.stop_reason === 'stop_sequence') reading.stopSequence = stopSequence;
          // message_delta's counts are final (cumulative): the ones to bill.
          const normalized = withContainer(normalizeUsage(usage), toolUses());
          if (normalized) reading.usage = normalized;
        }
        return { reading, render: passAs(event) };
      }
      case 'message_stop':
        stopped = true;
        return { reading: { generatedChars: 0 }, render: passAs(event) };
      case 'error': {
        failed = true;
        const { code, message } = mapStreamError(data, ctx.provider.id);
        const error = readAnthropicError(data);
        const reading: NativeReading = { generatedChars: 0, error: { code, message: ctx.redact(message) }, ends: true };
        // Usage reported before the failure is what Anthropic bills.
        const normalized = withContainer(withSearchesSeen(normalizeUsage(usage), searches), toolUses());
        if (normalized) reading.usage = normalized;
        // The client gets Anthropic's error event, its text cleaned of the gateway's keys.
        const type = error.type && STATUS_OF_TYPE[error.type] ? error.type : 'api_error';
        const inner = readRecord(data.error);
        const text = ctx.redact(readString(inner?.message) ?? message);
        return {
          reading,
          render: () =>
            sseText(
              'error',
              JSON.stringify({ type: 'error', error: { ...(isRecord(inner) ? inner : {}), type, message: text } }),
            ),
        };
      }
      default:
        return { reading: { generatedChars: 0 }, render: passAs(event) };
    }
  };

  return {
    read,
    end(): NativeEvent {
      const reading: NativeReading = { generatedChars: 0 };
      if (!stopped && !failed) {
        // Usage reported so far is what Anthropic bills for a stream cut short.
        const normalized = withContainer(withSearchesSeen(normalizeUsage(usage), searches), toolUses());
        if (normalized) reading.usage = normalized;
        reading.error = {
          code: 'server_error',
          message: `Upstream provider ${ctx.provider.id} closed the stream before it finished.`,
        };
      }
      return { reading, render: () => undefined };
    },
  };
}
