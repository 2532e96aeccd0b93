// Component schemas of generated/openapi.json: they compile in Ajv (as openapi-backend compiles them),
// accept the shapes the gateway sends, reject broken ones, and avoid OpenAPI 3.0 shapes Ajv rejects.
import { describe, expect, it } from 'vitest';
import { loadDocument, schemaValidators } from './spec-document.js';

const doc = loadDocument();
const validator = schemaValidators(doc);
const valid = (name: string, value: unknown) => {
  const validate = validator(name);
  const ok = validate(value);
  return ok ? true : validate.errors;
};

const chunkBase = { id: 'gen-1', object: 'chat.completion.chunk', created: 1732200000, model: 'openai/gpt-4o-mini' };
const usage = {
  prompt_tokens: 10,
  completion_tokens: 5,
  total_tokens: 15,
  prompt_tokens_details: { cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 2 },
  cost: 0.00001,
  cost_details: { access_mode: 'pass', charged: false },
};

describe('document shape', () => {
  it('never puts nullable on a schema without a type, and never closes an object schema', () => {
    const problems: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) {
        for (const [i, v] of node.entries()) walk(v, `${path}/${i}`);
        return;
      }
      if (!node || typeof node !== 'object') return;
      const obj = node as Record<string, unknown>;
      if (obj.nullable === true && !('type' in obj)) problems.push(`nullable without type at ${path}`);
      if (obj.additionalProperties === false) problems.push(`additionalProperties: false at ${path}`);
      for (const [k, v] of Object.entries(obj)) walk(v, `${path}/${k}`);
    };
    walk(doc, '#');
    expect(problems).toEqual([]);
  });

  it('emits the schema names the code imports', () => {
    const names = [
      'ErrorResponse',
      'ErrorObject',
      'ChatCompletionRequest',
      'ChatMessage',
      'SystemMessage',
      'DeveloperMessage',
      'UserMessage',
      'AssistantMessage',
      'ToolMessage',
      'ContentPart',
      'TextContentPart',
      'ImageContentPart',
      'ToolDefinition',
      'FunctionDefinition',
      'ToolCall',
      'ToolChoice',
      'ResponseFormat',
      'StreamOptions',
      'ReasoningConfig',
      'ReasoningDetail',
      'ChatCompletion',
      'ChatCompletionChoice',
      'AssistantResponseMessage',
      'FinishReason',
      'ChoiceError',
      'ChatCompletionChunk',
      'ChunkChoice',
      'ChunkDelta',
      'ToolCallDelta',
      'Usage',
      'Model',
      'ModelPricing',
      'ModelList',
      'ApiKey',
      'ApiKeyList',
      'CreateApiKeyRequest',
      'CreatedApiKey',
      'DeletedApiKey',
      'KeyInfo',
      'Credits',
      'Generation',
      'PassUsage',
    ];
    expect(names.filter((n) => !doc.components.schemas[n])).toEqual([]);
  });

  it('emits last_used_at as a nullable date-time string', () => {
    const apiKey = doc.components.schemas.ApiKey as { properties: Record<string, unknown> };
    expect(apiKey.properties.last_used_at).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
  });

  it('has examples that match their own schemas', () => {
    const withExamples = Object.entries(doc.components.schemas).filter(([, s]) => 'example' in s);
    expect(withExamples.length).toBeGreaterThanOrEqual(15);
    for (const [name, schema] of withExamples) expect(valid(name, schema.example), name).toBe(true);
  });

  it('has operation examples that match their request and response schemas', () => {
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops) as [string, Record<string, any>][]) {
        const bodies = [op.requestBody, ...Object.values(op.responses ?? {})];
        for (const body of bodies) {
          const media = body?.content?.['application/json'];
          // A component, or an array of one (the Gemini door's JSON-array stream): each element is checked.
          const array = media?.schema?.type === 'array';
          const ref: string | undefined = array ? media?.schema?.items?.$ref : media?.schema?.$ref;
          for (const [title, example] of Object.entries(media?.examples ?? {}) as [string, { value: unknown }][]) {
            expect(ref, `${method} ${path} ${title}: a schema by reference`).toBeDefined();
            const values = array ? (example.value as unknown[]) : [example.value];
            if (array) expect(Array.isArray(example.value), `${method} ${path} ${title}`).toBe(true);
            for (const value of values)
              expect(valid(ref!.split('/').pop()!, value), `${method} ${path} ${title}`).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(2);
  });
});

describe('ChatCompletionChunk', () => {
  it('accepts the role, content, tool-call, final and error chunks the gateway sends', () => {
    const role = {
      ...chunkBase,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    };
    const reasoning = {
      ...chunkBase,
      choices: [
        {
          index: 0,
          delta: {
            reasoning: 'hmm',
            reasoning_details: [{ type: 'reasoning.text', text: 'hmm', signature: null, vendor_field: 1 }],
          },
        },
      ],
    };
    const tool = {
      ...chunkBase,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] },
        },
      ],
    };
    const final = { ...chunkBase, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage };
    const error = {
      ...chunkBase,
      choices: [
        { index: 0, delta: {}, finish_reason: 'error', error: { code: 'server_error', message: 'upstream closed' } },
      ],
    };
    for (const chunk of [role, reasoning, tool, final, error]) expect(valid('ChatCompletionChunk', chunk)).toBe(true);
  });

  it('documents an SSE example whose data lines are valid chunks ending with [DONE]', () => {
    const stream = doc.components.schemas.ChatCompletionEventStream as { type: string; example: string };
    expect(stream.type).toBe('string');
    const data = stream.example
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6));
    expect(data.at(-1)).toBe('[DONE]');
    expect(data.length).toBeGreaterThanOrEqual(3);
    for (const line of data.slice(0, -1)) expect(valid('ChatCompletionChunk', JSON.parse(line))).toBe(true);
  });

  it.each([
    ['no id', { object: chunkBase.object, created: 1, model: 'm', choices: [] }],
    ['a user role delta', { ...chunkBase, choices: [{ index: 0, delta: { role: 'user' } }] }],
    ['usage: null (absent, never null)', { ...chunkBase, choices: [], usage: null }],
    ['the completion object type', { ...chunkBase, object: 'chat.completion', choices: [] }],
    [
      'an error without a code',
      { ...chunkBase, choices: [{ index: 0, delta: {}, finish_reason: 'error', error: { message: 'x' } }] },
    ],
    [
      'an unknown reasoning detail type',
      { ...chunkBase, choices: [{ index: 0, delta: { reasoning_details: [{ type: 'reasoning.other' }] } }] },
    ],
  ])('rejects a chunk with %s', (_name, chunk) => {
    expect(valid('ChatCompletionChunk', chunk)).not.toBe(true);
  });
});

describe('ChatCompletion', () => {
  const completion = {
    id: 'gen-1',
    object: 'chat.completion',
    created: 1732200000,
    model: 'openai/gpt-4o-mini',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage,
  };

  it('accepts a tool-call completion and an open finish reason', () => {
    expect(valid('ChatCompletion', completion)).toBe(true);
    const vendorReason = { ...completion, choices: [{ ...completion.choices[0], finish_reason: 'pause_turn' }] };
    expect(valid('ChatCompletion', vendorReason)).toBe(true);
  });

  it('rejects a completion without usage, a message without content, or a negative token count', () => {
    const { usage: _dropped, ...noUsage } = completion;
    expect(valid('ChatCompletion', noUsage)).not.toBe(true);
    const noContent = { ...completion, choices: [{ ...completion.choices[0], message: { role: 'assistant' } }] };
    expect(valid('ChatCompletion', noContent)).not.toBe(true);
    expect(valid('ChatCompletion', { ...completion, usage: { ...usage, prompt_tokens: -1 } })).not.toBe(true);
  });
});

describe('ErrorResponse', () => {
  it('accepts numeric and string codes with metadata', () => {
    expect(
      valid('ErrorResponse', {
        error: { code: 400, message: 'messages: must contain a user message', metadata: { field: 'messages' } },
      }),
    ).toBe(true);
    expect(valid('ErrorResponse', { error: { code: 'rate_limit', message: 'slow down' } })).toBe(true);
  });

  it('rejects an error without code or message, or with a boolean code', () => {
    expect(valid('ErrorResponse', { error: { message: 'x' } })).not.toBe(true);
    expect(valid('ErrorResponse', { error: { code: 500 } })).not.toBe(true);
    expect(valid('ErrorResponse', { error: { code: true, message: 'x' } })).not.toBe(true);
    expect(valid('ErrorResponse', { message: 'x' })).not.toBe(true);
  });
});

describe('management schemas', () => {
  it('accepts key records with and without last use, and rejects a malformed date', () => {
    const key = {
      key_id: 'key_1',
      name: 'CI',
      prefix: 'mg-v1-ab12',
      created_at: '2025-11-01T09:30:00Z',
      last_used_at: null,
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      limit: null,
      limit_remaining: null,
      limit_reset: null,
      expires_at: null,
      disabled: false,
      allowed_models: null,
    };
    expect(valid('ApiKey', key)).toBe(true);
    expect(valid('ApiKey', { ...key, last_used_at: '2025-11-02T10:00:00.123Z' })).toBe(true);
    expect(valid('ApiKey', { ...key, created_at: 'yesterday' })).not.toBe(true);
    expect(valid('CreatedApiKey', { ...key, key: 'mg-v1-secret' })).toBe(true);
    expect(valid('CreatedApiKey', key)).not.toBe(true);
  });

  it('requires decimal price strings without exponents', () => {
    const model = doc.components.schemas.Model.example as Record<string, any>;
    expect(valid('Model', { ...model, pricing: { prompt: '0', completion: '0' } })).toBe(true);
    expect(valid('Model', { ...model, pricing: { prompt: '3e-6', completion: '0' } })).not.toBe(true);
  });
});
