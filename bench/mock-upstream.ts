// The benchmark's mock OpenAI-compatible upstream, run as its own process: POST /v1/chat/completions answers
// at once (JSON, or SSE with each chunk its own write), except probe requests, which are stamped and paced, and slow
// streams, which last as long as asked (mock-replies.ts); POST /v1/responses answers the same words as OpenAI's
// Responses API does (mock-responses.ts: the gateway's native Responses lane); POST /v1/messages answers them as one
// Anthropic Message (mock-messages.ts: the native Messages lane). Listens on 127.0.0.1 only.
// Usage: node mock-upstream.js <port>
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CONTENT_WORDS,
  completionJson,
  contentFrame,
  probePace,
  promptTokensFor,
  roleFrame,
  slowStream,
  stamp,
  tailFrames,
} from './mock-replies.js';
import { responseJson, responsesDelta, responsesHead, responsesProbePace, responsesTail } from './mock-responses.js';
import { MESSAGES_STREAM_REFUSED, messageJson } from './mock-messages.js';

// Frames of instant streams depend only on the model name: build them once, so the floor stays cheap.
const instantFrames = new Map<string, string[]>();
function framesFor(model: string): string[] {
  let frames = instantFrames.get(model);
  if (!frames) {
    frames = [roleFrame(model), ...CONTENT_WORDS.map((word) => contentFrame(model, word))];
    instantFrames.set(model, frames);
  }
  return frames;
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method === 'GET' && req.url === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  const responsesApi = req.method === 'POST' && req.url?.endsWith('/responses') === true;
  const messagesApi = req.method === 'POST' && req.url?.endsWith('/messages') === true;
  if (!responsesApi && !messagesApi && (req.method !== 'POST' || !req.url?.endsWith('/chat/completions'))) {
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"error":{"message":"not found","type":"invalid_request_error"}}');
    return;
  }
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const raw = Buffer.concat(parts);
  let body: { model?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown } };
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    res
      .writeHead(400, { 'content-type': 'application/json' })
      .end('{"error":{"message":"invalid JSON","type":"invalid_request_error"}}');
    return;
  }
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const promptTokens = promptTokensFor(raw.length);
  if (responsesApi) return answerResponses(res, body, model, promptTokens);
  if (messagesApi) {
    const json = body.stream === true ? MESSAGES_STREAM_REFUSED : messageJson(model, promptTokens);
    res
      .writeHead(body.stream === true ? 400 : 200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(json),
      })
      .end(json);
    return;
  }
  if (body.stream !== true) {
    const json = completionJson(model, promptTokens);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) }).end(json);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const pace = probePace(body);
  const slow = slowStream(body);
  if (slow !== undefined) {
    res.write(roleFrame(model));
    for (let i = 0; i < slow.chunks; i++) {
      await sleep(slow.everyMs);
      if (res.destroyed) return;
      res.write(contentFrame(model, CONTENT_WORDS[i % CONTENT_WORDS.length]));
    }
  } else if (pace === undefined) {
    for (const frame of framesFor(model)) res.write(frame);
  } else {
    res.write(roleFrame(model));
    for (let i = 0; i < CONTENT_WORDS.length; i++) {
      if (i > 0 && pace > 0) await sleep(pace);
      if (res.destroyed) return;
      res.write(contentFrame(model, `${CONTENT_WORDS[i]}${stamp(process.hrtime.bigint())}`));
    }
  }
  for (const frame of tailFrames(model, promptTokens, body.stream_options?.include_usage === true)) res.write(frame);
  res.end();
}

/** OpenAI's Responses API: one Response object, or its events with the words (stamped and paced for probes). */
async function answerResponses(
  res: http.ServerResponse,
  body: { stream?: unknown },
  model: string,
  promptTokens: number,
): Promise<void> {
  if (body.stream !== true) {
    const json = responseJson(model, promptTokens);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) }).end(json);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const frame of responsesHead(model)) res.write(frame);
  const pace = responsesProbePace(body);
  let text = '';
  for (let i = 0; i < CONTENT_WORDS.length; i++) {
    if (pace !== undefined && i > 0 && pace > 0) await sleep(pace);
    if (res.destroyed) return;
    const word = pace === undefined ? CONTENT_WORDS[i] : `${CONTENT_WORDS[i]}${stamp(process.hrtime.bigint())}`;
    text += word;
    res.write(responsesDelta(i, word));
  }
  for (const frame of responsesTail(model, promptTokens, text)) res.write(frame);
  res.end();
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err: Error) => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `mock upstream: ${err.message}`, type: 'server_error' } }));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  console.log(`mock upstream listening on 127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
