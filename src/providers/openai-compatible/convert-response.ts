// A vendor's non-streamed chat completion → AdapterCompletion. The body is untrusted: anything that
// cannot be a completion raises UpstreamPayloadError (502), an embedded error object is mapped like an
// HTTP error.
import type { ToolCall } from '../../core/chat-types.js';
import type { AdapterCompletion } from '../../core/generation.js';
import { argumentsText, readReasoningDetails, readReasoningText, splitContent } from './convert-content.js';
import { normalizeUsage } from './convert-usage.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapEmbeddedError } from './map-error.js';
import { isRecord, readArray, readRecord, readString, type JsonRecord } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';


function readToolCalls(value: unknown): ToolCall[] | undefined {
  const raw = readArray(value);
  if (!raw || raw.length === 0) return undefined;
  return raw.map((entry, position): ToolCall => {
    const fn = isRecord(entry) ? readRecord(entry.function) : undefined;
    const name = readString(fn?.name);
    if (!fn || !name) throw UpstreamPayloadError.malformed(`tool call ${position} has no function name`);
    // Vendors that omit ids (rare) still need one the client can echo back in tool_call_id.
    const id = readString((entry as JsonRecord).id) || `call_${position}`;
    return { id, type: 'function', function: { name, arguments: argumentsText(fn.arguments) ?? '' } };
  });
}

export function parseCompletion(body: unknown): AdapterCompletion {
  const payload = UpstreamPayloadError.parseJson(body);
  if (!isRecord(payload)) throw UpstreamPayloadError.malformed('body is not an object');
  const choices = readArray(payload.choices);
  if (payload.error !== undefined && payload.error !== null && (!choices || choices.length === 0)) {
    throw new UpstreamPayloadError(mapEmbeddedError(payload));
  }
  if (!choices || choices.length === 0) throw UpstreamPayloadError.malformed('no choices');
  const choice = choices.find((c) => isRecord(c) && (c.index ?? 0) === 0) ?? choices[0];
  const message = isRecord(choice) ? readRecord(choice.message) : undefined;
  if (!isRecord(choice) || !message) throw UpstreamPayloadError.malformed('choice has no message');

  const { text, reasoning: inlineReasoning } = splitContent(message.content);
  const toolCalls = readToolCalls(message.tool_calls);
  const completion: AdapterCompletion = {
    content: text ?? null,
    finishReason: mapFinishReason(choice.finish_reason, toolCalls !== undefined),
  };
  const upstreamId = readString(payload.id);
  if (upstreamId) completion.upstreamId = upstreamId;
  const reasoning = readReasoningText(message) ?? inlineReasoning;
  if (reasoning) completion.reasoning = reasoning;
  const details = readReasoningDetails(message.reasoning_details);
  if (details) completion.reasoningDetails = details;
  if (toolCalls) completion.toolCalls = toolCalls;
  const refusal = readString(message.refusal);
  if (refusal) completion.refusal = refusal;
  const usage = normalizeUsage(payload.usage);
  if (usage) completion.usage = usage;
  return completion;
}
