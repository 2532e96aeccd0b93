// The bare reference: Koa 3 + undici `request`, forwarding POST /v1/chat/completions (and /v1/messages, /v1/responses
// for the lanes comparison) to the same path of the mock upstream and piping its answer back unchanged (no auth, no
// validation, no translation, no metering). What a gateway costs beyond this is the price of its features.
// With PASSTHROUGH_PARSE_BODY=1 it also parses the body once and reads `model`, as the least a routing proxy does: the
// lanes comparison's reference ("a bare Koa + undici proxy that parses the body once"); the main grid's
// pass-through does not, so its figures stay comparable with earlier runs.
// Usage: UPSTREAM_BASE_URL=http://127.0.0.1:P/v1 [PASSTHROUGH_PARSE_BODY=1] node passthrough.js <port>
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

const upstream = process.env.UPSTREAM_BASE_URL ?? 'http://127.0.0.1:9/v1';
const parseBody = process.env.PASSTHROUGH_PARSE_BODY === '1';
const DOOR_PATHS = new Set(['/v1/chat/completions', '/v1/messages', '/v1/responses']);
// Same pool shape as the gateway's HttpClient, so the comparison is about the work per request.
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 256 });
const app = new Koa();

function modelOf(body: Buffer): unknown {
  try {
    return (JSON.parse(body.toString('utf8')) as { model?: unknown } | null)?.model;
  } catch {
    return undefined;
  }
}

app.use(async (ctx) => {
  if (ctx.method !== 'POST' || !DOOR_PATHS.has(ctx.path)) {
    ctx.status = 404;
    return;
  }
  const parts: Buffer[] = [];
  for await (const part of ctx.req) parts.push(part as Buffer);
  const body = Buffer.concat(parts);
  if (parseBody && typeof modelOf(body) !== 'string') {
    ctx.status = 400;
    return;
  }
  const abort = new AbortController();
  // Only a client that left early aborts: aborting every finished exchange would cost a DOMException each.
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) abort.abort();
  });
  const answer = await request(`${upstream}${ctx.path.slice('/v1'.length)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: ctx.get('authorization') },
    body,
    dispatcher: agent,
    signal: abort.signal,
  });
  ctx.status = answer.statusCode;
  const type = answer.headers['content-type'];
  if (typeof type === 'string') ctx.type = type;
  ctx.body = answer.body; // A stream: Koa pipes it, so SSE chunks pass as they arrive.
});

const server = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  console.log(
    `pass-through listening on 127.0.0.1:${(server.address() as AddressInfo).port} → ${upstream}${parseBody ? ' (parses each body once)' : ''}`,
  );
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
