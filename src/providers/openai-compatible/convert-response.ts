// A vendor's non-streamed chat completion → GenerationResult. The body is untrusted: anything that cannot be a
// completion raises UpstreamPayloadError (502), an embedded error object is mapped like an HTTP error.
// Output order: reasoning (plain text when no record carries it, then the records), text, refusal, tool calls.
import type { ToolCallBlock } from '../../core/content-blocks.js';
import type { GenerationResult, OutputBlock } from '../../core/generation.js';
import { argumentsText, readReasoningDetails, readReasoningText, splitContent } from './convert-content.js';
import { normalizeUsage } from './convert-usage.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapEmbeddedError } from './map-error.js';
import { isRecord, readArray, readRecord, readString, type JsonRecord } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';

function readToolCalls(value: unknown): ToolCallBlock[] {
  const raw = readArray(value);
  if (!raw) return [];
  return raw.map((entry, position): ToolCallBlock => {
    const fn = isRecord(entry) ? readRecord(entry.function) : undefined;
    const name = readString(fn?.name);
    if (!fn || !name) throw UpstreamPayloadError.malformed(`tool call ${position} has no function name`);
    // Vendors that omit ids (rare) still need one the client can echo back in tool_call_id.
    const id = readString((entry as JsonRecord).id) || `call_${position}`;
    return { type: 'tool_call', id, name, kind: 'function', input: argumentsText(fn.arguments) ?? '' };
  });
}

export function parseCompletion(body: unknown): GenerationResult {
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
  const output: OutputBlock[] = [];
  const reasoning = readReasoningText(message) ?? inlineReasoning;
  const records = readReasoningDetails(message.reasoning_details) ?? [];
  // Vendors that send both (OpenRouter) repeat the text in the records: it is shown once.
  if (reasoning && !records.some((record) => record.text)) output.push({ type: 'reasoning', text: reasoning });
  for (const record of records) output.push({ type: 'reasoning', ...record });
  if (text) output.push({ type: 'text', text });
  const refusal = readString(message.refusal);
  if (refusal) output.push({ type: 'refusal', text: refusal });
  output.push(...toolCalls);

  const result: GenerationResult = {
    output,
    finishReason: mapFinishReason(choice.finish_reason, toolCalls.length > 0),
  };
  const upstreamId = readString(payload.id);
  if (upstreamId) result.upstreamId = upstreamId;
  const usage = normalizeUsage(payload.usage);
  if (usage) result.usage = usage;
  return result;
}
