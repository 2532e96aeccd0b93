// The chat door to OpenAI-compatible upstreams is the native lane (docs/lanes.md): the client's request goes as it
// wrote it, with only what the gateway must change spliced in — OpenAI's model name, gateway-only fields gone,
// stream_options.include_usage forced, the output cap under max_completion_tokens and `reasoning` as reasoning_effort
// for an OpenAI reasoning model; OpenRouter keeps its own `reasoning` and `cache_control` on content parts. Every
// chunk comes back with the vendor's fields, only `id`, `model` and the usage (with `cost`) in the door's terms; the
// record and ledger carry the vendor's usage (cached and reasoning tokens).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { listLedger } from '../../src/repositories/credits.js';

const fixture = (vendor: string, name: string) =>
  readFileSync(new URL(`../fixtures/${vendor}/${name}`, import.meta.url), 'utf8');
const OPENAI_EVENTS = fixture('openai', 'native-chat-reasoning.chunks.txt');
// gpt-5.5 (USD per 1M): input 5, cached read 0.5, output 30. 5,000 in of which 3,072 cached, 900 out:
// 1,928×5 + 3,072×0.5 + 900×30 = 38,176 USD per 1M → 38,176,000 nanos.
const COST_NANOS = 38_176_000n;

let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-proj-operator-0123456789',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      OPENROUTER_API_KEY: 'sk-or-v1-operator-0123456789',
      OPENROUTER_BASE_URL: `${upstream.url}/api/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 50);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const post = (body: Record<string, unknown>) =>
  gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key: user.key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function recordOf(id: string) {
  await gw.settled();
  return gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('chat door → OpenAI, native', () => {
  it("stream: the request as sent with the forced fields spliced, the chunks as sent with id, model and usage in the door's terms", async () => {
    upstream.reply({ kind: 'sse', chunks: [OPENAI_EVENTS] });
    const messages = [
      { role: 'developer', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Why a cache key?' },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        ],
      },
    ];
    const body = {
      model: 'openai/gpt-5.5',
      messages,
      stream: true,
      max_tokens: 2000,
      reasoning: { effort: 'high' },
      prompt_cache_key: 'conv-42',
      prompt_cache_retention: '24h',
      safety_identifier: 'user-7f3a',
      verbosity: 'low',
      metadata: { run: 'r1' },
      models: ['openai/gpt-5.4'],
      provider: { sort: 'price' },
      usage: { include: true },
    };
    const res = await post(body);
    expect(res.status).toBe(200);
    const id = res.headers.get('x-generation-id')!;
    const sse = await readSse(res);

    // (a) the upstream request
    const sent = upstream.last;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toEqual({
      model: 'gpt-5.5',
      messages,
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 2000,
      reasoning_effort: 'high',
      prompt_cache_key: 'conv-42',
      prompt_cache_retention: '24h',
      safety_identifier: 'user-7f3a',
      verbosity: 'low',
      metadata: { run: 'r1' },
    });
    expect(sent.rawBody).toContain(`"messages":${JSON.stringify(messages)}`);
    expect(sent.headers.authorization).toBe('Bearer sk-proj-operator-0123456789');

    // (b) the chunks: the vendor's, every field kept (obfuscation, service_tier, logprobs), id and model the door's
    const upstreamChunks = readSseText(OPENAI_EVENTS);
    expect(sse.done).toBe(true);
    for (const chunk of sse.chunks)
      expect(chunk).toMatchObject({
        id,
        model: 'openai/gpt-5.5',
        object: 'chat.completion.chunk',
        service_tier: 'default',
      });
    expect(sse.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(
      'The cache key keeps turns on one endpoint.',
    );
    expect(sse.chunks.slice(0, 4).map((c) => c.obfuscation)).toEqual(
      upstreamChunks.slice(0, 4).map((c) => c.obfuscation),
    );
    // The finish chunk leaves with the usage, in the door's terms with the cost.
    const last = sse.chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage).toMatchObject({
      prompt_tokens: 5000,
      completion_tokens: 900,
      total_tokens: 5900,
      prompt_tokens_details: { cached_tokens: 3072 },
      completion_tokens_details: { reasoning_tokens: 640 },
      cost: Number(COST_NANOS) / 1e9,
    });

    // (c) record and ledger
    const row = await recordOf(id);
    expect(row).toMatchObject({
      api_format: 'chat_completions',
      streamed: true,
      status: 'success',
      provider: 'openai',
      upstream_model: 'gpt-5.5',
      prompt_tokens: 5000,
      cached_tokens: 3072,
      completion_tokens: 900,
      reasoning_tokens: 640,
      upstream_id: 'chatcmpl-CZp4T1mW8xQ2vN7bK3rL9sY5hJ6dF',
    });
    expect(row.cost_nanos).toBe(COST_NANOS);
    const debits = (await listLedger(gw.db, user.userId, 50)).filter((entry) => entry.generation_id === id);
    expect(debits.map((entry) => entry.amount_nanos)).toEqual([-COST_NANOS]);
  });
});

describe('a part type the gateway does not model', () => {
  it('to a provider of another protocol (the translated lane): 400 naming the type, nothing sent', async () => {
    const res = await post({
      model: 'anthropic/claude-haiku-5-5',
      messages: [
        { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }] },
      ],
    });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.message).toContain('"input_audio"');
    expect(error.metadata).toMatchObject({ reason: 'content_type_not_supported' });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('chat door → OpenRouter, native', () => {
  it("JSON: cache_control on content parts and OpenRouter's reasoning reach OpenRouter; its answer keeps its fields", async () => {
    const answer = JSON.parse(fixture('openrouter', 'reasoning.json'));
    upstream.reply({ kind: 'json', body: answer });
    const messages = [
      {
        role: 'system',
        content: [
          { type: 'text', text: 'A long, stable system prompt.', cache_control: { type: 'ephemeral', ttl: '1h' } },
        ],
      },
      { role: 'user', content: 'How many r in strawberry?' },
    ];
    const res = await post({
      model: 'openrouter/anthropic/claude-sonnet-5.5',
      messages,
      reasoning: { max_tokens: 2000 },
      stream: false,
      provider: { sort: 'price' },
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-generation-id')!;
    const body = await res.json();
    expect(upstream.last.path).toBe('/api/v1/chat/completions');
    expect(upstream.last.body).toEqual({
      model: 'anthropic/claude-sonnet-5.5',
      messages,
      reasoning: { max_tokens: 2000 },
      stream: false,
    });
    expect(body).toMatchObject({ id, model: 'openrouter/anthropic/claude-sonnet-5.5', object: 'chat.completion' });
    expect(body.choices[0].message).toMatchObject({
      content: answer.choices[0].message.content,
      reasoning_details: answer.choices[0].message.reasoning_details,
    });
    expect(body.choices[0].native_finish_reason).toBe('end_turn');
    const row = await recordOf(id);
    expect(row).toMatchObject({
      provider: 'openrouter',
      prompt_tokens: 3120,
      cached_tokens: 2048,
      cache_write_tokens: 512,
      completion_tokens: 96,
      reasoning_tokens: 58,
    });
  });

  it('web_search_options, whose per-search fees a chat answer gives no count of, is left out and named in x-modelgate-warning', async () => {
    upstream.reply({ kind: 'json', body: JSON.parse(fixture('openrouter', 'reasoning.json')) });
    const messages = [{ role: 'user', content: 'What changed in Node 24?' }];
    const res = await post({
      model: 'openrouter/anthropic/claude-sonnet-5.5',
      messages,
      stream: false,
      web_search_options: { search_context_size: 'high' },
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-generation-id')!;
    await res.json();
    expect(upstream.last.body).toEqual({ model: 'anthropic/claude-sonnet-5.5', messages, stream: false });
    expect(res.headers.get('x-modelgate-warning')).toMatch(
      /^web_search_options left out: the gateway cannot meter its per-search fees/,
    );
    expect(await recordOf(id)).toMatchObject({ web_search_requests: 0 });
  });
});

/** The data chunks of an SSE text, parsed ([DONE] left out). */
function readSseText(text: string): any[] {
  return text
    .split('\n\n')
    .map((block) => block.replace(/^data: /, ''))
    .filter((data) => data && data !== '[DONE]')
    .map((data) => JSON.parse(data));
}
