// A client nobody here wrote: the official `openai` npm SDK works against the gateway after changing base URL and key.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let client: OpenAI;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      DEEPSEEK_API_KEY: 'sk-ds',
      DEEPSEEK_BASE_URL: upstream.url,
    },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  client = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: user.key, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const reply = (message: Record<string, unknown>, finish = 'stop') => ({
  id: 'chatcmpl-sdk',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-sdk',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('official openai SDK', () => {
  it('creates a non-streamed completion (the SDK omits stream and sends Accept: application/json)', async () => {
    upstream.reply({ kind: 'json', body: reply({ content: 'Hi there' }) });
    const completion = await client.chat.completions.create({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(completion.choices[0].message.content).toBe('Hi there');
    expect(completion.usage?.prompt_tokens).toBe(12);
    expect((completion.usage as any).cost).toBeGreaterThan(0);
  });

  it('streams a completion and sees usage on the final chunk', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Str' }),
        chunk({ content: 'eam' }),
        chunk({}, 'stop'),
        { ...chunk({}), choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
      ]),
    });
    const stream = await client.chat.completions.create({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: any;
    let finish: string | null = null;
    for await (const part of stream) {
      text += part.choices[0]?.delta?.content ?? '';
      finish = part.choices[0]?.finish_reason ?? finish;
      if (part.usage) usage = part.usage;
    }
    expect(text).toBe('Stream');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 2 });
  });

  it('runs a tools round trip', async () => {
    const toolCall = { id: 'call_9', type: 'function' as const, function: { name: 'add', arguments: '{"a":1,"b":2}' } };
    upstream.reply(
      { kind: 'json', body: reply({ content: null, tool_calls: [toolCall] }, 'tool_calls') },
      { kind: 'json', body: reply({ content: '3' }) },
    );
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'add',
          description: 'Adds',
          parameters: {
            type: 'object',
            properties: { a: { type: 'number', description: 'a' }, b: { type: 'number', description: 'b' } },
            required: ['a', 'b'],
          },
        },
      },
    ];
    const first = await client.chat.completions.create({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: '1+2?' }],
      tools,
    });
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const call = first.choices[0].message.tool_calls![0];
    const second = await client.chat.completions.create({
      model: 'openai/gpt-test',
      tools,
      messages: [
        { role: 'user', content: '1+2?' },
        first.choices[0].message,
        { role: 'tool', tool_call_id: call.id, content: '3' },
      ],
    });
    expect(second.choices[0].message.content).toBe('3');
    expect(upstream.last.body.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_9', content: '3' });
  });

  it('accepts the reasoning request field and passes reasoning back in message.reasoning and delta.reasoning', async () => {
    upstream.reply({
      kind: 'json',
      body: { ...reply({ content: '42', reasoning_content: 'Six times seven.' }), model: 'deepseek-reasoner' },
    });
    // `reasoning` is not in the SDK's types (an OpenRouter-style extension); the SDK sends unknown fields as given.
    const completion = await client.chat.completions.create({
      model: 'deepseek/deepseek-reasoner',
      messages: [{ role: 'user', content: '6*7?' }],
      reasoning: { effort: 'high' },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(completion.choices[0].message.content).toBe('42');
    expect((completion.choices[0].message as unknown as { reasoning: string }).reasoning).toBe('Six times seven.');

    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', reasoning_content: 'Six ' }),
        chunk({ reasoning_content: 'sevens.' }),
        chunk({ content: '42' }),
        chunk({}, 'stop'),
      ]),
    });
    const stream = await client.chat.completions.create({
      model: 'deepseek/deepseek-reasoner',
      messages: [{ role: 'user', content: '6*7?' }],
      stream: true,
    });
    let reasoning = '';
    let text = '';
    for await (const part of stream) {
      reasoning += (part.choices[0]?.delta as { reasoning?: string } | undefined)?.reasoning ?? '';
      text += part.choices[0]?.delta?.content ?? '';
    }
    expect(reasoning).toBe('Six sevens.');
    expect(text).toBe('42');
  });

  it('surfaces gateway errors as the SDK typed errors', async () => {
    await expect(
      client.chat.completions.create({ model: 'openai/does-not-exist', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const bad = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: 'mg-v1-wrong', maxRetries: 0 });
    await expect(
      bad.chat.completions.create({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    upstream.reply({
      kind: 'json',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { message: 'slow down', type: 'rate_limit_error' } },
    });
    await expect(
      client.chat.completions.create({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });
});
