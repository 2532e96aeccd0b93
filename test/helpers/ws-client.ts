// A Responses WebSocket mode client for tests: opens the socket with a key, sends events, and reads the server's
// events (one JSON object per text frame) in order, a turn at a time.
import WebSocket from 'ws';

export interface ServerEvent {
  type: string;
  [field: string]: any;
}

export interface ResponsesSocketClient {
  ws: WebSocket;
  send(event: Record<string, unknown>): void;
  /** The next event (waits for it); rejects when the socket closes first. */
  next(): Promise<ServerEvent>;
  /** Events up to and including the turn's last: response.completed / .failed / .incomplete, or an `error` event. */
  turn(): Promise<ServerEvent[]>;
  /** Resolves with the close code and reason once the socket is closed. */
  closed: Promise<{ code: number; reason: string }>;
}

const LAST = new Set(['response.completed', 'response.failed', 'response.incomplete', 'error']);

export function socketUrl(gatewayUrl: string): string {
  return `${gatewayUrl.replace(/^http/, 'ws')}/api/v1/responses`;
}

export async function openResponsesSocket(
  gatewayUrl: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<ResponsesSocketClient> {
  const ws = new WebSocket(socketUrl(gatewayUrl), { headers: { authorization: `Bearer ${key}`, ...headers } });
  const queue: ServerEvent[] = [];
  const waiters: { resolve: (e: ServerEvent) => void; reject: (err: Error) => void }[] = [];
  let closedWith: { code: number; reason: string } | undefined;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      closedWith = { code, reason: reason.toString() };
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(`socket closed (${code})`));
      resolve(closedWith);
    });
  });
  ws.on('message', (data) => {
    const event = JSON.parse(String(data)) as ServerEvent;
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(event);
    else queue.push(event);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = () =>
    queue.length > 0
      ? Promise.resolve(queue.shift()!)
      : closedWith
        ? Promise.reject(new Error(`socket closed (${closedWith.code})`))
        : new Promise<ServerEvent>((resolve, reject) => waiters.push({ resolve, reject }));
  return {
    ws,
    send: (event) => ws.send(JSON.stringify(event)),
    next,
    async turn() {
      const events: ServerEvent[] = [];
      for (;;) {
        const event = await next();
        events.push(event);
        if (LAST.has(event.type)) return events;
      }
    },
    closed,
  };
}

/** The handshake's answer when the gateway refuses to switch protocols: its status and body. */
export function refusedHandshake(
  gatewayUrl: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(socketUrl(gatewayUrl), { headers });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('open', () => reject(new Error('the handshake was accepted')));
    ws.on('error', () => undefined);
  });
}
