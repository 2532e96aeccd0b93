// Server-Sent Events from upstream bytes, on eventsource-parser (the WHATWG "event stream interpretation" rules:
// https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation). Upstream bytes arrive
// in arbitrary splits: a UTF-8 sequence cut across chunks is decoded in streaming mode here, and the parser keeps
// partial lines between feeds. This adapter gives the events each chunk completed, as a batch, and adds what the
// parser leaves to its caller: the end of the stream, and the last event ID that persists across events.
import { createParser } from 'eventsource-parser';
import type { SseEvent } from '../adapter.js';

export interface SseParserOptions {
  /**
   * The spec discards an event that the stream ends in the middle of (no terminating blank line).
   * Set true to dispatch it anyway on end(); off by default to stay spec-compliant.
   */
  dispatchIncompleteOnEnd?: boolean;
}

export interface SseParser {
  /** Feed raw bytes (or already-decoded text); returns the events completed by this chunk. */
  push(chunk: Uint8Array | string): SseEvent[];
  /** The byte stream ended: flush the decoder and return any events that completes. */
  end(): SseEvent[];
}

export function createSseParser(options: SseParserOptions = {}): SseParser {
  // Default TextDecoder (ignoreBOM: false) strips exactly one leading U+FEFF, as the spec requires.
  const decoder = new TextDecoder('utf-8');
  let completed: SseEvent[] = [];
  // eventsource-parser forgets an event's id once it is dispatched; the spec's last event ID stays until an id field
  // changes it (an empty one clears it).
  let lastEventId = '';
  let endsInCr = false;
  let ended = false;
  const parser = createParser({
    onEvent(message) {
      if (message.id !== undefined) lastEventId = message.id;
      const event: SseEvent = { data: message.data };
      if (message.event) event.event = message.event;
      if (lastEventId !== '') event.id = lastEventId;
      completed.push(event);
    },
  });

  function feed(text: string): void {
    if (text === '') return;
    endsInCr = text.charCodeAt(text.length - 1) === 0x0d;
    parser.feed(text);
  }

  function take(): SseEvent[] {
    const events = completed;
    completed = [];
    return events;
  }

  return {
    push(chunk) {
      if (ended) return [];
      feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      return take();
    },
    end() {
      if (ended) return [];
      ended = true;
      feed(decoder.decode());
      // The parser holds a CR at the end of what it was fed, in case an LF follows (one CRLF break). Nothing follows
      // the end of the stream: the CR is a line break, and an LF after it ends the same line.
      if (endsInCr) parser.feed('\n');
      // A line and a blank line: whatever the stream ended in the middle of is dispatched.
      if (options.dispatchIncompleteOnEnd) parser.feed('\n\n');
      // Otherwise an unterminated event is discarded, as the spec says.
      parser.reset();
      return take();
    },
  };
}

/**
 * Parse an upstream response body into SSE events, one batch per read: the events each chunk of bytes completed
 * (reads that complete none yield nothing), then those the end of the stream completes. A consumer can write
 * a batch to its client in one go without ever waiting for a later read.
 */
export async function* readSseBatches(
  body: AsyncIterable<Uint8Array>,
  options: SseParserOptions = {},
): AsyncGenerator<SseEvent[]> {
  const parser = createSseParser(options);
  for await (const chunk of body) {
    const events = parser.push(chunk);
    if (events.length > 0) yield events;
  }
  const last = parser.end();
  if (last.length > 0) yield last;
}

/** Parse an upstream response body into SSE events as they complete. */
export async function* readSseEvents(
  body: AsyncIterable<Uint8Array>,
  options: SseParserOptions = {},
): AsyncGenerator<SseEvent> {
  for await (const events of readSseBatches(body, options)) yield* events;
}
