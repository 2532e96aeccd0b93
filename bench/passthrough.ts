// The bare reference: Koa 3 + undici `request`, forwarding POST /v1/chat/completions to the mock upstream and
// piping its answer back unchanged (no auth, no validation, no translation, no metering). What a gateway
// costs beyond this is the price of its features. Usage: UPSTREAM_BASE_URL=http://127.0.0.1:P/v1 node passthrough.js <port>
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

const upstream = `${process.env.UPSTREAM_BASE_URL ?? 'http://127.0.0.1:9/v1'}/chat/completions`;
// Same pool shape as the gateway's HttpClient, so the comparison is about the work per request.
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 256 });
const app = new Koa();

app.use(async (ctx) => {
  if (ctx.method !== 'POST' || ctx.path !== '/v1/chat/completions') {
    ctx.status = 404;
    return;
  }
  const parts: Buffer[] = [];
  for await (const part of ctx.req) parts.push(part as Buffer);
  const abort = new AbortController();
  // Only a client that left early aborts: aborting every finished exchange would cost a DOMException each.
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) abort.abort();
  });
  const answer = await request(upstream, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: ctx.get('authorization') },
    body: Buffer.concat(parts),
    dispatcher: agent,
    signal: abort.signal,
  });
  ctx.status = answer.statusCode;
  const type = answer.headers['content-type'];
  if (typeof type === 'string') ctx.type = type;
  ctx.body = answer.body; // A stream: Koa pipes it, so SSE chunks pass as they arrive.
});

const server = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  console.log(`pass-through listening on 127.0.0.1:${(server.address() as AddressInfo).port} → ${upstream}`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
