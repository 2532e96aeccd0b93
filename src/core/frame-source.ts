// A stream as the one stream writer takes it, whatever feeds it: the translated lane's events with the door's
// renderer, the native lane's own SSE text, or a cached answer's recorded frames. The pipeline builds it; each edge
// (an HTTP response, a WebSocket) writes it in its own framing, so neither lane nor the cache has a writer of its own.
import type { SseFrame } from './stream-renderer.js';

/** A frame to send: one event, or SSE text already framed (the native lane's upstream events, whole). */
export type WireFrame = SseFrame | string;

/** A stream to write: its batches, and what the door adds before and after them. */
export interface FrameSource<T, E> {
  /** One batch per upstream read (or recorded batch); returns how the stream ended, undefined when its client left. */
  batches: AsyncIterator<readonly T[], E | undefined>;
  /** The first step when the caller already read it (routing's failover window), or the promise of it. */
  first?: IteratorResult<readonly T[], E | undefined> | Promise<IteratorResult<readonly T[], E | undefined>>;
  /** Frames sent before the first batch (the door's opening: chat's role chunk, Messages' message_start). */
  opening?: readonly SseFrame[];
  /** The frames of one item of a batch (the door's renderer); absent, the items are frames already. */
  render?: (item: T) => readonly WireFrame[];
  /** The frames that close a stream that ended, sent with the end of the response in one socket write. */
  closing?: (end: E) => readonly WireFrame[];
  /** What is sent while the stream is silent (the door's); absent, the framing's own. */
  keepAlive?: string;
  /** Whether a stream that ended so is a whole answer (a finish, not an in-stream failure): what a cache may keep. */
  whole?: (end: E) => boolean;
}
