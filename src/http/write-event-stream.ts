// Steps 6+8 for streams on the HTTP side: a front door's renderer turns the pipeline's event batches into frames,
// and each batch leaves in one socket write (the writer uncorks before it waits for a slow client).
import type { Context } from 'koa';
import type { StreamEvent } from '../core/generation.js';
import type { StreamEnd, StreamRenderer } from '../core/stream-renderer.js';
import { SseWriter } from './sse-writer.js';
import { JsonArrayWriter } from './json-array-writer.js';

/** How events are framed: Server-Sent Events, or the elements of one JSON array (Gemini without `alt=sse`). */
export type StreamFraming = 'sse' | 'json-array';

export async function writeEventStream(
  ctx: Context,
  stream: AsyncGenerator<StreamEvent[], StreamEnd | undefined>,
  renderer: StreamRenderer,
  keepAliveMs: number,
  /** The stream's first step when the caller already read it (routing's failover window). */
  first?:
    | IteratorResult<StreamEvent[], StreamEnd | undefined>
    | Promise<IteratorResult<StreamEvent[], StreamEnd | undefined>>,
  framing: StreamFraming = 'sse',
): Promise<void> {
  const writer =
    framing === 'json-array'
      ? new JsonArrayWriter(ctx.res, keepAliveMs, renderer.keepAlive)
      : new SseWriter(ctx.res, keepAliveMs, renderer.keepAlive);
  ctx.respond = false;
  writer.start();
  try {
    for (const frame of renderer.start()) await writer.frame(frame);
    let end: StreamEnd | undefined;
    for (let peeked = first; ; peeked = undefined) {
      const step = await (peeked ?? stream.next());
      if (step.done) {
        end = step.value;
        break;
      }
      writer.cork();
      try {
        for (const event of step.value) {
          for (const frame of renderer.event(event)) {
            const full = writer.frame(frame);
            if (full) await full;
          }
        }
      } finally {
        writer.uncork();
      }
      if (writer.closed) {
        // The client is gone: stop reading the upstream (the generator releases it).
        await stream.return(undefined);
        return;
      }
    }
    if (!end || writer.closed) return;
    // The closing frames and the end of the response: one socket write.
    writer.cork();
    for (const frame of renderer.end(end)) await writer.frame(frame);
  } finally {
    writer.end();
  }
}
