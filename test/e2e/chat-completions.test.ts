// POST /chat/completions end to end: the running gateway in front of a local mock OpenAI-compatible upstream.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';

const UPSTREAM_KEY = 'sk-upstream-secret-123';
let gw: TestGateway;
let upstream: MockUpstream;
let user: { userId: string; key: string; keyId: string };

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: UPSTREAM_KEY,
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      DEEPSEEK_API_KEY: 'sk-deepseek',
      DEEPSEEK_BASE_URL: upstream.url,
      OPENROUTER_API_KEY: 'sk-or',
      OPENROUTER_BASE_URL: `${upstream.url}/api/v1`,
      MODELGATE_SSE_KEEPALIVE_SECONDS: '1',
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 10);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

function chat(body: unknown, init: { key?: string; headers?: Record<string, string> } = {}) {
  return gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key: init.key ?? user.key,
    headers: { 'content-type': 'application/json', ...init.headers },
    body: JSON.stringify(body),
  });
}

const completion = (
  content: string | null,
  extra: Record<string, unknown> = {},
  usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
) => ({
  id: 'chatcmpl-up1',
  object: 'chat.completion',
  created: 1760000000,
  model: 'gpt-test-2026',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content, ...extra },
      finish_reason: extra.tool_calls ? 'tool_calls' : 'stop',
    },
  ],
  usage,
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-up2',
  object: 'chat.completion.chunk',
  created: 1760000000,
  model: 'gpt-test-2026',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = (prompt: number, completion: number, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-up2',
  object: 'chat.completion.chunk',
  created: 1760000000,
  model: 'gpt-test-2026',
  choices: [],
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...extra },
});

const hello = [{ role: 'user', content: 'Say hello' }];

describe('non-streaming', () => {
  it('forwards the bare model name with the provider key and answers one Completion with usage and cost', async () => {
    upstream.reply({ kind: 'json', body: completion('Hello!') });
    const res = await chat({ model: 'openai/gpt-test', messages: hello, stream: false, temperature: 0.2 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body: any = await res.json();
    expect(upstream.requests).toHaveLength(1);
    const sent = upstream.last;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(sent.rawBody).not.toContain(user.key);
    expect(JSON.stringify(sent.headers)).not.toContain(user.key);
    expect(sent.body).toMatchObject({ model: 'gpt-test-2026', messages: hello, stream: false, temperature: 0.2 });
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'openai/gpt-test',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    expect(body.id).toMatch(/^gen-/);
    // 10 × $2/M + 5 × $8/M
    expect(body.usage.cost).toBeCloseTo(0.00006, 12);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers JSON when stream is omitted and Accept asks for JSON (the OpenAI SDKs), SSE otherwise', async () => {
    upstream.reply({ kind: 'json', body: completion('json') });
    const asJson = await chat(
      { model: 'openai/gpt-test', messages: hello },
      { headers: { accept: 'application/json' } },
    );
    expect(asJson.headers.get('content-type')).toMatch(/application\/json/);
    expect(upstream.last.body.stream).toBe(false);
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([chunk({ role: 'assistant', content: 'sse' }), chunk({}, 'stop'), usageChunk(3, 1)]),
    });
    const asSse = await chat({ model: 'openai/gpt-test', messages: hello });
    expect(asSse.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect((await readSse(asSse)).done).toBe(true);
  });

  it('returns tool calls with finish_reason tool_calls and forwards the assistant/tool round trip', async () => {
    const toolCalls = [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
    ];
    const tools = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string', description: 'City' } },
            required: ['city'],
          },
        },
      },
    ];
    upstream.reply({ kind: 'json', body: completion(null, { tool_calls: toolCalls }) });
    const first: any = await (
      await chat({ model: 'openai/gpt-test', messages: hello, tools, tool_choice: 'auto', stream: false })
    ).json();
    expect(upstream.last.body.tools).toEqual(tools);
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(first.choices[0].message.tool_calls).toEqual(toolCalls);

    upstream.reply({ kind: 'json', body: completion('Sunny in both.') });
    const followUp = [
      ...hello,
      { role: 'assistant', content: null, tool_calls: toolCalls },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"temp":25}' },
    ];
    const second: any = await (
      await chat({ model: 'openai/gpt-test', messages: followUp, tools, stream: false })
    ).json();
    expect(second.choices[0].message.content).toBe('Sunny in both.');
    expect(upstream.last.body.messages).toEqual(followUp);
  });

  it('maps DeepSeek reasoning_content to message.reasoning and reports reasoning tokens', async () => {
    upstream.reply({
      kind: 'json',
      body: completion('42', { reasoning_content: 'Think: 6×7' }, {
        prompt_tokens: 20,
        completion_tokens: 30,
        total_tokens: 50,
        prompt_cache_hit_tokens: 8,
        prompt_cache_miss_tokens: 12,
        completion_tokens_details: { reasoning_tokens: 25 },
      } as any),
    });
    const body: any = await (
      await chat({ model: 'deepseek/deepseek-reasoner', messages: hello, stream: false })
    ).json();
    expect(upstream.last.path).toBe('/chat/completions');
    expect(body.choices[0].message).toMatchObject({ content: '42', reasoning: 'Think: 6×7' });
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(25);
    expect(body.usage.prompt_tokens_details.cached_tokens).toBe(8);
    // 12 uncached × 0.5 + 8 cached × 0.1 + 30 × 2 = 66.8 per 1M
    expect(body.usage.cost).toBeCloseTo(0.0000668, 12);
  });
});

describe('streaming', () => {
  it('streams role, content and one final chunk with finish_reason and usage (cost), one id throughout, then [DONE]', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({}, 'stop'),
        usageChunk(10, 5),
      ]),
    });
    const res = await chat({ model: 'openai/gpt-test', messages: hello, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const sse = await readSse(res);
    expect(upstream.last.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(sse.done).toBe(true);
    const ids = new Set(sse.chunks.map((c) => c.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^gen-/);
    // Headers set before the stream started travel with it.
    expect(res.headers.get('x-generation-id')).toBe([...ids][0]);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(sse.chunks[0].choices[0].delta.role).toBe('assistant');
    expect(sse.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Hello');
    const last = sse.chunks[sse.chunks.length - 1];
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
    expect(last.usage.cost).toBeCloseTo(0.00006, 12);
    expect(sse.chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
    for (const c of sse.chunks) expect(c).toMatchObject({ object: 'chat.completion.chunk', model: 'openai/gpt-test' });
  });

  it('streams parallel tool-call deltas with their index, id and argument fragments', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
        chunk({}, 'tool_calls'),
        usageChunk(5, 5),
      ]),
    });
    const sse = await readSse(await chat({ model: 'openai/gpt-test', messages: hello, stream: true }));
    const deltas = sse.chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    const args = (i: number) =>
      deltas
        .filter((d: any) => d.index === i)
        .map((d: any) => d.function?.arguments ?? '')
        .join('');
    expect(args(0)).toBe('{"x":1}');
    expect(args(1)).toBe('{}');
    expect(deltas.find((d: any) => d.index === 1).id).toBe('call_b');
    expect(sse.chunks[sse.chunks.length - 1].choices[0].finish_reason).toBe('tool_calls');
  });

  it('streams DeepSeek reasoning_content as delta.reasoning, and drops it when reasoning.exclude is set', async () => {
    const upstreamChunks = openAiSse([
      chunk({ role: 'assistant', reasoning_content: 'hmm' }),
      chunk({ content: 'ok' }),
      chunk({}, 'stop'),
      usageChunk(4, 4),
    ]);
    upstream.reply({ kind: 'sse', chunks: upstreamChunks }, { kind: 'sse', chunks: upstreamChunks });
    const shown = await readSse(await chat({ model: 'deepseek/deepseek-reasoner', messages: hello, stream: true }));
    expect(shown.chunks.map((c) => c.choices[0]?.delta?.reasoning ?? '').join('')).toBe('hmm');
    const hidden = await readSse(
      await chat({ model: 'deepseek/deepseek-reasoner', messages: hello, stream: true, reasoning: { exclude: true } }),
    );
    expect(JSON.stringify(hidden.chunks)).not.toContain('hmm');
    expect(hidden.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('ok');
  });

  it('sends keep-alive comments while the upstream is silent', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: [
        ...openAiSse([chunk({ content: 'a' })], false),
        { pauseMs: 1600 },
        ...openAiSse([chunk({}, 'stop'), usageChunk(1, 1)]),
      ],
    });
    const sse = await readSse(await chat({ model: 'openai/gpt-test', messages: hello, stream: true }));
    expect(sse.comments.some((c) => c.startsWith(': keep-alive'))).toBe(true);
    expect(sse.done).toBe(true);
  });

  it('reports an upstream cut mid-stream as an error chunk (server_error), then [DONE]', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([chunk({ content: 'par' }), chunk({ content: 'tial' })], false),
      cutAfter: 2,
    });
    const sse = await readSse(await chat({ model: 'openai/gpt-test', messages: hello, stream: true }));
    const last = sse.chunks[sse.chunks.length - 1];
    expect(last.choices[0].finish_reason).toBe('error');
    expect(last.choices[0].error.code).toBe('server_error');
    expect(typeof last.choices[0].error.message).toBe('string');
    expect(sse.done).toBe(true);
  });

  describe.each(['destroy', 'reset'] as const)(
    'an upstream whose socket closes (%s) in the tick it sends its last bytes',
    (close) => {
      const contents = (chunks: any[]) =>
        chunks.map((c) => c.choices[0]?.delta?.content).filter((text) => text !== undefined && text !== '');

      async function expectDeliveredThenError(res: Response, texts: string[]) {
        expect(res.status).toBe(200);
        const sse = await readSse(res);
        expect(contents(sse.chunks)).toEqual(texts);
        expect(sse.chunks[sse.chunks.length - 1].choices[0]).toMatchObject({
          finish_reason: 'error',
          error: { code: 'server_error' },
        });
        expect(sse.chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
        expect(sse.done).toBe(true);
      }

      it('head, first chunks and close together: every chunk in order, then the error chunk and [DONE]', async () => {
        upstream.reply({
          kind: 'sse-drop',
          chunks: openAiSse(
            [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hel' }), chunk({ content: 'lo' })],
            false,
          ),
          close,
        });
        await expectDeliveredThenError(await chat({ model: 'openai/gpt-test', messages: hello, stream: true }), [
          'Hel',
          'lo',
        ]);
      });

      it('later, one more chunk and the close together: that last chunk is delivered too', async () => {
        upstream.reply({
          kind: 'sse-drop',
          chunks: openAiSse([chunk({ content: 'Hel' }), chunk({ content: 'lo' })], false),
          late: openAiSse([chunk({ content: '!' })], false),
          close,
        });
        await expectDeliveredThenError(await chat({ model: 'openai/gpt-test', messages: hello, stream: true }), [
          'Hel',
          'lo',
          '!',
        ]);
      });

      it('a close before any byte, when the upstream produced nothing, is a 502 in the error envelope', async () => {
        upstream.reply({ kind: 'sse-drop', chunks: [], head: false, close });
        const res = await chat({ model: 'openai/gpt-test', messages: hello, stream: true });
        expect(res.status).toBe(502);
        const body: any = await res.json();
        expect(body.error).toMatchObject({ code: 502, metadata: { provider: 'openai', reason: 'upstream_error' } });
      });
    },
  );

  it('a stream cut after the upstream reported usage bills that usage; without a report, an estimate of the delivered text', async () => {
    upstream.reply({
      kind: 'sse-drop',
      chunks: openAiSse([chunk({ content: 'Hello' }), chunk({}, 'stop'), usageChunk(100, 50)], false),
      close: 'reset',
    });
    const reported = await readSse(await chat({ model: 'openai/gpt-test', messages: hello, stream: true }));
    const last = reported.chunks[reported.chunks.length - 1];
    expect(last.choices[0].finish_reason).toBe('error');
    expect(last.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 50 });
    // 100 × $2/M + 50 × $8/M
    expect(last.usage.cost).toBeCloseTo(0.0006, 12);
    const record = await gw.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', last.id)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      status: 'error',
      finish_reason: 'error',
      error_code: 'server_error',
      prompt_tokens: 100,
      completion_tokens: 50,
    });
    expect(BigInt(record.cost_nanos)).toBe(600_000n);

    upstream.reply({ kind: 'sse-drop', chunks: openAiSse([chunk({ content: 'Hello there' })], false), close: 'reset' });
    const estimated = await readSse(await chat({ model: 'openai/gpt-test', messages: hello, stream: true }));
    const estimatedRecord = await gw.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', estimated.chunks[0].id)
      .executeTakeFirstOrThrow();
    expect(estimatedRecord.completion_tokens).toBeGreaterThan(0);
    expect(BigInt(estimatedRecord.cost_nanos)).toBeGreaterThan(0n);
  });

  it('reports an in-stream upstream error object as an error chunk with its mapped code', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ content: 'x' }),
        { error: { message: 'Rate limit reached', type: 'rate_limit_error', code: 'rate_limit_exceeded' } },
      ]),
    });
    const sse = await readSse(await chat({ model: 'openai/gpt-test', messages: hello, stream: true }));
    const last = sse.chunks[sse.chunks.length - 1];
    expect(last.choices[0]).toMatchObject({ finish_reason: 'error', error: { code: 'rate_limit' } });
  });
});

describe('errors before the stream', () => {
  it('keeps an upstream 429 as 429 with Retry-After and provider metadata', async () => {
    upstream.reply({
      kind: 'json',
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { message: 'Rate limit', type: 'rate_limit_error' } },
    });
    const res = await chat({ model: 'openai/gpt-test', messages: hello, stream: true });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    const body: any = await res.json();
    expect(body.error.code).toBe(429);
    expect(body.error.metadata).toMatchObject({ provider: 'openai', upstream_status: 429 });
  });

  it('maps an upstream 500 to 502 and an unreachable upstream to 503', async () => {
    upstream.reply({ kind: 'json', status: 500, body: { error: { message: 'boom', type: 'server_error' } } });
    const res = await chat({ model: 'openai/gpt-test', messages: hello, stream: false });
    expect(res.status).toBe(502);
    expect(((await res.json()) as any).error.metadata.upstream_status).toBe(500);

    const down = await startTestGateway({
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      },
      database: { db: gw.db, close: async () => undefined },
    });
    try {
      const unreachable = await down.fetch('/api/v1/chat/completions', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-test', messages: hello, stream: false }),
      });
      expect(unreachable.status).toBe(503);
    } finally {
      await down.close();
    }
  });

  it('answers 404 for unknown models, 400 for a malformed id, 503 for a provider without a key — without calling out', async () => {
    const unknown: any = await (await chat({ model: 'openai/nope', messages: hello })).json();
    expect(unknown.error.code).toBe(404);
    const provider = await chat({ model: 'acme/model', messages: hello });
    expect(provider.status).toBe(404);
    const malformed: any = await (await chat({ model: 'gpt-4o', messages: hello })).json();
    expect(malformed.error.code).toBe(400);
    expect(malformed.error.message).toContain('<provider>/<model-name>');
    const unconfigured: any = await (await chat({ model: 'mistral/unconfigured', messages: hello })).json();
    expect(unconfigured.error.code).toBe(503);
    expect(unconfigured.error.message).toContain('MISTRAL_API_KEY');
    expect(upstream.requests).toHaveLength(0);
  });

  it('rejects images for a model without image support with 400, before calling upstream', async () => {
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
    ];
    const res = await chat({ model: 'deepseek/deepseek-reasoner', messages });
    expect(res.status).toBe(400);
    const body: any = await res.json();
    expect(body.error.metadata.reason).toBe('image_input_not_supported');
    expect(upstream.requests).toHaveLength(0);

    upstream.reply({ kind: 'json', body: completion('A cat.') });
    const ok = await chat({ model: 'openai/gpt-test', messages, stream: false });
    expect(ok.status).toBe(200);
    expect(upstream.last.body.messages[0].content[1]).toEqual(messages[0].content[1]);
  });

  it('rejects a prompt over the context window before calling upstream', async () => {
    const res = await chat({
      model: 'openai/tiny-context',
      messages: [{ role: 'user', content: 'word '.repeat(200) }],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.metadata.reason).toBe('context_length_exceeded');
    expect(upstream.requests).toHaveLength(0);
  });

  it('maps an upstream context-length error to 400 with reason context_length_exceeded', async () => {
    upstream.reply({
      kind: 'json',
      status: 400,
      body: {
        error: {
          message: "This model's maximum context length is 128000 tokens.",
          type: 'invalid_request_error',
          code: 'context_length_exceeded',
        },
      },
    });
    const res = await chat({ model: 'openai/gpt-test', messages: hello, stream: false });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.metadata.reason).toBe('context_length_exceeded');
  });
});
