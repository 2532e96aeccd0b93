// A non-streamed Anthropic Message → AdapterCompletion. The body is untrusted: anything that cannot be
// a Message raises UpstreamPayloadError (the pipeline answers 502). Block types the gateway format cannot
// carry (server tool results, citations' extras) are skipped; the reply's text and tool calls still count.
import type { ReasoningDetail, ToolCall } from '../../core/chat-types.js';
import type { AdapterCompletion } from '../../core/generation.js';
import { isRecord, readArray, readRecord, readString, type JsonRecord } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';
import { normalizeUsage, readUsage } from './convert-usage.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapError } from './map-error.js';
import { STATUS_OF_TYPE, readAnthropicError } from './read-error.js';
import { redactedDetail, thinkingDetail } from './reasoning-blocks.js';


function toolCallOf(block: JsonRecord, position: number): ToolCall {
  const id = readString(block.id);
  const name = readString(block.name);
  if (!id || !name) throw UpstreamPayloadError.malformed(`tool_use block ${position} has no id or name`);
  // `input` is always an object at Anthropic; the gateway format carries it as a JSON string.
  const input = readRecord(block.input) ?? {};
  return { id, type: 'function', function: { name, arguments: JSON.stringify(input) } };
}

export function parseCompletion(body: unknown, providerId = 'anthropic'): AdapterCompletion {
  const payload = UpstreamPayloadError.parseJson(body);
  if (!isRecord(payload)) throw UpstreamPayloadError.malformed('body is not an object');
  if (payload.type === 'error') {
    const type = readAnthropicError(payload).type;
    throw new UpstreamPayloadError(mapError((type && STATUS_OF_TYPE[type]) || 500, payload, {}, providerId));
  }
  const content = readArray(payload.content);
  if (!content) throw UpstreamPayloadError.malformed('message has no content array');

  let text = '';
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  content.forEach((block, position) => {
    if (!isRecord(block)) throw UpstreamPayloadError.malformed(`content block ${position} is not an object`);
    switch (block.type) {
      case 'text':
        text += readString(block.text) ?? '';
        break;
      case 'thinking': {
        const thinking = readString(block.thinking) ?? '';
        reasoning += thinking;
        details.push(thinkingDetail(thinking, readString(block.signature), details.length));
        break;
      }
      case 'redacted_thinking': {
        const data = readString(block.data);
        if (data) details.push(redactedDetail(data, details.length));
        break;
      }
      case 'tool_use':
        toolCalls.push(toolCallOf(block, position));
        break;
      default:
        break;
    }
  });

  const completion: AdapterCompletion = {
    content: text === '' ? null : text,
    finishReason: mapFinishReason(payload.stop_reason, toolCalls.length > 0),
  };
  const stopSequence = readString(payload.stop_sequence);
  if (payload.stop_reason === 'stop_sequence' && stopSequence !== undefined) completion.stopSequence = stopSequence;
  const upstreamId = readString(payload.id);
  if (upstreamId) completion.upstreamId = upstreamId;
  if (reasoning !== '') completion.reasoning = reasoning;
  if (details.length > 0) completion.reasoningDetails = details;
  if (toolCalls.length > 0) completion.toolCalls = toolCalls;
  const usage = normalizeUsage(readUsage(payload.usage));
  if (usage) completion.usage = usage;
  return completion;
}
