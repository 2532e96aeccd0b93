// The one stream writer (steps 6+8 for streams, on the HTTP side), for both lanes and for the response cache's replay:
// batches of frames (the door's rendered events on the translated lane, the upstream's own SSE text on the native lane,
// recorded frames on a cache hit), as Server-Sent Events or as one JSON array (Gemini without `alt=sse`). Each batch
// leaves in one socket write (the writer uncorks before it waits for a slow client); a client gone stops the batches,
// which releases what feeds them (the upstream, or the replay's settlement as aborted).
import type { Context } from 'koa';
import type { FrameSource, WireFrame } from '../core/frame-source.js';
import type { StreamFraming } from '../core/stream-renderer.js';
import { JsonArrayWriter } from './json-array-writer.js';
import { SseWriter } from './sse-writer.js';

/** How a response's stream is written: its framing, and how long a silence lasts before a keep-alive. */
export interface StreamWriting {
  framing: StreamFraming;
  keepAliveMs: number;
}

/** Writes the stream until it ends or the client leaves; false when the client left before its end. */
export async function writeStream<T, E>(
  ctx: Context,
  { framing, keepAliveMs }: StreamWriting,
  source: FrameSource<T, E>,
): Promise<boolean> {
  const { batches, render } = source;
  const writer =
    framing === 'json-array'
      ? new JsonArrayWriter(ctx.res, keepAliveMs, source.keepAlive ?? JsonArrayWriter.KEEP_ALIVE)
      : new SseWriter(ctx.res, keepAliveMs, source.keepAlive);
  ctx.respond = false;
  writer.start();
  try {
    for (const frame of source.opening ?? []) await writer.send(frame);
    let end: E | undefined;
    for (let peeked = source.first; ; peeked = undefined) {
      const step = await (peeked ?? batches.next());
      if (step.done) {
        end = step.value;
        break;
      }
      writer.cork();
      try {
        for (const item of step.value) {
          if (render === undefined) {
            const full = writer.send(item as WireFrame);
            if (full) await full;
            continue;
          }
          for (const frame of render(item)) {
            const full = writer.send(frame);
            if (full) await full;
          }
        }
      } finally {
        writer.uncork();
      }
      if (writer.closed) {
        // The client is gone: stop reading the batches (their generator releases the upstream).
        await batches.return?.(undefined);
        return false;
      }
    }
    if (writer.closed) return false;
    const closing = end === undefined ? undefined : source.closing?.(end);
    if (closing === undefined || closing.length === 0) return true;
    // The closing frames and the end of the response: one socket write.
    writer.cork();
    for (const frame of closing) await writer.send(frame);
    return true;
  } finally {
    writer.end();
  }
}
