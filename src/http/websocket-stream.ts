// Writes one generation's stream onto a Responses WebSocket: each event one text frame holding the event's JSON, the
// data an SSE stream would carry (no `event:`/`data:` framing). The translated lane's frames come from the door's
// renderer, the native lane's are the upstream's own SSE text, read back into events here. Batches are read only as
// fast as the client takes them (websocket-sender.ts); a client gone stops the batches, which releases the upstream.
import type { SseFrame } from '../core/stream-renderer.js';
import { createSseParser } from '../providers/sse/parse-sse.js';
import type { FrameSource, WireFrame } from '../core/frame-source.js';
import type { WebSocketSender } from './websocket-sender.js';

/** Writes the stream until it ends or the client leaves; false when the client left before its end. */
export async function writeSocketStream<T, E>(
  sender: WebSocketSender,
  source: Omit<FrameSource<T, E>, 'keepAlive'>,
): Promise<boolean> {
  const { batches, render } = source;
  const payloads = framePayloads();
  const send = async (frames: readonly WireFrame[]) => {
    for (const frame of frames) {
      for (const payload of payloads(frame)) {
        const full = sender.send(payload);
        if (full) await full;
      }
    }
  };
  await send(source.opening ?? []);
  let end: E | undefined;
  for (let peeked = source.first; ; peeked = undefined) {
    const step = await (peeked ?? batches.next());
    if (step.done) {
      end = step.value;
      break;
    }
    for (const item of step.value) await send(render === undefined ? [item as WireFrame] : render(item));
    if (sender.closed) {
      await batches.return?.(undefined);
      return false;
    }
  }
  if (sender.closed) return false;
  if (end !== undefined) await send(source.closing?.(end) ?? []);
  return true;
}

/** The JSON of each event in a frame: a rendered event's data, or each event of the upstream's SSE text. */
function framePayloads(): (frame: WireFrame) => string[] {
  const parser = createSseParser();
  return (frame) => {
    if (typeof frame !== 'string') return [(frame as SseFrame).data];
    return parser.push(frame).map((event) => event.data);
  };
}
