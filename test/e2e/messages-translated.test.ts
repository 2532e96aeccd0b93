// The Anthropic Messages front door in front of translated providers, with the official @anthropic-ai/sdk:
// OpenAI-compatible (openai/), Gemini (google/, thought signatures carried in `signature`) and the pass/ upstream.
// One local mock serves all of them under different base paths.
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { grantPass } from '../../src/services/pass.js';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import { createGeminiAdapter } from '../../src/providers/gemini/index.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

let gw: TestGateway;
let upstream: MockUpstream;
let client: Anthropic;
let user: { userId: string; key: string };

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
type ApiError = InstanceType<typeof Anthropic.APIError>;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-openai-upstream',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      GEMINI_API_KEY: 'AIzaUpstream',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
      PASS_API_KEY: 'sk-pass',
      PASS_BASE_URL: `${upstream.url}/pass/v1`,
    },
    overrides: { adapters: { 'openai-compatible': createOpenAICompatibleAdapter(), gemini: createGeminiAdapter() } },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 10);
  client = new Anthropic({ apiKey: user.key, baseURL: `${gw.url}/api`, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const weatherTool: Anthropic.Tool = {
  name: 'get_current_weather',
  description: 'Current weather',
  input_schema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

describe('openai/ models through /messages', () => {
  it('create: system, sampling, stop and metadata map to the chat request; the reply is a Message', async () => {
    upstream.reply({ kind: 'json', body: loadJson('openai', 'cached-tokens') });
    const cached = loadJson('openai', 'cached-tokens') as {
      usage: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details: { cached_tokens: number } };
    };
    const message = await client.messages.create({
      model: 'openai/gpt-5.4-mini',
      max_tokens: 200,
      system: 'Be brief.',
      temperature: 0.3,
      stop_sequences: ['STOP'],
      metadata: { user_id: 'u-1' },
      messages: [{ role: 'user', content: 'Hi' }],
    } as Anthropic.MessageCreateParamsNonStreaming); // this SDK release's types no longer list temperature
    expect(upstream.last.path).toBe('/v1/chat/completions');
    expect(upstream.last.headers.authorization).toBe('Bearer sk-openai-upstream');
    expect(upstream.last.body).toMatchObject({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      temperature: 0.3,
      stop: ['STOP'],
      user: 'u-1',
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'openai/gpt-5.4-mini',
      stop_reason: 'end_turn',
    });
    expect(message.content[0].type).toBe('text');
    // input_tokens excludes the cached part, which is reported beside it.
    expect(message.usage).toMatchObject({
      input_tokens: cached.usage.prompt_tokens - cached.usage.prompt_tokens_details.cached_tokens,
      cache_read_input_tokens: cached.usage.prompt_tokens_details.cached_tokens,
      output_tokens: cached.usage.completion_tokens,
    });
  });

  it('stream + tool use round trip: streamed tool call → tool_use block; tool_result (is_error, nested text and image) → tool message', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('openai/tool-call.chunks.txt')] });
    const stream = client.messages.stream({
      model: 'openai/gpt-5.4-mini',
      max_tokens: 200,
      tools: [weatherTool],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'Weather in Boston?' }],
    });
    const deltas: string[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta') deltas.push(event.delta.type);
    });
    const first = await stream.finalMessage();
    expect(upstream.last.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_current_weather', parameters: weatherTool.input_schema } }],
      tool_choice: 'required',
      stream: true,
    });
    expect(deltas).toContain('input_json_delta');
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(call).toMatchObject({ id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_current_weather' });
    expect(call.input).toEqual(expect.objectContaining({ location: expect.any(String) }));

    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        {
          id: 'c2',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'gpt',
          choices: [{ index: 0, delta: { role: 'assistant', content: 'It is sunny.' }, finish_reason: null }],
        },
        {
          id: 'c2',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'gpt',
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 },
        },
      ]),
    });
    const secondStream = client.messages.stream({
      model: 'openai/gpt-5.4-mini',
      max_tokens: 200,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Boston?' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: call.id,
              is_error: true,
              content: [
                { type: 'text', text: 'timeout' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              ],
            },
            { type: 'text', text: 'Try again?' },
          ],
        },
      ],
    });
    const usages: Array<{ event: string; usage: Record<string, unknown> }> = [];
    secondStream.on('streamEvent', (event) => {
      if (event.type === 'message_start') usages.push({ event: event.type, usage: { ...event.message.usage } });
      if (event.type === 'message_delta') usages.push({ event: event.type, usage: { ...event.usage } });
    });
    const second = await secondStream.finalMessage();
    // message_start: the gateway's prompt estimate (an upstream that is not Anthropic counts nothing before the end);
    // message_delta: the upstream's exact counts, which the SDK's final message takes.
    expect(usages[0].event).toBe('message_start');
    expect(usages[0].usage.input_tokens).toBeGreaterThan(1000); // the tool result's image alone is estimated at 1000
    expect(usages[1]).toEqual({
      event: 'message_delta',
      usage: {
        input_tokens: 30,
        output_tokens: 4,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      },
    });
    expect(second.content).toEqual([{ type: 'text', text: 'It is sunny.' }]);
    expect(second.usage).toMatchObject({ input_tokens: 30, output_tokens: 4 });
    const sent = upstream.last.body.messages;
    expect(sent[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        {
          id: call.id,
          type: 'function',
          function: { name: 'get_current_weather', arguments: JSON.stringify(call.input) },
        },
      ],
    });
    expect(sent[2]).toEqual({ role: 'tool', tool_call_id: call.id, content: 'timeout' });
    expect(sent[3]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Try again?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    });
  });

  it('documents: a PDF reaches OpenAI as a file part, a text document as text; a PDF by URL is a 400 naming the endpoint', async () => {
    const request = JSON.parse(
      fixture('messages/document-blocks.request.json'),
    ) as Anthropic.MessageCreateParamsNonStreaming;
    upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
    await client.messages.create({ ...request, model: 'openai/gpt-5.4-mini' });
    expect(upstream.last.body.messages).toEqual(JSON.parse(fixture('messages/document-blocks.openai-messages.json')));

    upstream.reset();
    const byUrl = JSON.parse(
      fixture('messages/document-url.request.json'),
    ) as Anthropic.MessageCreateParamsNonStreaming;
    const err = await client.messages.create({ ...byUrl, model: 'openai/gpt-5.4-mini' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as ApiError).error).toMatchObject({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining('openai/gpt-5.4-mini at openai cannot fetch a PDF by URL'),
      },
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('documents: a model without supportsImages refuses a PDF before anything is reserved or sent', async () => {
    const request = JSON.parse(
      fixture('messages/document-blocks.request.json'),
    ) as Anthropic.MessageCreateParamsNonStreaming;
    const err = await client.messages.create({ ...request, model: 'pass/glm-5.2' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as ApiError).error).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('does not accept PDF documents') },
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('count_tokens answers the gateway estimate for non-Anthropic models without calling out', async () => {
    const counted = await client.messages.countTokens({
      model: 'openai/gpt-5.4-mini',
      messages: [{ role: 'user', content: 'x'.repeat(400) }],
    });
    expect(counted.input_tokens).toBeGreaterThanOrEqual(100);
    expect(upstream.requests).toHaveLength(0);
  });

  it('429 from the upstream is a RateLimitError', async () => {
    upstream.reply({ kind: 'json', status: 429, body: loadJson('openai', 'error-429') });
    const err = await client.messages
      .create({ model: 'openai/gpt-5.4-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err as ApiError).error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});

describe('google/ models through /messages', () => {
  it("thinking: thought text streams as thinking; a function call's thought signature rides in a signature and goes back to Gemini", async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('gemini/reasoning.chunks.txt')] });
    const thinkingReply = await client.messages
      .stream({
        model: 'google/gemini-3.5-flash',
        max_tokens: 2000,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'How many r in strawberry?' }],
      })
      .finalMessage();
    expect(upstream.last.body.generationConfig).toMatchObject({
      thinkingConfig: expect.objectContaining({ includeThoughts: true }),
    });
    expect(thinkingReply.content[0]).toMatchObject({
      type: 'thinking',
      thinking: expect.stringContaining('Counting the letters'),
    });
    expect(thinkingReply.content.find((b) => b.type === 'text')).toMatchObject({
      text: expect.stringContaining("There are **3** r's"),
    });

    upstream.reply({ kind: 'sse', chunks: [fixture('gemini/tool-call-gemini3.chunks.txt')] });
    const first = await client.messages
      .stream({
        model: 'google/gemini-3.1-pro-preview',
        max_tokens: 2000,
        tools: [{ ...weatherTool, name: 'get_weather' }],
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      })
      .finalMessage();
    const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(call).toMatchObject({ name: 'get_weather', input: { city: 'Oslo', unit: 'celsius' } });
    const carriers = first.content.filter((b) => b.type === 'redacted_thinking' || b.type === 'thinking');
    expect(carriers.length).toBeGreaterThan(0);

    upstream.reply({ kind: 'json', body: loadJson('gemini', 'text') });
    await client.messages.create({
      model: 'google/gemini-3.1-pro-preview',
      max_tokens: 2000,
      tools: [{ ...weatherTool, name: 'get_weather' }],
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '12 degrees' }] },
      ],
    });
    const model = upstream.last.body.contents[1];
    expect(model.role).toBe('model');
    const signed = model.parts.find((p: { functionCall?: unknown }) => p.functionCall);
    expect(signed.thoughtSignature).toMatch(/^EpQCCpECAdHtim8K/);
  });
});

describe('pass/ models through /messages', () => {
  it('serves a subscriber from the pass upstream; the record says api_format messages and access_mode pass', async () => {
    const subscriber = await gw.createUser();
    await grantPass(gw.db, subscriber.userId, 1, new Date());
    upstream.reply({
      kind: 'json',
      body: {
        id: 'chatcmpl-p',
        object: 'chat.completion',
        created: 1,
        model: 'kimi',
        choices: [{ index: 0, message: { role: 'assistant', content: 'pass ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
      },
    });
    const sdk = new Anthropic({ authToken: subscriber.key, apiKey: null, baseURL: `${gw.url}/api`, maxRetries: 0 });
    const { data: message, response } = await sdk.messages
      .create({ model: 'pass/kimi-k2.7-code', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(upstream.last.path).toBe('/pass/v1/chat/completions');
    expect(message.content).toEqual([{ type: 'text', text: 'pass ok' }]);
    const record = await (
      await gw.fetch(`/api/v1/generation?id=${response.headers.get('x-generation-id')}`, { key: subscriber.key })
    ).json();
    expect(record.data).toMatchObject({ api_format: 'messages', model: 'pass/kimi-k2.7-code' });
    expect(JSON.stringify(record.data)).toContain('pass');

    // The pass upstream is an OpenAI-compatible server without file parts: a PDF is refused before it is called.
    upstream.reset();
    const request = JSON.parse(
      fixture('messages/document-blocks.request.json'),
    ) as Anthropic.MessageCreateParamsNonStreaming;
    const err = await sdk.messages.create({ ...request, model: 'pass/kimi-k2.7-code' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as ApiError).error).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining('pass/kimi-k2.7-code at pass does not accept PDF documents'),
      },
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('403 permission_error for a pass/ model without a subscription', async () => {
    const err = await client.messages
      .create({ model: 'pass/kimi-k2.7-code', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((err as ApiError).error).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
  });
});
