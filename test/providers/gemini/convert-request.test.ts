import { describe, expect, it } from 'vitest';
import { fromChat, type ChatCompletionRequest } from '../../helpers/chat-requests.js';
import { GatewayError } from '../../../src/core/gateway-error.js';
import { buildBody, buildRequest, generateContentUrl } from '../../../src/providers/gemini/index.js';
import { geminiContext } from './helpers.js';

type Body = Record<string, unknown>;

function body(request: Partial<ChatCompletionRequest>, ...args: Parameters<typeof geminiContext>): Body {
  const full = {
    model: 'google/gemini-2.5-flash',
    messages: [{ role: 'user', content: 'hi' }],
    ...request,
  } as ChatCompletionRequest;
  return JSON.parse(buildRequest(fromChat(full), geminiContext(...args)).body) as Body;
}

const WEATHER_TOOL: NonNullable<ChatCompletionRequest['tools']>[number] = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city'],
      additionalProperties: false,
    },
    strict: true,
  },
};

describe('buildRequest: transport', () => {
  it('POSTs to :generateContent with the operator key in x-goog-api-key and no client headers', () => {
    const request = buildRequest(
      fromChat({ model: 'google/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }),
      geminiContext({ maxOutputTokens: 65536 }, false, {
        headers: { 'X-Goog-Api-Key': 'operator-mistake', 'X-Extra': 'v' },
      }),
    );
    expect(request).toEqual({
      method: 'POST',
      url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
      headers: { 'content-type': 'application/json', 'x-extra': 'v', 'x-goog-api-key': 'AIzaTestKey0123456789' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        generationConfig: { maxOutputTokens: 65536 },
      }),
    });
  });

  it('streams with :streamGenerateContent?alt=sse; a keyless provider sends no key header', () => {
    const request = buildRequest(
      fromChat({ model: 'google/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }),
      geminiContext({}, true, { apiKey: undefined, baseUrl: 'https://proxy.example/v1beta/' }),
    );
    expect(request.url).toBe('https://proxy.example/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(request.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('falls back to the public endpoint and addresses tuned models by their resource name', () => {
    expect(generateContentUrl('', 'gemini-3.5-flash', false)).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-3.5-flash:generateContent',
    );
    expect(generateContentUrl('https://x.test/v1beta', 'tunedModels/my-model-1', true)).toBe(
      'https://x.test/v1beta/tunedModels/my-model-1:streamGenerateContent?alt=sse',
    );
  });
});

describe('buildRequest: a full conversation', () => {
  it('maps system/developer, user images, assistant tool calls, tool results and sampling parameters', () => {
    const got = body(
      {
        messages: [
          { role: 'system', content: 'You are terse.' },
          {
            role: 'developer',
            content: [
              { type: 'text', text: 'Use metric' },
              { type: 'text', text: 'units.' },
            ],
          },
          {
            role: 'user',
            name: 'ann',
            content: [
              { type: 'text', text: 'What is here, and the weather in Oslo and Paris?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
              {
                type: 'image_url',
                image_url: { url: 'https://example.com/photos/fjord.JPG?size=large', detail: 'high' },
              },
              { type: 'image_url', image_url: { url: 'https://example.com/render?id=7' } },
            ],
          },
          {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
              { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_b', content: '{"temperature_c":18}' },
          {
            role: 'tool',
            tool_call_id: 'call_a',
            content: [
              { type: 'text', text: 'light ' },
              { type: 'text', text: 'rain' },
            ],
          },
          { role: 'user', content: 'Thanks. Summarize.' },
        ],
        tools: [WEATHER_TOOL],
        tool_choice: 'auto',
        parallel_tool_calls: false,
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 1000,
        stop: ['END'],
        seed: 42,
        presence_penalty: 0,
        frequency_penalty: 0.5,
        user: 'user-123',
      },
      { maxOutputTokens: 65536 },
    );

    expect(got).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is here, and the weather in Oslo and Paris?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/photos/fjord.JPG?size=large' } },
            { fileData: { fileUri: 'https://example.com/render?id=7' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'Checking.' },
            { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } },
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { temperature_c: 18 } } },
            { functionResponse: { name: 'get_weather', response: { output: 'light rain' } } },
            { text: 'Thanks. Summarize.' },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'You are terse.' }, { text: 'Use metric\nunits.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Current weather for a city',
              parameters: {
                type: 'OBJECT',
                properties: {
                  city: { type: 'STRING', description: 'City name' },
                  unit: { type: 'STRING', enum: ['celsius', 'fahrenheit'] },
                },
                required: ['city'],
              },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: {
        temperature: 0.2,
        topP: 0.9,
        maxOutputTokens: 1000,
        stopSequences: ['END'],
        seed: 42,
        frequencyPenalty: 0.5,
      },
    });
  });

  it('merges consecutive turns of one role and drops empty ones', () => {
    const got = body({
      messages: [
        { role: 'user', content: 'one' },
        { role: 'user', content: '' },
        { role: 'user', content: [{ type: 'text', text: 'two' }] },
        { role: 'assistant', content: '' },
        { role: 'assistant', content: [{ type: 'text', text: 'three' }] },
        { role: 'assistant', content: null },
        { role: 'user', content: 'four' },
      ],
    });
    expect(got.contents).toEqual([
      { role: 'user', parts: [{ text: 'one' }, { text: 'two' }] },
      { role: 'model', parts: [{ text: 'three' }] },
      { role: 'user', parts: [{ text: 'four' }] },
    ]);
  });

  it('wraps non-object tool results and keeps broken argument JSON from another model', () => {
    const got = body({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'count', arguments: '' } },
            { id: 'c2', type: 'function', function: { name: 'count', arguments: '{"n": 1' } },
            { id: 'c3', type: 'function', function: { name: 'count', arguments: '[1,2]' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '42' },
        { role: 'tool', tool_call_id: 'c2', content: 'not json' },
        { role: 'tool', tool_call_id: 'c3', content: '[1,2]' },
      ],
    });
    expect(got.contents).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'count', args: {} } },
          { functionCall: { name: 'count', args: { arguments: '{"n": 1' } } },
          { functionCall: { name: 'count', args: { arguments: [1, 2] } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'count', response: { output: 42 } } },
          { functionResponse: { name: 'count', response: { output: 'not json' } } },
          { functionResponse: { name: 'count', response: { output: [1, 2] } } },
        ],
      },
    ]);
  });

  it('answers 400 for a tool result no assistant call asked for', () => {
    const request = {
      model: 'google/gemini-2.5-flash',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'tool', tool_call_id: 'call_nope', content: '1' },
      ],
    } as ChatCompletionRequest;
    expect(() => buildBody(fromChat(request), geminiContext())).toThrow(GatewayError);
    expect(() => buildBody(fromChat(request), geminiContext())).toThrow(/call_nope/);
  });

  it('answers 400 when every user message is empty (Gemini rejects empty text and needs a user turn)', () => {
    const request = {
      model: 'm',
      messages: [
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: '' },
        { role: 'assistant', content: 'Hello?' },
      ],
    } as ChatCompletionRequest;
    expect(() => buildBody(fromChat(request), geminiContext())).toThrow(
      expect.objectContaining({ status: 400, metadata: expect.objectContaining({ reason: 'empty_conversation' }) }),
    );
  });

  it('re-encodes percent-encoded data URLs and rejects unusable image URLs with 400', () => {
    const got = body({
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/svg+xml,%3Csvg%2F%3E' } }] },
      ],
    });
    expect(got.contents).toEqual([
      {
        role: 'user',
        parts: [{ inlineData: { mimeType: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') } }],
      },
    ]);
    for (const url of ['ftp://example.com/a.png', 'not a url', 'data:image/png;base64']) {
      const request = {
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
      } as ChatCompletionRequest;
      expect(() => buildBody(fromChat(request), geminiContext())).toThrow(
        expect.objectContaining({ status: 400, metadata: expect.objectContaining({ reason: 'invalid_image_url' }) }),
      );
    }
  });
});

describe('buildRequest: tools, tool_choice and output format', () => {
  it('maps each tool_choice to functionCallingConfig', () => {
    const config = (tool_choice: ChatCompletionRequest['tool_choice']) =>
      body({ tools: [WEATHER_TOOL], tool_choice }).toolConfig;
    expect(config('auto')).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(config('none')).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(config('required')).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(config({ type: 'function', function: { name: 'get_weather' } })).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
    expect(config(undefined)).toBeUndefined();
  });

  it('sends no tool config without tools, and no parameters for argument-less functions', () => {
    expect(body({ tool_choice: 'required' })).not.toHaveProperty('toolConfig');
    const got = body({
      tools: [
        { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'ping' } },
      ],
    });
    expect(got.tools).toEqual([{ functionDeclarations: [{ name: 'now' }, { name: 'ping' }] }]);
  });

  it('json_object → responseMimeType; json_schema → responseMimeType + converted responseSchema', () => {
    expect(
      body({ response_format: { type: 'json_object' } } as Partial<ChatCompletionRequest>).generationConfig as Body,
    ).toEqual({ responseMimeType: 'application/json' });
    const got = body({
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'answer',
          strict: true,
          schema: {
            type: 'object',
            properties: { n: { type: ['integer', 'null'] } },
            required: ['n'],
            additionalProperties: false,
          },
        },
      },
    } as Partial<ChatCompletionRequest>);
    expect(got.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'OBJECT', properties: { n: { type: 'INTEGER', nullable: true } }, required: ['n'] },
    });
    expect(body({ response_format: { type: 'text' } } as Partial<ChatCompletionRequest>)).not.toHaveProperty(
      'generationConfig',
    );
  });

  it('caps max tokens at the model maximum; max_completion_tokens wins over max_tokens; a single stop string becomes a list', () => {
    const config = (request: Partial<ChatCompletionRequest>, max?: number) =>
      body(request, max === undefined ? {} : { maxOutputTokens: max }).generationConfig;
    expect(config({ max_tokens: 100, max_completion_tokens: 200 }, 8192)).toEqual({ maxOutputTokens: 200 });
    expect(config({ max_tokens: 100000 }, 8192)).toEqual({ maxOutputTokens: 8192 });
    expect(config({ max_tokens: 100000 })).toEqual({ maxOutputTokens: 100000 });
    expect(config({ stop: 'STOP' })).toEqual({ stopSequences: ['STOP'] });
    expect(config({ stop: null, temperature: null, top_p: null, max_tokens: null })).toBeUndefined();
  });

  it("sends the client's topK (Gemini CLI sends 64); a failed tool result goes under `error`, Gemini's key for failures", () => {
    const request = {
      model: 'google/gemini-2.5-flash',
      system: [],
      tools: [],
      stream: false,
      topK: 64,
      messages: [
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'run it' }] },
        {
          role: 'assistant' as const,
          content: [{ type: 'tool_call' as const, id: 'c1', name: 'run', kind: 'function' as const, input: '{}' }],
        },
        {
          role: 'user' as const,
          content: [
            {
              type: 'tool_result' as const,
              callId: 'c1',
              isError: true,
              content: [{ type: 'text' as const, text: 'command not found' }],
            },
          ],
        },
      ],
    };
    const sent = buildBody(request, geminiContext());
    expect(sent.generationConfig).toEqual({ topK: 64 });
    expect((sent.contents as Body[])[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'run', response: { error: 'command not found' } } }],
    });
  });
});
