// Memory per stream stays bounded when the client reads slowly (issue 35 §5): the gateway stops reading the upstream
// while the client's socket is full instead of buffering the upstream's stream. A client that stops reading a 48 MB
// stream leaves the gateway's response buffer near its high-water mark and the upstream blocked on its writes; once
// the client reads again, every event arrives, in order.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const EVENTS = 48 * 1024;
const PAD = 'x'.repeat(1000);
const event = (i: number) =>
  `data: ${JSON.stringify({ id: 'big', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: `<${i}>${PAD}` }, finish_reason: null }] })}\n\n`;
const TAIL = `data: ${JSON.stringify({ id: 'big', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: EVENTS, total_tokens: EVENTS + 5 } })}\n\ndata: [DONE]\n\n`;

/** Writes the stream as fast as its socket takes it, waiting for 'drain' whenever a write is refused. */
class FloodUpstream {
  written = 0;
  url = '';
  private readonly server = http.createServer((req, res) => void this.flood(req, res));

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async flood(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    for await (const _ of req) {
      // The request body is not needed.
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < EVENTS; i++) {
      if (res.destroyed) return;
      const text = event(i);
      this.written += text.length;
      if (!res.write(text)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end(TAIL);
  }
}

let upstream: FloodUpstream;
let gw: TestGateway;

beforeAll(async () => {
  upstream = await new FloodUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      MODELGATE_RATE_LIMIT_TPM: '0',
      LOG_LEVEL: 'warn',
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

describe('a client that stops reading', () => {
  it('holds the upstream back instead of buffering its stream, then gets every event', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 100);
    // The gateway's own response object for the request, to read how much it holds for the client.
    let gatewayResponse: http.ServerResponse | undefined;
    gw.gateway.server.once(
      'request',
      (_req: http.IncomingMessage, res: http.ServerResponse) => (gatewayResponse = res),
    );

    const body = JSON.stringify({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const received: Buffer[] = [];
    const { res, ended } = await new Promise<{ res: http.IncomingMessage; ended: Promise<void> }>((resolve, reject) => {
      const req = http.request(
        `${gw.url}/api/v1/chat/completions`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
        },
        (response) => {
          const ended = new Promise<void>((done) => response.on('end', done));
          response.on('data', (data: Buffer) => received.push(data));
          // Stops reading after its first bytes.
          response.once('data', () => response.pause());
          resolve({ res: response, ended });
        },
      );
      req.on('error', reject);
      req.end(body);
    });

    // Let the pipeline run into the stalled client, then check it stays put.
    let before = -1;
    for (let i = 0; i < 50 && upstream.written !== before; i++) {
      before = upstream.written;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const total = EVENTS * event(0).length;
    expect(upstream.written).toBe(before);
    // Held back: kernel socket buffers on both hops, the gateway's 1 MiB upstream queue and its socket's high-water
    // mark, far below the 48 MB the upstream has to send.
    expect(upstream.written).toBeLessThan(total / 2);
    expect(gatewayResponse).toBeDefined();
    expect(gatewayResponse!.writableLength).toBeLessThan(512 * 1024);

    res.resume();
    await ended;
    const text = Buffer.concat(received).toString('utf8');
    const numbers = [...text.matchAll(/"content":"<(\d+)>/g)].map((m) => Number(m[1]));
    expect(numbers).toHaveLength(EVENTS);
    expect(numbers.every((n, i) => n === i)).toBe(true);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  }, 60_000);
});
