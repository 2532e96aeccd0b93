// An answer does not finish before its bill is durable: the JSON body, a stream's closing events (chat's usage chunk
// and [DONE], Messages' message_stop, Responses' response.completed, Gemini's finishing chunk) and an embeddings
// answer leave only once the settlement queue says the generation's record is committed, on every door and on both
// lanes. The test holds the queue's answer back: while it is held, the client must not see the answer's end.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettlementQueue } from '../../src/billing/settlement-queue.js';
import type { Admission } from '../../src/billing/admission.js';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { createLogger } from '../../src/logger.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, type RecordedRequest, type Reply } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';
import { readFileSync } from 'node:fs';

const chunks = (vendor: string, name: string): Reply => ({
  kind: 'sse',
  chunks: [readFileSync(new URL(`../fixtures/${vendor}/${name}.chunks.txt`, import.meta.url), 'utf8')],
});
const json = (vendor: string, name: string): Reply => ({ kind: 'json', body: loadJson(vendor, name) });

/** The vendor's answer by the path the gateway called: each protocol's recorded text answer. */
function vendorReply(request: RecordedRequest): Reply {
  const stream = request.body?.stream === true;
  if (request.path.endsWith('/chat/completions')) return stream ? chunks('openai', 'text') : json('openai', 'text');
  if (request.path.endsWith('/messages')) return stream ? chunks('anthropic', 'text') : json('anthropic', 'text');
  if (request.path.endsWith('/responses')) return chunks('openai', 'native-responses-text');
  if (request.path.includes(':streamGenerateContent')) return chunks('gemini', 'text');
  if (request.path.includes(':generateContent')) return json('gemini', 'text');
  if (request.path.endsWith('/embeddings')) return json('openai', 'embeddings-float');
  return { kind: 'text', status: 404, body: `no reply for ${request.path}` };
}

/** A settlement queue whose `settle` answers only when the test lets it (the records are written as usual). */
class HeldSettlements extends SettlementQueue {
  private held = true;
  private readonly waiting: (() => void)[] = [];
  private reachedNow?: () => void;
  reached = new Promise<void>((resolve) => (this.reachedNow = resolve));

  override settle(admission: Admission, record: NewGeneration): Promise<void> {
    const written = super.settle(admission, record);
    this.reachedNow?.();
    if (!this.held) return written;
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => written);
  }

  hold(): void {
    this.held = true;
    this.reached = new Promise<void>((resolve) => (this.reachedNow = resolve));
  }

  release(): void {
    this.held = false;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

interface Exchange {
  /** Resolves once the client has read `marker` (or, for a JSON answer, its status line). */
  sawEnd: Promise<void>;
  done: Promise<{ status: number; text: string }>;
}

function send(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  marker: string | undefined,
): Exchange {
  let sawEnd!: () => void;
  const exchange: Exchange = { sawEnd: new Promise<void>((resolve) => (sawEnd = resolve)), done: undefined as never };
  exchange.done = new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${path}`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        if (marker === undefined) sawEnd();
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (marker !== undefined && text.includes(marker)) sawEnd();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
  return exchange;
}

let gw: TestGateway;
let upstream: MockUpstream;
let key: string;
let settlements: HeldSettlements;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  upstream.always(vendorReply);
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-openai-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
      GEMINI_API_KEY: 'AIzaUp',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
    },
  });
  settlements = new HeldSettlements(gw.db, createLogger('silent'));
  settlements.observer = gw.parts.settlements.observer;
  gw.parts.settlements = settlements;
  const user = await gw.createUser();
  await gw.grant(user.userId, 10);
  key = user.key;
});
afterAll(async () => {
  settlements?.release();
  await gw?.close();
  await upstream?.close();
});

const bearer = () => ({ authorization: `Bearer ${key}` });
const messages = [{ role: 'user', content: 'Hi' }];
const gemini = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

const CASES: { name: string; path: string; headers?: () => Record<string, string>; body: unknown; marker?: string }[] =
  [
    {
      name: 'chat, native, stream',
      path: '/api/v1/chat/completions',
      body: { model: 'openai/gpt-5.4-mini', stream: true, messages },
      marker: '[DONE]',
    },
    {
      name: 'chat, translated, stream',
      path: '/api/v1/chat/completions',
      body: { model: 'anthropic/claude-haiku-5-5', stream: true, messages },
      marker: '[DONE]',
    },
    {
      name: 'chat, native, JSON',
      path: '/api/v1/chat/completions',
      body: { model: 'openai/gpt-5.4-mini', stream: false, messages },
    },
    {
      name: 'chat, translated, JSON',
      path: '/api/v1/chat/completions',
      body: { model: 'anthropic/claude-haiku-5-5', stream: false, messages },
    },
    {
      name: 'messages, native, stream',
      path: '/api/v1/messages',
      body: { model: 'anthropic/claude-haiku-5-5', max_tokens: 100, stream: true, messages },
      marker: 'message_stop',
    },
    {
      name: 'messages, translated, stream',
      path: '/api/v1/messages',
      body: { model: 'openai/gpt-5.4-mini', max_tokens: 100, stream: true, messages },
      marker: 'message_stop',
    },
    {
      name: 'messages, native, JSON',
      path: '/api/v1/messages',
      body: { model: 'anthropic/claude-haiku-5-5', max_tokens: 100, messages },
    },
    {
      name: 'responses, native, stream',
      path: '/api/v1/responses',
      body: { model: 'openai/gpt-5.5', stream: true, input: 'Hi' },
      marker: 'response.completed',
    },
    {
      name: 'responses, translated, stream',
      path: '/api/v1/responses',
      body: { model: 'anthropic/claude-haiku-5-5', stream: true, input: 'Hi' },
      marker: 'response.completed',
    },
    {
      name: 'responses, translated, JSON',
      path: '/api/v1/responses',
      body: { model: 'anthropic/claude-haiku-5-5', input: 'Hi' },
    },
    {
      name: 'gemini, native, stream',
      path: '/api/v1/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      headers: () => ({ 'x-goog-api-key': key }),
      body: gemini,
      marker: 'finishReason',
    },
    {
      name: 'gemini, translated, stream',
      path: '/api/v1/gemini/v1beta/models/anthropic%2Fclaude-haiku-5-5:streamGenerateContent?alt=sse',
      headers: () => ({ 'x-goog-api-key': key }),
      body: gemini,
      marker: 'finishReason',
    },
    {
      name: 'gemini, native, JSON',
      path: '/api/v1/gemini/v1beta/models/gemini-2.5-flash:generateContent',
      headers: () => ({ 'x-goog-api-key': key }),
      body: gemini,
    },
    {
      name: 'embeddings',
      path: '/api/v1/embeddings',
      body: { model: 'openai/text-embedding-3-small', input: ['one', 'two'] },
    },
  ];

/** Long enough for bytes already written to reach the client; an end that came would come within it. */
const ARRIVAL_MS = 300;

describe('the answer ends only once its settlement is committed', () => {
  it.each(CASES)('$name', async ({ path, headers, body, marker }) => {
    settlements.hold();
    const exchange = send(gw.url, path, (headers ?? bearer)(), body, marker);
    await settlements.reached;
    const early = await Promise.race([
      exchange.sawEnd.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ARRIVAL_MS)),
    ]);
    expect(early).toBe(false);
    settlements.release();
    const { status, text } = await exchange.done;
    expect(status, text).toBe(200);
    if (marker !== undefined) expect(text).toContain(marker);
    await exchange.sawEnd;
  });
});

describe('a response-cache hit ends only once its own settlement is committed', () => {
  const HITS = [
    { name: 'JSON', stream: false, marker: undefined },
    { name: 'stream', stream: true, marker: '[DONE]' },
  ];

  it.each(HITS)('$name', async ({ stream, marker }) => {
    const path = '/api/v1/chat/completions';
    const headers = { ...bearer(), 'x-modelgate-cache': 'on' };
    const body = { model: 'openai/gpt-5.4-mini', stream, messages: [{ role: 'user', content: `cached ${stream}` }] };
    settlements.release();
    const miss = await send(gw.url, path, headers, body, marker).done;
    expect(miss.status, miss.text).toBe(200);
    settlements.hold();
    const hit = send(gw.url, path, headers, body, marker);
    await settlements.reached;
    const early = await Promise.race([
      hit.sawEnd.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ARRIVAL_MS)),
    ]);
    expect(early).toBe(false);
    settlements.release();
    const { status, text } = await hit.done;
    expect(status, text).toBe(200);
    if (marker !== undefined) expect(text).toContain(marker);
    const records = await gw.db.selectFrom('generations').select('cache_hit').where('cache_hit', '=', true).execute();
    expect(records.length).toBeGreaterThan(0);
  });
});
