import { describe, expect, it } from 'vitest';
import { fromChat, type ChatCompletionRequest } from '../../helpers/chat-requests.js';
import { buildRequest, messagesUrl } from '../../../src/providers/anthropic/index.js';
import { anthropicContext, vendorBody } from './anthropic-context.js';
import { thrown } from '../../helpers/thrown.js';

const WEATHER_TOOL: NonNullable<ChatCompletionRequest['tools']>[number] = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    strict: true,
  },
};

const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+vA2fYR==';

describe('buildRequest: transport', () => {
  it('POSTs <base>/v1/messages with the operator key, version header and no client headers', () => {
    const ctx = anthropicContext({}, true, {
      headers: { 'X-Team': 'gw', 'x-api-key': 'must-not-win', 'Anthropic-Version': '1999-01-01' },
    });
    const request = buildRequest(
      fromChat({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }),
      ctx,
    );
    expect(request).toEqual({
      method: 'POST',
      url: 'https://api.anthropic.com/v1/messages',
      headers: {
        'x-team': 'gw',
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'anthropic-version': '2023-06-01',
        'x-api-key': 'sk-ant-api03-test',
      },
      body: expect.any(String),
    });
    expect(JSON.parse(request.body)).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
  });

  it('sends no x-api-key when the provider has none, and accept: application/json without streaming', () => {
    const request = buildRequest(
      fromChat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      anthropicContext({}, false, { apiKey: undefined }),
    );
    expect(request.headers).toEqual({
      'content-type': 'application/json',
      accept: 'application/json',
      'anthropic-version': '2023-06-01',
    });
    expect(JSON.parse(request.body).stream).toBe(false);
  });

  it('joins base URLs with or without /v1 and trailing slashes; empty means the public API', () => {
    expect(messagesUrl('https://api.anthropic.com')).toBe('https://api.anthropic.com/v1/messages');
    expect(messagesUrl('https://api.anthropic.com/')).toBe('https://api.anthropic.com/v1/messages');
    expect(messagesUrl('https://api.anthropic.com/v1/')).toBe('https://api.anthropic.com/v1/messages');
    expect(messagesUrl('http://proxy.local:8080/anthropic')).toBe('http://proxy.local:8080/anthropic/v1/messages');
    expect(messagesUrl('')).toBe('https://api.anthropic.com/v1/messages');
  });
});

describe('buildRequest: messages', () => {
  it('a tool round trip: system hoisted, images converted, tool results merged into one user turn', () => {
    const body = vendorBody({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use metric units.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here and in Oslo?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/street.jpg', detail: 'high' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking both.',
          tool_calls: [
            { id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_01B', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '{"c":21}' },
        {
          role: 'tool',
          tool_call_id: 'toolu_01B',
          content: [
            { type: 'text', text: '{"c":' },
            { type: 'text', text: '4}' },
          ],
        },
        { role: 'user', content: 'Which is warmer?' },
      ],
      tools: [WEATHER_TOOL],
    });
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      system: [
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'Use metric units.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here and in Oslo?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/street.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking both.' },
            { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_01B', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01A', content: '{"c":21}' },
            { type: 'tool_result', tool_use_id: 'toolu_01B', content: '{"c":4}' },
            { type: 'text', text: 'Which is warmer?' },
          ],
        },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Current weather for a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
      stream: false,
    });
  });

  it('merges consecutive same-role turns, drops empty and blank text, hoists a late system message', () => {
    const body = vendorBody({
      messages: [
        { role: 'user', content: 'one' },
        { role: 'user', content: '' },
        {
          role: 'user',
          content: [
            { type: 'text', text: ' \n' },
            { type: 'text', text: 'two' },
          ],
        },
        { role: 'assistant', content: 'three' },
        { role: 'assistant', content: null },
        { role: 'assistant', content: [{ type: 'text', text: 'four' }] },
        { role: 'system', content: 'Late rule.' },
        { role: 'user', content: 'five' },
      ],
    });
    expect(body.system).toBe('Late rule.');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'three' },
          { type: 'text', text: 'four' },
        ],
      },
      { role: 'user', content: 'five' },
    ]);
  });

  it('puts tool results first in a merged user turn and trims a final assistant prefill', () => {
    const body = vendorBody({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'ping', arguments: '' } }],
        },
        { role: 'user', content: 'also this' },
        { role: 'tool', tool_call_id: 'toolu_1', content: '' },
        { role: 'assistant', content: 'The answer is  \n' },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ping', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1' },
          { type: 'text', text: 'also this' },
        ],
      },
      { role: 'assistant', content: 'The answer is' },
    ]);
  });

  it('rewrites tool ids from other vendors the same way in tool_use and tool_result', () => {
    const body = vendorBody({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'functions.get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'functions.get_weather:0', content: 'ok' },
      ],
    });
    const [, assistant, user] = body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    expect(assistant.content[0].id).toBe('functions_get_weather_0');
    expect(user.content[0].tool_use_id).toBe('functions_get_weather_0');
  });

  it('answers 400 for tool-call arguments that are not a JSON object instead of replaying another call', () => {
    const call = (args: string) => () =>
      vendorBody({
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: args } }],
          },
        ],
      });
    const invalid = thrown(call('{"city": '));
    expect(invalid.status).toBe(400);
    expect(invalid.metadata).toMatchObject({ field: 'messages[1].content[0].input', reason: 'invalid_tool_arguments' });
    expect(thrown(call('[1,2]')).message).toContain('must encode a JSON object');
  });

  it('image URLs: jpg alias accepted; unsupported types, non-base64 data and other schemes are 400', () => {
    const image = (url: string) => () =>
      vendorBody({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] });
    expect((image('data:image/jpg;base64,/9j/4AAQ')() as { messages: unknown }).messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } }],
      },
    ]);
    expect(thrown(image('data:image/svg+xml;base64,PHN2Zz4=')).metadata.reason).toBe('unsupported_image_type');
    expect(thrown(image('data:image/png,rawbytes')).metadata.reason).toBe('invalid_image_url');
    expect(thrown(image('ftp://example.com/a.png')).metadata).toMatchObject({
      reason: 'invalid_image_url',
      field: 'messages[0].content[0]',
    });
  });

  it("restores reasoning_details as thinking blocks first, byte for byte, and drops other vendors' blocks", () => {
    const body = vendorBody({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: 'Let me look.',
          reasoning: 'ignored: reasoning text travels only inside the signed block',
          reasoning_details: [
            {
              type: 'reasoning.text',
              text: 'User wants Paris.\n',
              signature: SIGNATURE,
              format: 'anthropic-claude-v1',
              index: 0,
            },
            { type: 'reasoning.encrypted', data: 'EmwKAhgBEgy3va3p==', format: 'anthropic-claude-v1', index: 1 },
            { type: 'reasoning.encrypted', data: 'gAAAAABo', format: 'openai-responses-v1', index: 2 },
            { type: 'reasoning.summary', summary: 'summary', format: 'anthropic-claude-v1', index: 3 },
            { type: 'reasoning.text', text: 'unsigned', format: 'anthropic-claude-v1', index: 4 },
          ],
          tool_calls: [
            { id: 'toolu_01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01', content: 'sunny' },
      ],
      tools: [WEATHER_TOOL],
      reasoning: { effort: 'medium' },
      max_tokens: 4000,
    });
    expect((body.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'User wants Paris.\n', signature: SIGNATURE },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3p==' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
  });
});

describe('buildRequest: tools and tool_choice', () => {
  const choice = (request: Partial<ChatCompletionRequest>) =>
    vendorBody({ messages: [{ role: 'user', content: 'x' }], tools: [WEATHER_TOOL], ...request }).tool_choice;

  it('maps auto / none / required / named and parallel_tool_calls=false', () => {
    expect(choice({})).toBeUndefined();
    expect(choice({ tool_choice: 'auto' })).toEqual({ type: 'auto' });
    expect(choice({ tool_choice: 'none' })).toEqual({ type: 'none' });
    expect(choice({ tool_choice: 'required' })).toEqual({ type: 'any' });
    expect(choice({ tool_choice: { type: 'function', function: { name: 'get_weather' } } })).toEqual({
      type: 'tool',
      name: 'get_weather',
    });
    expect(choice({ parallel_tool_calls: false })).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(choice({ tool_choice: 'required', parallel_tool_calls: false })).toEqual({
      type: 'any',
      disable_parallel_tool_use: true,
    });
    expect(choice({ tool_choice: 'none', parallel_tool_calls: false })).toEqual({ type: 'none' });
    expect(choice({ parallel_tool_calls: true })).toBeUndefined();
  });

  it('drops tool_choice without tools and fills in missing input schemas', () => {
    expect(
      vendorBody({ messages: [{ role: 'user', content: 'x' }], tool_choice: 'required', parallel_tool_calls: false }),
    ).not.toHaveProperty('tool_choice');
    const body = vendorBody({
      messages: [{ role: 'user', content: 'x' }],
      tools: [
        { type: 'function', function: { name: 'now' } },
        {
          type: 'function',
          function: { name: 'add', description: '', parameters: { properties: { a: { type: 'number' } } } },
        },
      ],
    });
    expect(body.tools).toEqual([
      { name: 'now', input_schema: { type: 'object', properties: {} } },
      { name: 'add', input_schema: { type: 'object', properties: { a: { type: 'number' } } } },
    ]);
  });
});

describe('buildRequest: sampling and other parameters', () => {
  const body = (request: Partial<ChatCompletionRequest>, model = {}) =>
    vendorBody({ messages: [{ role: 'user', content: 'x' }], ...request }, anthropicContext(model));

  it("clamps temperature to Anthropic's 0..1, prefers it over top_p, forwards top_k", () => {
    expect(body({ temperature: 1.7 }).temperature).toBe(1);
    expect(body({ temperature: 0.3, top_p: 0.9 })).toMatchObject({ temperature: 0.3 });
    expect(body({ temperature: 0.3, top_p: 0.9 })).not.toHaveProperty('top_p');
    expect(body({ top_p: 0.9 })).toMatchObject({ top_p: 0.9 });
    expect(body({ top_k: 40 } as Partial<ChatCompletionRequest>)).toMatchObject({ top_k: 40 });
    expect(body({ temperature: null, top_p: null })).not.toHaveProperty('temperature');
  });

  it('with thinking on, drops temperature and top_k and keeps top_p within 0.95..1', () => {
    const thinking = body({
      temperature: 0.2,
      top_p: 0.5,
      top_k: 5,
      reasoning: { effort: 'low' },
    } as Partial<ChatCompletionRequest>);
    expect(thinking).toMatchObject({ top_p: 0.95, thinking: { type: 'enabled', budget_tokens: 1638 } });
    expect(thinking).not.toHaveProperty('temperature');
    expect(thinking).not.toHaveProperty('top_k');
  });

  it('maps stop to stop_sequences without blank entries, user to metadata; drops fields Anthropic lacks', () => {
    const out = body({
      stop: ['END', ' ', ''],
      user: 'user-7f3a',
      seed: 7,
      presence_penalty: 1,
      frequency_penalty: 1,
      response_format: { type: 'json_object' } as ChatCompletionRequest['response_format'],
    });
    expect(out).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      messages: [{ role: 'user', content: 'x' }],
      stop_sequences: ['END'],
      metadata: { user_id: 'user-7f3a' },
      stream: false,
    });
    expect(body({ stop: 'STOP' }).stop_sequences).toEqual(['STOP']);
    expect(body({ stop: null })).not.toHaveProperty('stop_sequences');
  });

  it('max_completion_tokens wins over max_tokens and both are clamped to the model limit', () => {
    expect(body({ max_tokens: 100, max_completion_tokens: 200 }).max_tokens).toBe(200);
    expect(body({ max_tokens: 999_999 }).max_tokens).toBe(64000);
    expect(body({}, { maxOutputTokens: 4096 }).max_tokens).toBe(4096);
  });
});

describe('buildRequest: when thinking stays off', () => {
  const messages: ChatCompletionRequest['messages'] = [{ role: 'user', content: 'x' }];

  it('for models without reasoning support, and when reasoning is off or only excluded', () => {
    expect(
      vendorBody({ messages, reasoning: { effort: 'high' } }, anthropicContext({ supportsReasoning: false })),
    ).not.toHaveProperty('thinking');
    expect(vendorBody({ messages, reasoning: { enabled: false, effort: 'high' } })).not.toHaveProperty('thinking');
    expect(vendorBody({ messages, reasoning: { effort: 'none' } })).not.toHaveProperty('thinking');
    expect(vendorBody({ messages, reasoning: { exclude: true } })).not.toHaveProperty('thinking');
  });

  it('when tool_choice forces a call (Anthropic rejects thinking with any/tool)', () => {
    const body = vendorBody({
      messages,
      tools: [WEATHER_TOOL],
      tool_choice: 'required',
      reasoning: { effort: 'high' },
    });
    expect(body).not.toHaveProperty('thinking');
    expect(body.tool_choice).toEqual({ type: 'any' });
  });

  it('when the last tool-calling assistant turn comes back without its thinking block', () => {
    const body = vendorBody({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 't1', content: 'cold' },
      ],
      tools: [WEATHER_TOOL],
      reasoning: { effort: 'high' },
    });
    expect(body).not.toHaveProperty('thinking');
  });
});
