// A client nobody here wrote: the Vercel AI SDK (`ai` 6 with `@ai-sdk/openai-compatible` 2) against the running
// gateway. Non-stream, stream, a tools round trip, reasoning, and gateway errors surfacing as the SDK's APICallError.
//
// The AI SDK omits `stream` for non-streamed calls and sends no `Accept: application/json`, so a gateway with the
// spec's default (omitted stream = SSE) would stream at it. Two documented ways fix that; both are tested here:
// the operator sets MODELGATE_STREAM_DEFAULT=false, or the client sends `Accept: application/json` on every request
// (its streamed calls still stream, because they send `stream: true` and an explicit `stream` always wins).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let key: string;
let gateway: ReturnType<typeof createOpenAICompatible>;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      MODELGATE_STREAM_DEFAULT: 'false',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      DEEPSEEK_API_KEY: 'sk-ds',
      DEEPSEEK_BASE_URL: upstream.url,
    },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  key = user.key;
  gateway = createOpenAICompatible({ name: 'modelgate', baseURL: `${gw.url}/api/v1`, apiKey: key, includeUsage: true });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const reply = (message: Record<string, unknown>, finish = 'stop', model = 'gpt-test-2026') => ({
  id: 'chatcmpl-ai',
  object: 'chat.completion',
  created: 1,
  model,
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 },
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null, model = 'gpt-test-2026') => ({
  id: 'chatcmpl-ai',
  object: 'chat.completion.chunk',
  created: 1,
  model,
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = (prompt: number, completion: number) => ({
  ...chunk({}),
  choices: [],
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
});
const hello = [{ role: 'user' as const, content: 'Hello' }];

describe('Vercel AI SDK (openai-compatible provider)', () => {
  it('generates text', async () => {
    upstream.reply({ kind: 'json', body: reply({ content: 'Hi from the gateway' }) });
    const result = await generateText({ model: gateway('openai/gpt-test'), messages: hello, maxRetries: 0 });
    expect(result.text).toBe('Hi from the gateway');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 11, outputTokens: 4 });
    expect(upstream.last.body.model).toBe('gpt-test-2026');
  });

  it('gets JSON from a gateway with the spec default when the client sends Accept: application/json', async () => {
    // A second gateway over the same database (closing it leaves the database to the first).
    const other = await startTestGateway({
      database: { db: gw.db, close: async () => undefined },
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: 'sk-up',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
      },
    });
    try {
      const user = await other.createUser();
      await other.grant(user.userId, 1);
      const provider = createOpenAICompatible({
        name: 'modelgate',
        baseURL: `${other.url}/api/v1`,
        apiKey: user.key,
        headers: { Accept: 'application/json' },
      });
      upstream.reply({ kind: 'json', body: reply({ content: 'negotiated' }) });
      expect((await generateText({ model: provider('openai/gpt-test'), messages: hello, maxRetries: 0 })).text).toBe(
        'negotiated',
      );
      upstream.reply({
        kind: 'sse',
        chunks: openAiSse([
          chunk({ role: 'assistant', content: 'still ' }),
          chunk({ content: 'streams' }),
          chunk({}, 'stop'),
          usageChunk(2, 2),
        ]),
      });
      expect(await streamText({ model: provider('openai/gpt-test'), messages: hello, maxRetries: 0 }).text).toBe(
        'still streams',
      );
    } finally {
      await other.close();
    }
  });

  it('streams text with usage at the end', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Str' }),
        chunk({ content: 'eam' }),
        chunk({}, 'stop'),
        usageChunk(3, 2),
      ]),
    });
    const result = streamText({ model: gateway('openai/gpt-test'), messages: hello, maxRetries: 0 });
    const parts: string[] = [];
    for await (const text of result.textStream) parts.push(text);
    expect(parts.join('')).toBe('Stream');
    expect(parts.length).toBeGreaterThan(1);
    expect(await result.finishReason).toBe('stop');
    expect(await result.usage).toMatchObject({ inputTokens: 3, outputTokens: 2 });
    expect(upstream.last.body.stream).toBe(true);
  });

  it('runs a tools round trip: the model calls, the SDK executes, the model answers', async () => {
    const call = { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } };
    upstream.reply(
      { kind: 'json', body: reply({ content: null, tool_calls: [call] }, 'tool_calls') },
      { kind: 'json', body: reply({ content: 'The sum is 5.' }) },
    );
    const add = tool({
      description: 'Adds two numbers',
      inputSchema: jsonSchema<{ a: number; b: number }>({
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      }),
      execute: async ({ a, b }) => a + b,
    });
    const result = await generateText({
      model: gateway('openai/gpt-test'),
      messages: [{ role: 'user', content: '2+3?' }],
      tools: { add },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(result.text).toBe('The sum is 5.');
    expect(result.steps[0].toolCalls).toMatchObject([{ toolName: 'add', input: { a: 2, b: 3 } }]);
    expect(result.steps[0].toolResults).toMatchObject([{ toolName: 'add', output: 5 }]);
    // What the gateway forwarded upstream on the second step: the tool definition, the call and its result.
    expect(upstream.requests[0].body.tools[0].function).toMatchObject({
      name: 'add',
      parameters: { required: ['a', 'b'] },
    });
    const messages = upstream.last.body.messages;
    expect(messages.at(-2).tool_calls[0]).toMatchObject({ id: 'call_1', function: { name: 'add' } });
    expect(messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: '5' });
  });

  it('reads reasoning from the gateway (message.reasoning and delta.reasoning)', async () => {
    upstream.reply({
      kind: 'json',
      body: reply({ content: '42', reasoning_content: 'Six times seven.' }, 'stop', 'deepseek-reasoner'),
    });
    const generated = await generateText({
      model: gateway('deepseek/deepseek-reasoner'),
      messages: hello,
      maxRetries: 0,
    });
    expect(generated.text).toBe('42');
    expect(generated.reasoningText).toBe('Six times seven.');

    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', reasoning_content: 'Six ' }, null, 'deepseek-reasoner'),
        chunk({ reasoning_content: 'sevens.' }, null, 'deepseek-reasoner'),
        chunk({ content: '42' }, null, 'deepseek-reasoner'),
        chunk({}, 'stop', 'deepseek-reasoner'),
        usageChunk(5, 9),
      ]),
    });
    const streamed = streamText({ model: gateway('deepseek/deepseek-reasoner'), messages: hello, maxRetries: 0 });
    const kinds = new Set<string>();
    for await (const part of streamed.fullStream) kinds.add(part.type);
    expect(await streamed.reasoningText).toBe('Six sevens.');
    expect(await streamed.text).toBe('42');
    expect(kinds).toContain('reasoning-delta');
  });

  it('surfaces gateway errors as APICallError with the status and the gateway message', async () => {
    const unknownModel = await generateText({
      model: gateway('openai/no-such-model'),
      messages: hello,
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(unknownModel)).toBe(true);
    expect(unknownModel).toMatchObject({ statusCode: 404, isRetryable: false });
    expect((unknownModel as APICallError).message).toContain('no-such-model');

    const badKey = createOpenAICompatible({ name: 'modelgate', baseURL: `${gw.url}/api/v1`, apiKey: 'mg-v1-wrong' });
    const unauthorized = await generateText({ model: badKey('openai/gpt-test'), messages: hello, maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(unauthorized).toMatchObject({ statusCode: 401 });

    upstream.reply({
      kind: 'json',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { message: 'slow down', type: 'rate_limit_error' } },
    });
    const limited = await generateText({ model: gateway('openai/gpt-test'), messages: hello, maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(APICallError.isInstance(limited)).toBe(true);
    expect(limited).toMatchObject({ statusCode: 429, isRetryable: true });

    // Streams report errors as stream parts, not exceptions.
    const streamed = streamText({
      model: gateway('openai/no-such-model'),
      messages: hello,
      maxRetries: 0,
      onError: () => undefined,
    });
    const errors: unknown[] = [];
    for await (const part of streamed.fullStream) if (part.type === 'error') errors.push(part.error);
    expect(errors).toHaveLength(1);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({ statusCode: 404 });
  });
});
