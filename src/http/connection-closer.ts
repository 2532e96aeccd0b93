// A graceful stop ends each keep-alive connection as soon as it carries no answer: at once when it is idle, otherwise
// right after its answer has been handed to the network. Node's closeIdleConnections() falls short both ways: it
// destroys a connection whose answer was ended but not yet written out (the client then sees a reset instead of an
// answer it is billed for), and a connection whose answer ends after the call stays open until its keep-alive
// timeout (65 s, client-timeouts.ts).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export class ConnectionCloser {
  private readonly open = new Set<Socket>();
  /** Answers in progress per connection (pipelined requests queue on one). */
  private readonly answering = new Map<Socket, number>();
  private closing = false;

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.open.add(socket);
      socket.once('close', () => {
        this.open.delete(socket);
        this.answering.delete(socket);
      });
    });
    const track = (req: IncomingMessage, res: ServerResponse) => this.track(req.socket, res);
    server.on('request', track);
    server.on('checkContinue', track);
    // An upgraded connection is a WebSocket's from then on, closed by its own shutdown.
    server.on('upgrade', (_req: IncomingMessage, socket: Socket) => this.open.delete(socket));
  }

  /** Ends every idle connection now, and every other one once its answers have gone out. */
  closeWhenIdle(): void {
    this.closing = true;
    for (const socket of this.open) if (!this.answering.has(socket)) socket.end();
  }

  private track(socket: Socket, res: ServerResponse): void {
    this.answering.set(socket, (this.answering.get(socket) ?? 0) + 1);
    // 'close' follows 'finish' (the answer handed to the network) or an aborted connection.
    res.once('close', () => {
      const left = (this.answering.get(socket) ?? 1) - 1;
      if (left > 0) {
        this.answering.set(socket, left);
        return;
      }
      this.answering.delete(socket);
      if (this.closing && this.open.has(socket)) socket.end();
    });
  }
}
