// Requests that ask to switch protocols reach Node's 'upgrade' event, not the app, once anything listens for it. Each
// is handed to the app as an ordinary request, its response written onto the socket, so routing, authentication and
// the error envelope answer it as any other; a route that takes the upgrade (responses-websocket.ts) finds the socket
// on the request. A request the app answers over HTTP closes its connection afterwards: it was opened to be upgraded.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

const UPGRADE = Symbol('upgrade');

/** The connection of a request that asked to switch protocols, and what of it was read past its headers. */
export interface PendingUpgrade {
  socket: Duplex;
  head: Buffer;
  /** Leaves the socket to the caller: the app's response will not write to it or end it. */
  take(): void;
}

export function pendingUpgradeOf(req: http.IncomingMessage): PendingUpgrade | undefined {
  return (req as { [UPGRADE]?: PendingUpgrade })[UPGRADE];
}

export function answerUpgradeRequests(
  server: http.Server,
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): void {
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    let taken = false;
    const pending: PendingUpgrade = {
      socket,
      head,
      take() {
        taken = true;
        res.detachSocket(socket as Socket);
      },
    };
    (req as { [UPGRADE]?: PendingUpgrade })[UPGRADE] = pending;
    res.once('finish', () => {
      if (taken) return;
      res.detachSocket(socket as Socket);
      socket.end();
    });
    socket.on('error', () => socket.destroy());
    handle(req, res);
  });
}
