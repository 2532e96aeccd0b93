// A non-streamed Anthropic Message → GenerationResult, block for block in Anthropic's order: text (with its
// citations), thinking and redacted thinking (reasoning records), tool_use (tool calls). The body is untrusted:
// anything that cannot be a Message raises UpstreamPayloadError (the pipeline answers 502). A web search
// (server_tool_use and its web_search_tool_result) is one web_search block; other server tools and their results are
// skipped (nothing the translated lane carries); the reply's text and tool calls still count.
import type { Citation, ToolCallBlock } from '../../core/content-blocks.js';
import type { GenerationResult, OutputBlock } from '../../core/generation.js';
import { isRecord, readArray, readRecord, readString, type JsonRecord } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';
import { normalizeUsage, readUsage } from './convert-usage.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapError } from './map-error.js';
import { STATUS_OF_TYPE, readAnthropicError } from './read-error.js';
import { redactedRecord, thinkingRecord } from './reasoning-blocks.js';
import { citationOf } from './read-citation.js';
import { searchQuery, webSearchOf } from './web-search-results.js';

function toolCallOf(block: JsonRecord, position: number): ToolCallBlock {
  const id = readString(block.id);
  const name = readString(block.name);
  if (!id || !name) throw UpstreamPayloadError.malformed(`tool_use block ${position} has no id or name`);
  // `input` is always an object at Anthropic; the gateway carries it as JSON text.
  const input = readRecord(block.input) ?? {};
  return { type: 'tool_call', id, name, kind: 'function', input: JSON.stringify(input) };
}

export function parseCompletion(body: unknown, providerId = 'anthropic'): GenerationResult {
  const payload = UpstreamPayloadError.parseJson(body);
  if (!isRecord(payload)) throw UpstreamPayloadError.malformed('body is not an object');
  if (payload.type === 'error') {
    const type = readAnthropicError(payload).type;
    throw new UpstreamPayloadError(
      mapError({ status: (type && STATUS_OF_TYPE[type]) || 500, body: payload }, { providerId }),
    );
  }
  const content = readArray(payload.content);
  if (!content) throw UpstreamPayloadError.malformed('message has no content array');

  const output: OutputBlock[] = [];
  let records = 0;
  let calls = 0;
  const searches = new Map<string, string | undefined>();
  content.forEach((block, position) => {
    if (!isRecord(block)) throw UpstreamPayloadError.malformed(`content block ${position} is not an object`);
    switch (block.type) {
      case 'text': {
        const text = readString(block.text) ?? '';
        if (text === '') break;
        const citations = (readArray(block.citations) ?? [])
          .map(citationOf)
          .filter((c): c is Citation => c !== undefined);
        output.push(citations.length > 0 ? { type: 'text', text, citations } : { type: 'text', text });
        break;
      }
      case 'thinking':
        output.push({
          type: 'reasoning',
          ...thinkingRecord(readString(block.thinking) ?? '', readString(block.signature), records++),
        });
        break;
      case 'redacted_thinking': {
        const data = readString(block.data);
        if (data) output.push({ type: 'reasoning', ...redactedRecord(data, records++) });
        break;
      }
      case 'tool_use':
        output.push(toolCallOf(block, position));
        calls++;
        break;
      case 'server_tool_use':
        if (block.name === 'web_search') searches.set(readString(block.id) ?? '', searchQuery(block.input));
        break;
      case 'web_search_tool_result':
        output.push({ type: 'web_search', ...webSearchOf(block, searches.get(readString(block.tool_use_id) ?? '')) });
        break;
      default:
        break;
    }
  });

  const result: GenerationResult = { output, finishReason: mapFinishReason(payload.stop_reason, calls > 0) };
  const stopSequence = readString(payload.stop_sequence);
  if (payload.stop_reason === 'stop_sequence' && stopSequence !== undefined) result.stopSequence = stopSequence;
  const upstreamId = readString(payload.id);
  if (upstreamId) result.upstreamId = upstreamId;
  const usage = normalizeUsage(readUsage(payload.usage));
  if (usage) result.usage = usage;
  return result;
}
