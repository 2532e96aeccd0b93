import { describe, expect, it } from 'vitest';
import { buildRequest as buildInternal, chatCompletionsUrl } from '../../../src/providers/openai-compatible/index.js';
import type { AdapterContext } from '../../../src/providers/adapter.js';
import { context } from '../../helpers/stream-replay.js';
import { fromChat, type ChatCompletionRequest } from '../../helpers/chat-requests.js';

/** The adapter on a request written as a chat client writes it (parsed by the chat door). */
const buildRequest = (request: ChatCompletionRequest, ctx: AdapterContext) =>
  buildInternal(fromChat(request, ctx.stream), ctx);

function body(request: ChatCompletionRequest, ...args: Parameters<typeof context>): Record<string, unknown> {
  return JSON.parse(buildRequest(request, context(...args)).body) as Record<string, unknown>;
}

const TOOLS: ChatCompletionRequest['tools'] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      strict: true,
    },
  },
];

// A conversation with every message kind, reused across vendors.
const CONVERSATION: ChatCompletionRequest['messages'] = [
  { role: 'developer', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Oslo?', name: 'ann' },
  {
    role: 'assistant',
    content: null,
    reasoning: 'Need the weather tool.',
    reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAAA==', format: 'openai-responses-v1', index: 0 }],
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
  },
  {
    role: 'tool',
    tool_call_id: 'call_1',
    content: [
      { type: 'text', text: '{"c":' },
      { type: 'text', text: '4}' },
    ],
  },
];

describe('buildRequest: transport fields', () => {
  it('targets <baseUrl>/chat/completions with the provider key only, never client headers', () => {
    const request = buildRequest(
      { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      context(
        { id: 'openai', baseUrl: 'https://api.openai.com/v1/', headers: { 'X-Title': 'Modelgate' } },
        { upstreamModel: 'gpt-4o' },
        true,
      ),
    );
    expect(request).toEqual({
      method: 'POST',
      url: 'https://api.openai.com/v1/chat/completions',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: 'Bearer sk-test-key',
        'x-title': 'Modelgate',
      },
      body: JSON.stringify({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
  });

  it('joins base URLs without doubled slashes and falls back to the vendor default', () => {
    expect(chatCompletionsUrl('https://openrouter.ai/api/v1//')).toBe('https://openrouter.ai/api/v1/chat/completions');
    expect(buildRequest({ model: 'x', messages: [] }, context({ id: 'deepseek' })).url).toBe(
      'https://api.deepseek.com/chat/completions',
    );
    expect(buildRequest({ model: 'x', messages: [] }, context({ id: 'xai' })).url).toBe(
      'https://api.x.ai/v1/chat/completions',
    );
    expect(() => buildRequest({ model: 'x', messages: [] }, context({ id: 'my-vllm' }))).toThrow(/no base URL/);
  });

  it('asks for JSON and omits authorization when the provider has no key', () => {
    const request = buildRequest(
      { model: 'x', messages: [] },
      context({ id: 'local', baseUrl: 'http://127.0.0.1:8000/v1', apiKey: undefined }),
    );
    expect(request.headers).toEqual({ 'content-type': 'application/json', accept: 'application/json' });
  });
});

describe('buildRequest: OpenAI', () => {
  it('maps every supported field and drops gateway-only extras', () => {
    const request = {
      model: 'openai/o3-mini',
      messages: CONVERSATION,
      stream: false,
      tools: TOOLS,
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 500,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: null,
      response_format: { type: 'json_object' },
      user: 'user-42',
      reasoning: { effort: 'high', exclude: false },
      // extras: forwarded only when the vendor profile allows them
      models: ['openai/gpt-4o'],
      provider: { order: ['x'] },
      usage: { include: true },
      service_tier: 'priority',
      n: 3,
      logit_bias: { '50256': -100 },
    } as unknown as ChatCompletionRequest;
    expect(body(request, { id: 'openai' }, { upstreamModel: 'o3-mini', supportsReasoning: true })).toEqual({
      model: 'o3-mini',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?', name: 'ann' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"c":4}' },
      ],
      tools: TOOLS,
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.3,
      top_p: 0.9,
      stop: ['END'],
      presence_penalty: 0.1,
      response_format: { type: 'json_object' },
      max_completion_tokens: 500,
      seed: 7,
      user: 'user-42',
      reasoning_effort: 'high',
      logit_bias: { '50256': -100 },
      stream: false,
    });
  });

  it('forwards image parts with their detail', () => {
    const sent = body(
      {
        model: 'openai/gpt-4o',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this image?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
              { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
            ],
          },
        ],
      },
      { id: 'openai' },
      { upstreamModel: 'gpt-4o' },
    );
    expect(sent.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
        ],
      },
    ]);
  });

  it('prefers max_completion_tokens over max_tokens and drops tool_choice without tools', () => {
    const sent = body(
      {
        model: 'openai/gpt-4o',
        messages: [{ role: 'user', content: 'x' }],
        max_tokens: 10,
        max_completion_tokens: 20,
        tool_choice: 'none',
        parallel_tool_calls: true,
      },
      { id: 'openai' },
    );
    expect(sent).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      max_completion_tokens: 20,
      stream: false,
    });
  });

  it('turns reasoning off with "none" and maps a budget to the nearest effort', () => {
    const off = body(
      { model: 'x', messages: [], reasoning: { enabled: false } },
      { id: 'openai' },
      { supportsReasoning: true },
    );
    expect(off.reasoning_effort).toBe('none');
    const budget = body(
      { model: 'x', messages: [], max_tokens: 10000, reasoning: { max_tokens: 2000 } },
      { id: 'openai' },
      { supportsReasoning: true },
    );
    expect(budget.reasoning_effort).toBe('low');
  });

  it('sends no reasoning parameter to a model without reasoning support', () => {
    const sent = body(
      { model: 'x', messages: [], reasoning: { effort: 'high' } },
      { id: 'openai' },
      { supportsReasoning: false },
    );
    expect(sent).not.toHaveProperty('reasoning_effort');
    expect(sent).not.toHaveProperty('reasoning');
  });
});

describe('buildRequest: DeepSeek', () => {
  it('sends developer as system, reasoning back as reasoning_content, max_tokens and thinking controls', () => {
    const sent = body(
      {
        model: 'deepseek/deepseek-reasoner',
        messages: CONVERSATION,
        max_completion_tokens: 4000,
        reasoning: { effort: 'xhigh' },
      },
      { id: 'deepseek' },
      { upstreamModel: 'deepseek-reasoner', supportsReasoning: true },
      true,
    );
    expect(sent).toEqual({
      model: 'deepseek-reasoner',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
          reasoning_content: 'Need the weather tool.',
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"c":4}' },
      ],
      max_tokens: 4000,
      thinking: { type: 'enabled' },
      reasoning_effort: 'max',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('disables thinking when reasoning is off', () => {
    const sent = body(
      { model: 'x', messages: [], reasoning: { effort: 'none' } },
      { id: 'deepseek' },
      { supportsReasoning: true },
    );
    expect(sent.thinking).toEqual({ type: 'disabled' });
    expect(sent).not.toHaveProperty('reasoning_effort');
  });
});

describe('buildRequest: OpenRouter', () => {
  it('passes reasoning, reasoning_details and routing preferences through; drops model fallbacks', () => {
    const request = {
      model: 'openrouter/anthropic/claude-sonnet-4',
      messages: CONVERSATION,
      reasoning: { max_tokens: 2048, exclude: false },
      provider: { order: ['anthropic'], allow_fallbacks: false },
      models: ['openai/gpt-4o'],
      route: 'fallback',
      usage: { include: true },
    } as unknown as ChatCompletionRequest;
    expect(
      body(request, { id: 'openrouter' }, { upstreamModel: 'anthropic/claude-sonnet-4', supportsReasoning: true }),
    ).toEqual({
      model: 'anthropic/claude-sonnet-4',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?', name: 'ann' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
          reasoning: 'Need the weather tool.',
          reasoning_details: [
            { type: 'reasoning.encrypted', data: 'gAAAA==', format: 'openai-responses-v1', index: 0 },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"c":4}' },
      ],
      reasoning: { max_tokens: 2048, exclude: false },
      provider: { order: ['anthropic'], allow_fallbacks: false },
      stream: false,
    });
  });
});

describe('buildRequest: strict and effort-limited vendors', () => {
  it('Mistral: random_seed, no stream_options, user or message names', () => {
    const sent = body(
      {
        model: 'mistral/mistral-large-latest',
        messages: [{ role: 'user', content: 'x', name: 'ann' }],
        seed: 3,
        user: 'u',
        max_completion_tokens: 64,
      },
      { id: 'mistral' },
      { upstreamModel: 'mistral-large-latest' },
      true,
    );
    expect(sent).toEqual({
      model: 'mistral-large-latest',
      messages: [{ role: 'user', content: 'x' }],
      max_tokens: 64,
      random_seed: 3,
      stream: true,
    });
  });

  it('xAI snaps efforts to low|high and omits an "off" it cannot express', () => {
    const effort = (reasoning: ChatCompletionRequest['reasoning']) =>
      body({ model: 'x', messages: [], reasoning }, { id: 'x-ai' }, { supportsReasoning: true }).reasoning_effort;
    expect(effort({ effort: 'minimal' })).toBe('low');
    expect(effort({ effort: 'medium' })).toBe('high');
    expect(effort({ effort: 'xhigh' })).toBe('high');
    expect(effort({ enabled: false })).toBeUndefined();
  });

  it('Groq and Gemini compat use reasoning_effort with their own level sets', () => {
    const groq = body(
      { model: 'x', messages: [], reasoning: { effort: 'minimal' } },
      { id: 'groq' },
      { supportsReasoning: true },
    );
    expect(groq.reasoning_effort).toBe('low');
    const google = body(
      { model: 'x', messages: [], reasoning: { effort: 'xhigh' } },
      { id: 'gemini' },
      { supportsReasoning: true },
    );
    expect(google.reasoning_effort).toBe('high');
    const googleOff = body(
      { model: 'x', messages: [], reasoning: { enabled: false } },
      { id: 'google' },
      { supportsReasoning: true },
    );
    expect(googleOff.reasoning_effort).toBe('none');
  });

  it('Anthropic compat: output cap from the model and a thinking budget below it', () => {
    const sent = body(
      {
        model: 'anthropic/claude-sonnet-4',
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'x' },
        ],
        reasoning: { effort: 'high' },
      },
      { id: 'anthropic' },
      { upstreamModel: 'claude-sonnet-4-20250514', supportsReasoning: true, maxOutputTokens: 10000 },
    );
    expect(sent).toEqual({
      model: 'claude-sonnet-4-20250514',
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'x' },
      ],
      max_tokens: 10000,
      thinking: { type: 'enabled', budget_tokens: 8000 },
      stream: false,
    });
    const tooSmall = body(
      { model: 'x', messages: [], max_tokens: 1000, reasoning: { max_tokens: 4000 } },
      { id: 'anthropic' },
      { supportsReasoning: true },
    );
    expect(tooSmall).not.toHaveProperty('thinking');
  });

  it('operator quirks select a profile and override single fields', () => {
    const sent = body(
      { model: 'x', messages: [{ role: 'developer', content: 'd' }], max_tokens: 5 },
      {
        id: 'together',
        baseUrl: 'https://api.together.xyz/v1',
        quirks: { vendor: 'openai', maxTokensField: 'max_tokens', developerRole: false, bogus: 1 },
      },
    );
    expect(sent).toEqual({ model: 'm', messages: [{ role: 'system', content: 'd' }], max_tokens: 5, stream: false });
  });
});
