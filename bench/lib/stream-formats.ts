// What the probe reads out of each front door's SSE stream: the text of a content event, and the event that ends a
// whole stream. Chat completions carry text in `choices[0].delta.content` and end with `[DONE]`; the Anthropic
// Messages door in `content_block_delta` events (`delta.text`), ending with `message_stop`; the OpenAI Responses
// door in `response.output_text.delta` events (`delta`), ending with `response.completed`. The gateway writes one
// event per upstream chunk, so each door's content events carry the mock's stamped words one by one.
import { chunkContent } from './sse-events.js';

export type StreamFormat = 'chat' | 'messages' | 'responses';

/** What a stream that ended properly closes with, as error messages name it. */
export const END_EVENT: Record<StreamFormat, string> = {
  chat: '[DONE]',
  messages: 'message_stop',
  responses: 'response.completed',
};

export interface StreamEventReading {
  /** Non-empty text of a content event, else undefined. */
  content?: string;
  /** This event ends a successful stream. */
  end: boolean;
}

function parse(data: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** Reads one event's `data:` payload (SseEventSplitter's output) in the given format. */
export function readStreamEvent(format: StreamFormat, data: string): StreamEventReading {
  if (format === 'chat') return data === '[DONE]' ? { end: true } : { content: chunkContent(data), end: false };
  // Both doors repeat the event name as `type` in the JSON payload, so the data line alone tells the event.
  const event = parse(data);
  const type = event?.type;
  if (format === 'messages') {
    const delta = event?.delta as { type?: unknown; text?: unknown } | undefined;
    const content = type === 'content_block_delta' && delta?.type === 'text_delta' ? nonEmpty(delta.text) : undefined;
    return { content, end: type === 'message_stop' };
  }
  return {
    content: type === 'response.output_text.delta' ? nonEmpty(event?.delta) : undefined,
    end: type === 'response.completed',
  };
}
