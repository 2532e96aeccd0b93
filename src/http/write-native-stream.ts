// Steps 6+8 for streams on the native lane, on the HTTP side: the upstream's own events (as the protocol's reader
// passed them on) leave one upstream read per socket write; a failure they did not tell the client (a stream cut
// short, the key's token rate) is closed by the door's renderer, in the door's format, as on the translated lane.
import type { Context } from 'koa';
import type { StreamRenderer } from '../core/stream-renderer.js';
import type { NativeStreamEnd } from '../pipeline/native-stream.js';
import { SseWriter } from './sse-writer.js';
import { JsonArrayWriter } from './json-array-writer.js';
import type { StreamFraming } from './write-event-stream.js';

export async function writeNativeStream(
  ctx: Context,
  stream: AsyncGenerator<string[], NativeStreamEnd | undefined>,
  renderer: StreamRenderer,
  keepAliveMs: number,
  /** The stream's first step when the caller already read it (routing's failover window). */
  first?:
    | IteratorResult<string[], NativeStreamEnd | undefined>
    | Promise<IteratorResult<string[], NativeStreamEnd | undefined>>,
  /** The Gemini door without `alt=sse` writes the upstream's events as the elements of a JSON array. */
  framing: StreamFraming = 'sse',
): Promise<void> {
  const writer =
    framing === 'json-array'
      ? new JsonArrayWriter(ctx.res, keepAliveMs, renderer.keepAlive)
      : new SseWriter(ctx.res, keepAliveMs, renderer.keepAlive);
  ctx.respond = false;
  writer.start();
  try {
    let end: NativeStreamEnd | undefined;
    for (let peeked = first; ; peeked = undefined) {
      const step = await (peeked ?? stream.next());
      if (step.done) {
        end = step.value;
        break;
      }
      writer.cork();
      try {
        for (const text of step.value) {
          const full = writer.text(text);
          if (full) await full;
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
    if (!end?.failure || writer.closed) return;
    writer.cork();
    for (const frame of renderer.end({ type: 'error', ...end.failure })) await writer.frame(frame);
  } finally {
    writer.end();
  }
}
