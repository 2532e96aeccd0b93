// A real HTTP receiver of webhooks (node:http on port 0): it records every request and answers each with what the
// test's `answer` says, so a test can make it fail, accept, or hold a request until it lets go.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

/** `answer(n)`: the status for the n-th request (1-based), or a promise of it (to hold the request). */
export async function startWebhookReceiver(
  answer: (n: number) => number | Promise<number> = () => 204,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve();
      void Promise.resolve(answer(received.length)).then((status) => {
        res.statusCode = status;
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor: (count) =>
      received.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
