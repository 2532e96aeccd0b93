// A slow client never makes the gateway buffer a WebSocket stream without bound: while the client reads nothing, the
// stream writer stops pulling batches (which is what pauses the upstream read) once the bytes queued on the socket
// pass the high-water mark. Measured on the bytes queued (bufferedAmount), never on time.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { HIGH_WATER_BYTES, WebSocketSender } from '../../src/http/websocket-sender.js';
import { writeSocketStream } from '../../src/http/websocket-stream.js';

const FRAME = `{"type":"response.output_text.delta","delta":"${'x'.repeat(64 * 1024)}"}`;
const BATCHES = 400; // 400 × 64 KiB: far more than the socket buffers of both ends hold

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A server socket and a client that has not started reading. */
async function pausedPair(): Promise<{ server: WebSocket; client: WebSocket }> {
  const httpServer = http.createServer();
  const wss = new WebSocketServer({ server: httpServer });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}`);
  await new Promise((resolve) => client.once('open', resolve));
  const server = await accepted;
  (client as unknown as { _socket: import('node:net').Socket })._socket.pause();
  cleanup = async () => {
    client.terminate();
    wss.close();
    await new Promise((resolve) => httpServer.close(resolve));
  };
  return { server, client };
}

describe('the WebSocket stream writer and a client that does not read', () => {
  it('pulls the next batch only while the bytes queued stay under the high-water mark', async () => {
    const { server, client } = await pausedPair();
    let pulled = 0;
    let mostQueued = 0;
    async function* batches(): AsyncGenerator<string[], undefined> {
      for (; pulled < BATCHES; ) {
        mostQueued = Math.max(mostQueued, server.bufferedAmount);
        pulled++;
        yield [`data: ${FRAME}\n\n`];
      }
      return undefined;
    }
    const received = new Promise<number>((resolve) => {
      let frames = 0;
      client.on('message', () => {
        if (++frames === BATCHES) resolve(frames);
      });
    });
    const written = writeSocketStream(new WebSocketSender(server), { batches: batches() });
    // Give an unbounded writer every chance to queue everything, then let the client read.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pulledWhilePaused = pulled;
    (client as unknown as { _socket: import('node:net').Socket })._socket.resume();
    expect(await written).toBe(true);
    expect(await received).toBe(BATCHES);
    expect(pulledWhilePaused).toBeLessThan(BATCHES);
    expect(mostQueued).toBeLessThanOrEqual(HIGH_WATER_BYTES + FRAME.length + 64);
  });

  it('stops reading the batches once the client is gone', async () => {
    const { server, client } = await pausedPair();
    let returned = false;
    async function* batches(): AsyncGenerator<string[], undefined> {
      try {
        for (;;) yield [`data: ${FRAME}\n\n`];
      } finally {
        returned = true;
      }
    }
    const written = writeSocketStream(new WebSocketSender(server), { batches: batches() });
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.terminate();
    expect(await written).toBe(false);
    expect(returned).toBe(true);
  });
});
