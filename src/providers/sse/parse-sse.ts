// Incremental Server-Sent Events parser following the WHATWG "event stream interpretation" rules
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
// Upstream bytes arrive in arbitrary splits: a UTF-8 sequence, a CRLF pair or a field name may be cut
// across chunks, so decoding is streaming and line assembly keeps state between pushes.
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

// One regex scan per chunk is far cheaper than a per-character loop on large chunks.
const LINE_BREAK = /\r\n|\r|\n/g;

export function createSseParser(options: SseParserOptions = {}): SseParser {
  // Default TextDecoder (ignoreBOM: false) strips exactly one leading U+FEFF, as the spec requires.
  const decoder = new TextDecoder('utf-8');
  let pending = ''; // text after the last complete line
  let skipLeadingLf = false; // last chunk ended in CR: a following LF belongs to the same line break
  let dataLines: string[] = [];
  let eventType = '';
  let lastEventId = ''; // persists across events, per spec
  let ended = false;

  function dispatch(out: SseEvent[]): void {
    // Spec: an event with an empty data buffer is not dispatched; a single `data:` line still counts.
    if (dataLines.length === 0) {
      eventType = '';
      return;
    }
    const event: SseEvent = { data: dataLines.join('\n') };
    if (eventType !== '') event.event = eventType;
    if (lastEventId !== '') event.id = lastEventId;
    out.push(event);
    dataLines = [];
    eventType = '';
  }

  function processLine(line: string, out: SseEvent[]): void {
    if (line === '') {
      dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 0x3a /* ':' */) return; // comment, e.g. ": OPENROUTER PROCESSING"
    const colon = line.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 0x20 ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        dataLines.push(value);
        break;
      case 'event':
        eventType = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) lastEventId = value;
        break;
      default:
        // `retry` only matters to reconnecting EventSource clients; unknown fields are ignored.
        break;
    }
  }

  function feed(text: string, out: SseEvent[]): void {
    if (text === '') return;
    if (skipLeadingLf) {
      skipLeadingLf = false;
      if (text.charCodeAt(0) === 0x0a) text = text.slice(1);
    }
    // Scan only the new text: rescanning `pending` would be quadratic for one huge line in tiny chunks.
    LINE_BREAK.lastIndex = 0;
    let start = 0;
    let match: RegExpExecArray | null;
    while ((match = LINE_BREAK.exec(text)) !== null) {
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (match[0] === '\r' && match.index === text.length - 1) skipLeadingLf = true;
      const tail = text.slice(start, match.index);
      processLine(pending === '' ? tail : pending + tail, out);
      pending = '';
      start = match.index + match[0].length;
    }
    pending += text.slice(start);
  }

  return {
    push(chunk) {
      if (ended) return [];
      const out: SseEvent[] = [];
      feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }), out);
      return out;
    },
    end() {
      if (ended) return [];
      ended = true;
      const out: SseEvent[] = [];
      feed(decoder.decode(), out);
      if (options.dispatchIncompleteOnEnd) {
        if (pending !== '') processLine(pending, out);
        dispatch(out);
      }
      pending = '';
      dataLines = [];
      return out;
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
