// A local stand-in for an OpenAI-compatible vendor, for conformance runs on one machine (OpenAI's Responses API too:
// mock-responses-api.ts): it answers every chat completion at once — JSON, or SSE with streamed usage when asked to
// stream — and calls the first tool when the request offers tools, so the gateway's text, tool-call, streaming and
// metering paths all run. A streamed request whose messages contain MID_STREAM_ERROR_TRIGGER fails after the first
// content chunk (an in-stream error object, as OpenAI-compatible vendors send), so `--mid-stream-error-prompt` can
// reach the gateway's mid-stream error path. Embeddings requests get one small vector per input (`dimensions` long, 8
// without), in the encoding asked for. Run as a process: `node dist/src/conformance/mock-upstream-server.js [--port N]`
// prints `listening <url>`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { readRecord, type JsonRecord } from '../providers/payload-readers.js';
import { answerResponses } from './mock-responses-api.js';

export interface MockUpstreamServer {
  url: string;
  /** Chat completion requests answered so far. */
  readonly requests: number;
  close(): Promise<void>;
}

const REPLY = 'Hello from the conformance mock upstream.';
/** A user message containing this makes a streamed answer fail mid-way. */
export const MID_STREAM_ERROR_TRIGGER = 'conformance: fail mid-stream';
const COMPLETION_TOKENS = 8;

export async function startMockUpstreamServer(
  options: { port?: number; host?: string } = {},
): Promise<MockUpstreamServer> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST' && req.url?.endsWith('/embeddings')) return answerEmbeddings(res, raw);
      const responsesApi = req.method === 'POST' && req.url?.endsWith('/responses') === true;
      if (!responsesApi && (req.method !== 'POST' || !req.url?.endsWith('/chat/completions'))) {
        return sendJson(res, 404, {
          error: { message: `mock upstream: no route ${req.method} ${req.url}`, type: 'invalid_request_error' },
        });
      }
      let body: JsonRecord;
      try {
        // The gateway sends JSON objects; each field is checked where it is read.
        body = JSON.parse(raw) as JsonRecord;
      } catch {
        return sendJson(res, 400, {
          error: { message: 'mock upstream: body is not JSON', type: 'invalid_request_error' },
        });
      }
      requests++;
      if (responsesApi) return answerResponses(body, raw, requests, res);
      const usage = { prompt_tokens: Math.max(1, Math.ceil(raw.length / 4)), completion_tokens: COMPLETION_TOKENS };
      const fullUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
      const toolName = pickTool(body);
      const base = {
        id: `chatcmpl-mock${requests}`,
        created: Math.floor(Date.now() / 1000),
        model: String(body.model ?? 'mock'),
      };
      if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const chunk = (delta: object, finish: string | null = null) => ({
          ...base,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
        const events: object[] = [chunk({ role: 'assistant', content: '' })];
        if (JSON.stringify(body.messages ?? []).includes(MID_STREAM_ERROR_TRIGGER)) {
          events.push(chunk({ content: 'Hello' }), {
            error: {
              message: 'mock upstream: generation failed mid-stream',
              type: 'server_error',
              code: 'server_error',
            },
          });
          res.end(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
          return;
        }
        if (toolName) {
          events.push(
            chunk({
              tool_calls: [
                { index: 0, id: `call_mock${requests}`, type: 'function', function: { name: toolName, arguments: '' } },
              ],
            }),
          );
          events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }));
          events.push(chunk({}, 'tool_calls'));
        } else {
          for (const word of REPLY.split(/(?<= )/)) events.push(chunk({ content: word }));
          events.push(chunk({}, 'stop'));
        }
        if (readRecord(body.stream_options)?.include_usage)
          events.push({ ...base, object: 'chat.completion.chunk', choices: [], usage: fullUsage });
        res.end(`${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`);
        return;
      }
      const message = toolName
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: `call_mock${requests}`, type: 'function', function: { name: toolName, arguments: '{}' } },
            ],
          }
        : { role: 'assistant', content: REPLY };
      sendJson(res, 200, {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: toolName ? 'tool_calls' : 'stop' }],
        usage: fullUsage,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The tool the mock "calls": the first function offered, unless the request forbids tool calls. */
function pickTool(body: JsonRecord): string | undefined {
  if (!Array.isArray(body.tools) || body.tools.length === 0 || body.tool_choice === 'none') return undefined;
  const chosen = readRecord(readRecord(body.tool_choice)?.function)?.name;
  if (typeof chosen === 'string') return chosen;
  const name = readRecord(readRecord(body.tools[0])?.function)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** OpenAI's embeddings answer: a unit-ish vector per input, floats or base64 of float32 as asked. */
function answerEmbeddings(res: http.ServerResponse, raw: string): void {
  let body: JsonRecord;
  try {
    body = JSON.parse(raw) as JsonRecord;
  } catch {
    sendJson(res, 400, { error: { message: 'mock upstream: body is not JSON', type: 'invalid_request_error' } });
    return;
  }
  const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
  const size = typeof body.dimensions === 'number' ? body.dimensions : 8;
  const vector = Array.from({ length: size }, (_, i) => (i === 0 ? 1 : 0));
  const encoded =
    body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
  const tokens = Math.max(1, Math.ceil(raw.length / 4));
  sendJson(res, 200, {
    object: 'list',
    model: String(body.model ?? 'mock'),
    data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: encoded })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const portArg = process.argv.indexOf('--port');
  const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 0;
  const mock = await startMockUpstreamServer({ port });
  console.log(`listening ${mock.url}`);
  const stop = () => void mock.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
