// The translated lane over HTTP: a door's request becomes the internal GenerationRequest and reaches a vendor of
// another protocol, or of the same one without a native lane, with what both sides carry (issue 37 §2): Claude
// Code's cache breakpoints on tools and tool_use, adaptive thinking and images inside tool results reach Anthropic;
// cache_control on chat content parts reaches OpenRouter; OpenAI's prompt-cache fields reach OpenAI; and what an
// adapter cannot carry is a clear 400 in the door's envelope (custom, namespaced and hosted tools: translated-tools.test.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

let gw: TestGateway;
let upstream: MockUpstream;
let key: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: upstream.url,
      OPENROUTER_API_KEY: 'sk-or-upstream',
      OPENROUTER_BASE_URL: `${upstream.url}/or/v1`,
      OPENAI_API_KEY: 'sk-openai-upstream',
      OPENAI_BASE_URL: `${upstream.url}/oa/v1`,
    },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 10);
  key = user.key;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  gw.fetch(`/api/v1${path}`, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const chatReply = {
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
};

describe('Messages door → Anthropic', () => {
  it("tools' and tool_use's cache_control (1h), adaptive thinking with its effort, images inside tool_result reach Anthropic", async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
    const res = await post(
      '/messages',
      {
        model: 'claude-haiku-5-5',
        max_tokens: 2000,
        thinking: { type: 'adaptive' },
        output_config: { effort: 'max' },
        tools: [
          { name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
          {
            name: 'Edit',
            input_schema: { type: 'object', properties: {} },
            cache_control: { type: 'ephemeral', ttl: '1h' },
          },
        ],
        messages: [
          { role: 'user', content: 'Look at a.png' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Read it.', signature: 'EqQBsig' },
              {
                type: 'tool_use',
                id: 'toolu_1',
                name: 'Read',
                input: { file_path: 'a.png' },
                cache_control: { type: 'ephemeral', ttl: '1h' },
              },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Image read' }, image] },
            ],
          },
        ],
      },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(res.status).toBe(200);
    const sent = upstream.last.body;
    expect(sent.tools).toEqual([
      { name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
      {
        name: 'Edit',
        input_schema: { type: 'object', properties: {} },
        cache_control: { type: 'ephemeral', ttl: '1h' },
      },
    ]);
    expect(sent.thinking).toEqual({ type: 'adaptive' });
    expect(sent.output_config).toEqual({ effort: 'max' });
    expect(sent.max_tokens).toBe(2000);
    expect(sent.messages[1].content).toEqual([
      { type: 'thinking', thinking: 'Read it.', signature: 'EqQBsig' },
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'Read',
        input: { file_path: 'a.png' },
        cache_control: { type: 'ephemeral', ttl: '1h' },
      },
    ]);
    expect(sent.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Image read' }, image] },
      ],
    });
  });
});

describe('Chat door → OpenRouter and OpenAI', () => {
  it("cache_control on content parts (with its ttl) reaches OpenRouter, which passes it to the model's vendor", async () => {
    upstream.reply({ kind: 'json', body: chatReply });
    const res = await post('/chat/completions', {
      model: 'openrouter/anthropic/claude-sonnet-5.5',
      stream: false,
      messages: [
        {
          role: 'system',
          content: [{ type: 'text', text: 'A long contract…', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise it.', cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'Briefly.' },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(upstream.last.path).toBe('/or/v1/chat/completions');
    expect(upstream.last.body.messages).toEqual([
      {
        role: 'system',
        content: [{ type: 'text', text: 'A long contract…', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summarise it.', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Briefly.' },
        ],
      },
    ]);
  });

  it("OpenAI's prompt_cache_key, safety_identifier and verbosity reach OpenAI", async () => {
    upstream.reply({ kind: 'json', body: chatReply });
    const res = await post('/chat/completions', {
      model: 'openai/gpt-5.4-mini',
      stream: false,
      messages: [{ role: 'user', content: 'hi' }],
      prompt_cache_key: 'thread-7',
      safety_identifier: 'sid-1',
      verbosity: 'low',
    });
    expect(res.status).toBe(200);
    expect(upstream.last.body).toMatchObject({
      prompt_cache_key: 'thread-7',
      safety_identifier: 'sid-1',
      verbosity: 'low',
    });
  });
});

describe('what the translated lane cannot carry', () => {
  it('a Responses input item of a type no other vendor takes (local_shell_call) is a 400 naming it, in the Responses envelope, nothing sent', async () => {
    const res = await post('/responses', {
      model: 'anthropic/claude-haiku-5-5',
      input: [
        { type: 'message', role: 'user', content: 'List files' },
        {
          type: 'local_shell_call',
          id: 'lsc_1',
          call_id: 'call_1',
          status: 'completed',
          action: { type: 'exec', command: ['ls'], env: {} },
        },
      ],
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.message).toContain('input items of type "local_shell_call" are not supported');
    expect(body.error.metadata).toMatchObject({ field: 'input[1]' });
    expect(upstream.requests).toHaveLength(0);
  });
});
