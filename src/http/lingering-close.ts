// Closing a connection right after an answer, while the client may still be sending its request body. Destroying the
// socket at once, with unread bytes arriving, makes the kernel send a reset, which may discard the answer on the
// client's side before it is read. So the socket half-closes after the answer and lingers (as nginx's
// `lingering_timeout`), the arriving bytes dropped, until the client closes its side or LINGER_MS pass.
import type { Socket } from 'node:net';
import type { Context } from 'koa';

export const LINGER_MS = 5_000;

/** Half-closes `socket` after writing `last` (if given) and destroys it once the client closes, at most LINGER_MS later. */
export function lingeringClose(socket: Socket, last?: string): void {
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  if (last === undefined) socket.end();
  else socket.end(last);
}

/**
 * The answer of `ctx` goes out with `Connection: close`, and the connection then closes lingering. Node closes the
 * connection of such an answer with `socket.destroySoon()` (end, then destroy once written); this socket's own
 * destroySoon lingers instead. Meanwhile Node reads and drops the unread body (it dumps the request at the end of an
 * answer), so nothing of it is kept.
 */
export function closeAfterAnswer(ctx: Context): void {
  ctx.set('Connection', 'close');
  const socket = ctx.req.socket;
  socket.destroySoon = () => lingeringClose(socket);
}
