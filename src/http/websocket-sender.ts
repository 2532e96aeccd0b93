// Sends text frames on a WebSocket without ever buffering without bound for a slow client: past the high-water mark
// of bytes queued on the socket, a send waits until its own frame was written out (everything queued before it went
// too), which pauses whoever feeds the frames (the upstream read). A closed socket takes nothing and waits for nothing.
import type { WebSocket } from 'ws';

/** Bytes queued on the socket past which a send waits: a few upstream reads' worth of events. */
export const HIGH_WATER_BYTES = 256 * 1024;

export class WebSocketSender {
  constructor(
    private readonly ws: WebSocket,
    private readonly highWaterBytes = HIGH_WATER_BYTES,
  ) {}

  get closed(): boolean {
    return this.ws.readyState !== this.ws.OPEN;
  }

  /** Undefined when the socket can take more at once (the common case costs no promise), else when it drained. */
  send(text: string): Promise<void> | undefined {
    if (this.closed) return undefined;
    if (this.ws.bufferedAmount < this.highWaterBytes) {
      this.ws.send(text);
      return undefined;
    }
    return new Promise((resolve) => {
      const done = () => {
        this.ws.off('close', done);
        resolve();
      };
      this.ws.once('close', done);
      this.ws.send(text, done);
    });
  }
}
