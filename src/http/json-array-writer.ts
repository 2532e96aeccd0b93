// A stream written as one JSON array, element by element as the events come: what the Gemini API answers to
// `:streamGenerateContent` without `alt=sse` (`[` chunk `,\r\n` chunk … `]`). Same backpressure, corking and
// keep-alive as Server-Sent Events; the keep-alive must be whitespace, which JSON allows between elements.
import type { SseFrame } from '../core/stream-renderer.js';
import { SseWriter } from './sse-writer.js';
import { createSseParser } from '../providers/sse/parse-sse.js';

export class JsonArrayWriter extends SseWriter {
  /** The keep-alive when the door names none: whitespace, which JSON allows between elements. */
  static readonly KEEP_ALIVE = '\n';
  protected override readonly contentType = 'application/json; charset=utf-8';
  private elements = 0;
  private opened = false;

  override start(headers: Record<string, string> = {}): void {
    super.start(headers);
    this.opened = true;
    void this.write('[');
  }

  override data(payload: string): Promise<void> | undefined {
    return this.write(this.elements++ === 0 ? payload : `,\r\n${payload}`);
  }

  /** Frames have no names here: each is one element. */
  override frame(frame: SseFrame): Promise<void> | undefined {
    return this.data(frame.data);
  }

  /** SSE text of the native lane's upstream events: each event's data is one element. */
  override text(events: string): Promise<void> | undefined {
    const parser = createSseParser();
    let full: Promise<void> | undefined;
    for (const event of [...parser.push(events), ...parser.end()]) full = this.data(event.data) ?? full;
    return full;
  }

  /** Closes the array, unless the client is gone (then nothing more is written). */
  override end(): void {
    if (this.opened && !this.closed) void this.write(']');
    this.opened = false;
    super.end();
  }
}
