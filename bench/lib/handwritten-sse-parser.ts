// The hand-written SSE parser the gateway used before it moved to eventsource-parser, kept here only as the baseline
// of bench/sse-parser-compare.ts (its decision and figures: docs/observability.md "SSE parsing"). Nothing in src/
// uses it. Incremental, following the WHATWG "event stream interpretation" rules
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
import type { SseEvent } from '../../src/providers/adapter.js';
import type { SseParser, SseParserOptions } from '../../src/providers/sse/parse-sse.js';

// One regex scan per chunk is far cheaper than a per-character loop on large chunks.
const LINE_BREAK = /\r\n|\r|\n/g;

export function createHandwrittenSseParser(options: SseParserOptions = {}): SseParser {
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
    for (;;) {
      const match = LINE_BREAK.exec(text);
      if (match === null) break;
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
