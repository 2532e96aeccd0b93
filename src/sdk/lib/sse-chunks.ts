// Reads a chat-completion Server-Sent Events body into ChatCompletionChunk objects. The format (see the
// ChatCompletionEventStream schema): events separated by a blank line, each `data: <chunk JSON>`, lines starting with
// `:` are keep-alive comments, and `data: [DONE]` ends the stream. Parsed per the SSE rules: CRLF or LF line ends,
// an optional space after the colon, multi-line data joined with "\n", other fields (event, id, retry) ignored.
import type { ChatCompletionChunk } from './openapi-types.js';

export class StreamFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamFormatError';
  }
}

export async function* readChatCompletionChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatCompletionChunk> {
  const reader = body.getReader();
  // stream: true keeps a multi-byte character split across two network chunks intact.
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let done = false;
  try {
    while (!done) {
      const read = await reader.read();
      if (read.done) break;
      buffer += decoder.decode(read.value, { stream: true });
      for (;;) {
        const newline = buffer.search(/\r\n|\r|\n/);
        if (newline < 0) break;
        // A CR at the very end may be the first half of a CRLF split across reads: wait for the next read.
        if (newline === buffer.length - 1 && buffer.endsWith('\r')) break;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          // Blank line: dispatch the event collected so far.
          if (data.length === 0) continue;
          const payload = data.join('\n');
          data = [];
          if (payload === '[DONE]') {
            done = true;
            break;
          }
          yield parseChunk(payload);
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') data.push(value);
        }
      }
    }
    if (!done) throw new StreamFormatError('The stream ended without data: [DONE] (connection closed early)');
  } finally {
    // Stops the download when the consumer breaks out of its loop early.
    await reader.cancel().catch(() => undefined);
  }
}

function parseChunk(payload: string): ChatCompletionChunk {
  try {
    return JSON.parse(payload) as ChatCompletionChunk;
  } catch {
    throw new StreamFormatError(`Malformed event data: ${payload.slice(0, 200)}`);
  }
}
