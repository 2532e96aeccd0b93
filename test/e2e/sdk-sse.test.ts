// The SDK's SSE reader on hand-made byte streams: every way the event stream may be cut into network reads.
import { describe, expect, it } from 'vitest';
import { readChatCompletionChunks, StreamFormatError } from '../../src/sdk/lib/sse-chunks.js';

const encoder = new TextEncoder();

function streamOf(parts: (string | Uint8Array)[], onCancel?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= parts.length) return controller.close();
      const part = parts[i++];
      controller.enqueue(typeof part === 'string' ? encoder.encode(part) : part);
    },
    cancel: () => onCancel?.(),
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const chunk of readChatCompletionChunks(stream)) out.push(chunk);
  return out;
}

const event = (n: number, text = `t${n}`) =>
  `data: {"id":"g","object":"chat.completion.chunk","n":${n},"text":${JSON.stringify(text)}}`;

describe('readChatCompletionChunks', () => {
  it('reads LF events, skips keep-alive comments and stops at [DONE]', async () => {
    const chunks = await collect(
      streamOf([`: keep-alive\n\n${event(1)}\n\n${event(2)}\n\ndata: [DONE]\n\n${event(3)}\n\n`]),
    );
    expect(chunks).toMatchObject([{ n: 1 }, { n: 2 }]);
  });

  it('reads CRLF and CR line ends, also when a CRLF is split across reads', async () => {
    const text = `${event(1)}\r\n\r\n${event(2)}\r\r${event(3)}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const splitAfterCr = text.indexOf('\r\n') + 1;
    expect(await collect(streamOf([text.slice(0, splitAfterCr), text.slice(splitAfterCr)]))).toMatchObject([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
  });

  it('survives any split point, including inside a multi-byte character', async () => {
    const bytes = encoder.encode(`${event(1, 'héllo 世界 🙂')}\n\n${event(2)}\n\ndata: [DONE]\n\n`);
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const chunks = await collect(streamOf([bytes.slice(0, cut), bytes.slice(cut)]));
      expect(chunks).toMatchObject([{ n: 1, text: 'héllo 世界 🙂' }, { n: 2 }]);
    }
    // One byte per read, the worst case.
    expect(await collect(streamOf([...bytes].map((b) => Uint8Array.of(b))))).toHaveLength(2);
  });

  it('joins multi-line data, accepts data without the space, and ignores other fields', async () => {
    const chunks = await collect(
      streamOf(['event: chunk\nid: 7\nretry: 10\ndata: {"n":1,\ndata:"x":2}\n\ndata:[DONE]\n\n']),
    );
    expect(chunks).toEqual([{ n: 1, x: 2 }]);
  });

  it('fails with StreamFormatError when the stream ends without [DONE] or carries non-JSON data', async () => {
    await expect(collect(streamOf([`${event(1)}\n\n`]))).rejects.toBeInstanceOf(StreamFormatError);
    await expect(collect(streamOf(['data: {not json}\n\n']))).rejects.toThrow(/Malformed event data/);
  });

  it('cancels the body when the consumer stops early', async () => {
    let cancelled = false;
    const stream = streamOf([`${event(1)}\n\n`, `${event(2)}\n\n`, 'data: [DONE]\n\n'], () => (cancelled = true));
    for await (const chunk of readChatCompletionChunks(stream)) {
      expect(chunk).toMatchObject({ n: 1 });
      break;
    }
    expect(cancelled).toBe(true);
  });
});
