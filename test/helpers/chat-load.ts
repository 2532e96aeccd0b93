// Steady chat-completions load for the database-restart and crash tests: clients in a loop, each request JSON or
// streamed in turn, each outcome kept with what the client was told (status, Retry-After, the error envelope, the
// generation id and the cost in `usage.cost`), and a mock upstream reply whose usage differs per request, so that
// every answer has a cost of its own.
import http from 'node:http';
import { usdToNanos } from '../../src/core/money.js';
import { openAiSse, type RecordedRequest, type Reply } from './mock-upstream.js';

export interface ChatOutcome {
  stream: boolean;
  /** 0: no HTTP answer at all (connection refused or cut before the status line). */
  status: number;
  retryAfter?: string;
  /** The parsed error body of a non-200 answer, or the raw text when it was not JSON. */
  error?: unknown;
  /** The generation id the answer named (body id, or the chunks' id). */
  id?: string;
  /** `usage.cost` as the client read it: the JSON body's, or the stream's usage chunk's. */
  costNanos?: bigint;
  /** A JSON body read whole, or a stream that ended with `data: [DONE]`. */
  complete: boolean;
  /** The request's connection failed (before or after the status line). */
  transportError?: string;
  startedAt: number;
  endedAt: number;
}

/** A reply for the mock upstream: the completion tokens follow the `n` the request's prompt carries. */
export function pricedReply(request: RecordedRequest, chunkPauseMs = 15): Reply {
  const prompt = String(request.body?.messages?.[0]?.content ?? '');
  const n = Number(/#(\d+)/.exec(prompt)?.[1] ?? 0);
  const usage = { prompt_tokens: 11, completion_tokens: 5 + (n % 97), total_tokens: 16 + (n % 97) };
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model: 'gpt-test-2026' };
  if (request.body?.stream !== true) {
    return {
      kind: 'json',
      body: {
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        created: 1,
        model: 'gpt-test-2026',
        choices: [{ index: 0, message: { role: 'assistant', content: `answer ${n}` }, finish_reason: 'stop' }],
        usage,
      },
    };
  }
  const chunks = openAiSse([
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: { content: 'answer ' }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: { content: String(n) }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    { ...base, choices: [], usage },
  ]);
  return {
    kind: 'sse',
    chunks: chunks.flatMap((chunk, i) => (i === 0 ? [chunk] : [{ pauseMs: chunkPauseMs }, chunk])),
  };
}

export interface ChatLoadOptions {
  /** The gateway's URL now (it may change between requests: a restarted process). */
  url: () => string;
  key: string;
  model: string;
  clients: number;
  /** Clients stop starting requests once this returns true. */
  done: () => boolean;
  /** Pause after a request that got no answer (the gateway is down), before the next. */
  retryPauseMs?: number;
  /** Sees each outcome as its request ends. */
  onOutcome?: (outcome: ChatOutcome) => void;
}

/** Runs the clients until `done()`; resolves with every outcome once the last request ended. */
export async function runChatLoad(options: ChatLoadOptions): Promise<ChatOutcome[]> {
  const outcomes: ChatOutcome[] = [];
  let counter = 0;
  const client = async (index: number) => {
    for (let turn = index; !options.done(); turn++) {
      const outcome = await chatRequest(options.url(), options.key, options.model, ++counter, turn % 2 === 1);
      outcomes.push(outcome);
      options.onOutcome?.(outcome);
      if (outcome.status === 0) await new Promise((resolve) => setTimeout(resolve, options.retryPauseMs ?? 50));
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, i) => client(i)));
  return outcomes;
}

/** One chat completion request on a connection of its own, read as a client would. */
export function chatRequest(url: string, key: string, model: string, n: number, stream: boolean): Promise<ChatOutcome> {
  const startedAt = Date.now();
  const body = JSON.stringify({
    model,
    stream,
    messages: [{ role: 'user', content: `request #${n}` }],
    max_tokens: 200,
  });
  return new Promise((resolve) => {
    const outcome: ChatOutcome = { stream, status: 0, complete: false, startedAt, endedAt: 0 };
    const finish = (transportError?: string) => {
      if (outcome.endedAt !== 0) return;
      if (transportError !== undefined) outcome.transportError = transportError;
      outcome.endedAt = Date.now();
      resolve(outcome);
    };
    const req = http.request(
      `${url}/api/v1/chat/completions`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: stream ? 'text/event-stream' : 'application/json',
          connection: 'close',
        },
      },
      (res) => {
        outcome.status = res.statusCode ?? 0;
        const retryAfter = res.headers['retry-after'];
        if (retryAfter !== undefined) outcome.retryAfter = String(retryAfter);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (stream && outcome.status === 200) readFrames(text, outcome);
        });
        res.on('end', () => {
          if (outcome.status !== 200) outcome.error = parseOr(text);
          else if (!stream) readJson(text, outcome);
          finish();
        });
        res.on('error', (err) => finish(err.message));
        res.on('aborted', () => finish('aborted'));
      },
    );
    req.on('error', (err) => finish(err.message));
    req.end(body);
  });
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function readJson(text: string, outcome: ChatOutcome): void {
  const body = parseOr(text) as { id?: string; usage?: { cost?: number } } | string;
  if (typeof body !== 'object' || body === null) return;
  outcome.id = body.id;
  if (typeof body.usage?.cost === 'number') outcome.costNanos = usdToNanos(body.usage.cost);
  outcome.complete = true;
}

/** Reads the stream so far: the chunks' id, the usage chunk's cost, and whether `[DONE]` came. */
function readFrames(text: string, outcome: ChatOutcome): void {
  for (const frame of text.split('\n\n')) {
    const data = frame
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6))
      .join('\n');
    if (data === '[DONE]') outcome.complete = true;
    else if (data.startsWith('{')) {
      const chunk = parseOr(data) as { id?: string; usage?: { cost?: number } } | string;
      if (typeof chunk !== 'object' || chunk === null) continue;
      outcome.id ??= chunk.id;
      if (typeof chunk.usage?.cost === 'number') outcome.costNanos = usdToNanos(chunk.usage.cost);
    }
  }
}

/** An outcome as text, for assertion messages. */
export function describeOutcome(outcome: ChatOutcome): string {
  return JSON.stringify(outcome, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
}
