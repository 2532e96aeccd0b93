// Incremental Server-Sent Events splitter for the benchmark probe: feed text as it arrives, get back the
// `data:` payload of every event completed so far. Handles events split across reads and CRLF line ends.

export class SseEventSplitter {
  private buffer = '';

  /** Returns the data of each event that this text completed (multi-line data joined with "\n"). */
  push(text: string): string[] {
    this.buffer += text;
    const events: string[] = [];
    for (;;) {
      const match = /\r?\n\r?\n/.exec(this.buffer);
      if (!match) break;
      const block = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const data = block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
      // Comment-only blocks (": keep-alive") carry no event.
      if (data.length > 0) events.push(data.join('\n'));
    }
    return events;
  }

  /** Text received after the last complete event (non-empty means the stream was cut mid-event). */
  get pending(): string {
    return this.buffer;
  }
}

/** The delta content of an OpenAI-format chunk, or undefined (role-only, usage-only, finish, non-JSON). */
export function chunkContent(data: string): string | undefined {
  try {
    const parsed = JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[] };
    const content = parsed.choices?.[0]?.delta?.content;
    return typeof content === 'string' && content.length > 0 ? content : undefined;
  } catch {
    return undefined;
  }
}
