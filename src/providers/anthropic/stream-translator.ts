// Anthropic Messages SSE events → internal StreamEvents. Per content block: text → text deltas, then its citations when
// it stops (each covers the block's text), thinking → reasoning deltas plus one signed reasoning record when the block
// stops (the signature arrives last, in a signature_delta), redacted_thinking → one opaque record, tool_use → a tool
// call's start (id and name), then the partial JSON as input fragments; a web search (server_tool_use + its
// web_search_tool_result) → one web-search event when its result arrives.
// Anthropic's versioning policy says new event and delta types may appear and must be tolerated, so
// unknown ones are skipped; events that break the protocol become one `server_error` and end the stream.
import type { SseEvent, StreamTranslator } from '../adapter.js';
import type { Citation } from '../../core/content-blocks.js';
import type { StreamEvent } from '../../core/generation.js';
import { isRecord, readRecord, readString, type JsonRecord } from '../payload-readers.js';
import { mergeUsage, normalizeUsage, readUsage, type UsageCounts } from './convert-usage.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapStreamError } from './map-error.js';
import { citationOf } from './read-citation.js';
import { redactedRecord, thinkingRecord } from './reasoning-blocks.js';
import { searchQuery, webSearchOf } from './web-search-results.js';

export interface StreamTranslatorOptions {
  /** Named in error messages. */
  providerId?: string;
}

type Block =
  /** `length`: characters streamed; `citations`: sent when the block stops, covering its text. */
  | { kind: 'text'; length: number; citations: Citation[] }
  /** A server tool call (web search): its input, for the query its result is reported with. */
  | { kind: 'server-tool'; id: string; name: string; input: string }
  | { kind: 'thinking'; text: string; signature?: string; detailIndex: number }
  | { kind: 'redacted'; data: string; detailIndex: number }
  | { kind: 'tool'; toolIndex: number; sentArguments: boolean }
  | { kind: 'other' };

function readIndex(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function createStreamTranslator(options: StreamTranslatorOptions = {}): StreamTranslator {
  const providerId = options.providerId ?? 'anthropic';
  const blocks = new Map<number, Block>();
  let usage: UsageCounts = {};
  let usageIsFinal = false; // a message_delta reported usage: its counts are the ones to bill
  let reasoningCount = 0;
  let toolCount = 0;
  let idSent = false;
  /** Web search calls by id: their query, reported with their result. */
  const searches = new Map<string, string | undefined>();
  let finished = false;
  let stopped = false;
  let failed = false;
  let closed = false;

  const usageEvents = (onlyFinal: boolean): StreamEvent[] => {
    const normalized = onlyFinal && !usageIsFinal ? undefined : normalizeUsage(usage);
    return normalized ? [{ type: 'usage', usage: normalized }] : [];
  };

  const fail = (message: string): StreamEvent[] => {
    failed = true;
    // Usage goes first: the pipeline stops reading at the error, and what was generated is billed.
    return [
      ...usageEvents(true),
      { type: 'error', code: 'server_error', message: `Upstream provider ${providerId} ${message}` },
    ];
  };

  function onBlockStart(event: JsonRecord): StreamEvent[] {
    const index = readIndex(event.index);
    const block = readRecord(event.content_block);
    if (index === undefined || !block) return fail('sent a malformed content_block_start event.');
    switch (block.type) {
      case 'text': {
        const text = readString(block.text);
        blocks.set(index, { kind: 'text', length: text?.length ?? 0, citations: [] });
        return text ? [{ type: 'text-delta', text }] : [];
      }
      case 'server_tool_use':
        blocks.set(index, {
          kind: 'server-tool',
          id: readString(block.id) ?? '',
          name: readString(block.name) ?? '',
          input: '',
        });
        return [];
      case 'web_search_tool_result': {
        blocks.set(index, { kind: 'other' });
        const id = readString(block.tool_use_id) ?? '';
        return [{ type: 'web-search', search: webSearchOf(block, searches.get(id)) }];
      }
      case 'thinking': {
        const text = readString(block.thinking) ?? '';
        const signature = readString(block.signature);
        blocks.set(index, { kind: 'thinking', text, signature: signature || undefined, detailIndex: reasoningCount++ });
        return text ? [{ type: 'reasoning-delta', text }] : [];
      }
      case 'redacted_thinking':
        blocks.set(index, { kind: 'redacted', data: readString(block.data) ?? '', detailIndex: reasoningCount++ });
        return [];
      case 'tool_use': {
        const id = readString(block.id);
        const name = readString(block.name);
        if (!id || !name) return fail('sent a tool_use block without id or name.');
        const toolIndex = toolCount++;
        blocks.set(index, { kind: 'tool', toolIndex, sentArguments: false });
        return [{ type: 'tool-call-start', index: toolIndex, id, name, kind: 'function', input: '' }];
      }
      default:
        blocks.set(index, { kind: 'other' }); // other server tools and their results: nothing the translated lane carries
        return [];
    }
  }

  function onBlockDelta(event: JsonRecord): StreamEvent[] {
    const index = readIndex(event.index);
    const block = index === undefined ? undefined : blocks.get(index);
    const change = readRecord(event.delta);
    if (!block || !change) return fail('sent a content_block_delta for a block it never started.');
    if (change.type === 'text_delta' && block.kind === 'text') {
      const text = readString(change.text);
      if (text) block.length += text.length;
      return text ? [{ type: 'text-delta', text }] : [];
    }
    if (change.type === 'input_json_delta' && block.kind === 'server-tool') {
      block.input += readString(change.partial_json) ?? '';
      return [];
    }
    if (change.type === 'thinking_delta' && block.kind === 'thinking') {
      const text = readString(change.thinking) ?? '';
      block.text += text;
      return text ? [{ type: 'reasoning-delta', text }] : [];
    }
    if (change.type === 'signature_delta' && block.kind === 'thinking') {
      block.signature = readString(change.signature) ?? block.signature;
      return [];
    }
    if (change.type === 'input_json_delta' && block.kind === 'tool') {
      const fragment = readString(change.partial_json);
      if (!fragment) return [];
      block.sentArguments = true;
      return [{ type: 'tool-call-delta', index: block.toolIndex, input: fragment }];
    }
    if (change.type === 'citations_delta' && block.kind === 'text') {
      // Held until the block stops: a citation covers its text block, whose text streams after it.
      const citation = citationOf(change.citation);
      if (citation) block.citations.push(citation);
      return [];
    }
    return []; // future delta types
  }

  function onBlockStop(event: JsonRecord): StreamEvent[] {
    const index = readIndex(event.index);
    const block = index === undefined ? undefined : blocks.get(index);
    if (index === undefined || !block) return fail('sent a content_block_stop for a block it never started.');
    blocks.delete(index);
    switch (block.kind) {
      case 'thinking':
        return [{ type: 'reasoning-state', state: thinkingRecord(block.text, block.signature, block.detailIndex) }];
      case 'redacted':
        return block.data ? [{ type: 'reasoning-state', state: redactedRecord(block.data, block.detailIndex) }] : [];
      case 'tool':
        // A call without arguments streams no JSON at all; the client still needs a parseable "{}".
        return block.sentArguments ? [] : [{ type: 'tool-call-delta', index: block.toolIndex, input: '{}' }];
      case 'text':
        return block.citations.map((citation): StreamEvent => ({ type: 'citation', citation, span: block.length }));
      case 'server-tool':
        if (block.name === 'web_search') searches.set(block.id, searchQuery(block.input));
        return [];
      default:
        return [];
    }
  }

  function onEvent(type: string, event: JsonRecord): StreamEvent[] {
    switch (type) {
      case 'message_start': {
        const message = readRecord(event.message);
        const out: StreamEvent[] = [];
        const id = readString(message?.id);
        if (id && !idSent) {
          idSent = true;
          out.push({ type: 'upstream-id', id });
        }
        usage = mergeUsage(usage, readUsage(message?.usage));
        return out;
      }
      case 'content_block_start':
        return onBlockStart(event);
      case 'content_block_delta':
        return onBlockDelta(event);
      case 'content_block_stop':
        return onBlockStop(event);
      case 'message_delta': {
        const counts = readUsage(event.usage);
        if (Object.keys(counts).length > 0) {
          usage = mergeUsage(usage, counts);
          usageIsFinal = true;
        }
        const stopReason = readString(readRecord(event.delta)?.stop_reason);
        if (!stopReason || finished) return [];
        finished = true;
        const stopSequence =
          stopReason === 'stop_sequence' ? readString(readRecord(event.delta)?.stop_sequence) : undefined;
        const finish: StreamEvent = { type: 'finish', finishReason: mapFinishReason(stopReason, toolCount > 0) };
        return [stopSequence !== undefined ? { ...finish, stopSequence } : finish];
      }
      case 'message_stop': {
        stopped = true;
        const out: StreamEvent[] = [];
        if (!finished) {
          finished = true;
          out.push({ type: 'finish', finishReason: mapFinishReason(undefined, toolCount > 0) });
        }
        return [...out, ...usageEvents(false)];
      }
      case 'error': {
        failed = true;
        const { code, message } = mapStreamError(event, providerId);
        return [...usageEvents(true), { type: 'error', code, message }];
      }
      default:
        return []; // ping, and event types added after this adapter was written
    }
  }

  return {
    push(sse: SseEvent): StreamEvent[] {
      if (failed || stopped || closed) return [];
      let parsed: unknown;
      try {
        parsed = JSON.parse(sse.data);
      } catch {
        return fail('sent an unparseable stream event.');
      }
      if (!isRecord(parsed)) return fail('sent a stream event that is not an object.');
      // Every event names its type twice (SSE `event:` and `type`); the data is authoritative.
      const type = readString(parsed.type) ?? sse.event;
      if (!type) return fail('sent a stream event without a type.');
      return onEvent(type, parsed);
    },
    end(): StreamEvent[] {
      if (closed) return [];
      closed = true;
      if (failed || stopped) return [];
      // message_delta carried the stop reason and final usage; only message_stop went missing.
      if (finished) return usageEvents(false);
      return fail('closed the stream before the message finished.');
    },
  };
}
