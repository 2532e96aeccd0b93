// An opened stream as the one stream writer takes it, on either lane. Translated: the door's renderer makes every
// frame, from its opening to its closing. Native: the upstream's own events are the frames; the door renders only a
// failure they did not tell.
import type { FrameSource } from '../core/frame-source.js';
import type { StreamEvent } from '../core/generation.js';
import type { StreamEnd, StreamRenderer } from '../core/stream-renderer.js';
import type { OpenedStream } from './generation-door.js';
import type { NativeStreamEnd } from './native-stream.js';

type Opened<L extends OpenedStream['lane']> = Extract<OpenedStream, { lane: L }>;

export function translatedFrames(
  opened: Opened<'translated'>,
  renderer: StreamRenderer,
): FrameSource<StreamEvent, StreamEnd> {
  return {
    batches: opened.events,
    first: opened.first,
    opening: renderer.start(),
    render: (event) => renderer.event(event),
    closing: (end) => renderer.end(end),
    keepAlive: renderer.keepAlive,
    whole: (end) => end.type === 'finish',
  };
}

export function nativeFrames(opened: Opened<'native'>, renderer: StreamRenderer): FrameSource<string, NativeStreamEnd> {
  return {
    batches: opened.frames,
    first: opened.first,
    closing: (end) => (end.failure ? renderer.end({ type: 'error', ...end.failure }) : []),
    keepAlive: renderer.keepAlive,
    whole: (end) => !end.failure,
  };
}
