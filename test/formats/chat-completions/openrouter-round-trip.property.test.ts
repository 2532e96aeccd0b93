// Property: a chat-completions request parsed by the chat door and rendered by the OpenAI-compatible adapter for
// OpenRouter (the dialect that carries the most: developer messages, names, cache_control on parts, reasoning and
// reasoning_details, refusals, routing preferences and sampling extras) is the request the client sent, up to the
// forms the chat format defines as the same: one plain text part and its string, a tool result's text parts joined.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseChatRequest } from '../../../src/formats/chat-completions/parse-request.js';
import type { ChatCompletionRequest } from '../../../src/formats/chat-completions/wire-types.js';
import { buildRequest } from '../../../src/providers/openai-compatible/index.js';
import { context } from '../../helpers/stream-replay.js';

type Json = Record<string, any>;

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const clean = <T extends Json>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

const text = fc.string({ maxLength: 10 });
/** JSON has no -0: a number the client can send. */
const number = (min: number, max: number) => fc.double({ min, max, noNaN: true }).map((n) => (n === 0 ? 0 : n));
const name = optional(fc.stringMatching(/^[a-z]{1,6}$/));
const cacheControl = optional(
  fc.oneof(fc.constant({ type: 'ephemeral' }), fc.constant({ type: 'ephemeral', ttl: '1h' })),
);
const textPart = fc.record({ type: fc.constant('text'), text, cache_control: cacheControl }).map(clean);
const userPart = fc.oneof(
  textPart,
  fc
    .record({
      type: fc.constant('image_url'),
      image_url: fc
        .record({
          url: fc.constantFrom('data:image/png;base64,iVBORw0KGgo=', 'https://example.com/a.jpg'),
          detail: optional(fc.constantFrom('low', 'high', 'auto')),
        })
        .map(clean),
      cache_control: cacheControl,
    })
    .map(clean),
  fc
    .record({
      type: fc.constant('file'),
      file: fc
        .record({
          filename: optional(fc.constantFrom('a.pdf', 'report.pdf')),
          file_data: fc.constantFrom('data:application/pdf;base64,JVBERi0xLjQK'),
        })
        .map(clean),
      cache_control: cacheControl,
    })
    .map(clean),
);
const detail = fc.oneof(
  fc
    .record({
      type: fc.constant('reasoning.text'),
      text,
      signature: optional(fc.base64String({ minLength: 4, maxLength: 12 })),
      format: fc.constantFrom('anthropic-claude-v1', 'unknown'),
      index: fc.nat(3),
    })
    .map(clean),
  fc.record({
    type: fc.constant('reasoning.summary'),
    summary: text,
    format: fc.constant('openai-responses-v1'),
    index: fc.nat(3),
  }),
  fc
    .record({
      type: fc.constant('reasoning.encrypted'),
      data: fc.base64String({ minLength: 4, maxLength: 12 }),
      id: optional(fc.stringMatching(/^rs_[a-z0-9]{4}$/)),
      format: fc.constant('openai-responses-v1'),
      index: fc.nat(3),
    })
    .map(clean),
);

const message: fc.Arbitrary<Json> = fc.oneof(
  fc
    .record({
      role: fc.constantFrom('system', 'developer'),
      content: fc.oneof(text, fc.array(textPart, { minLength: 1, maxLength: 2 })),
      name,
    })
    .map(clean),
  fc
    .record({
      role: fc.constant('user'),
      content: fc.oneof(text, fc.array(userPart, { minLength: 1, maxLength: 3 })),
      name,
    })
    .map(clean),
  fc
    .record({
      role: fc.constant('assistant'),
      content: fc.oneof(
        fc.constant(null),
        text.filter((s) => s !== ''),
      ),
      reasoning: optional(text.filter((s) => s !== '')),
      reasoning_details: optional(fc.array(detail, { minLength: 1, maxLength: 2 })),
      refusal: optional(text.filter((s) => s !== '')),
      tool_calls: optional(
        fc.array(
          fc.record({
            id: fc.stringMatching(/^call_[a-z0-9]{4}$/),
            type: fc.constant('function'),
            function: fc.record({ name: fc.constantFrom('f', 'g'), arguments: fc.constantFrom('{}', '{"a":1}') }),
          }),
          { minLength: 1, maxLength: 2 },
        ),
      ),
      name,
    })
    .map(clean),
  fc.record({
    role: fc.constant('tool'),
    tool_call_id: fc.stringMatching(/^call_[a-z0-9]{4}$/),
    content: fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { minLength: 1, maxLength: 3 })),
  }),
);

const request = fc
  .record({
    messages: fc.array(message, { minLength: 1, maxLength: 6 }),
    tools: optional(
      fc.constant([
        {
          type: 'function',
          function: { name: 'f', description: 'F', parameters: { type: 'object', properties: {} }, strict: true },
        },
      ]),
    ),
    tool_choice: optional(fc.constantFrom('auto', 'none', 'required', { type: 'function', function: { name: 'f' } })),
    parallel_tool_calls: optional(fc.boolean()),
    temperature: optional(number(0, 2)),
    top_p: optional(number(0, 1)),
    max_tokens: optional(fc.integer({ min: 1, max: 100_000 })),
    stop: optional(fc.array(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 })),
    seed: optional(fc.integer()),
    presence_penalty: optional(number(-2, 2)),
    frequency_penalty: optional(number(-2, 2)),
    response_format: optional(
      fc.constantFrom(
        { type: 'json_object' },
        { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' }, strict: true } },
      ),
    ),
    user: optional(fc.stringMatching(/^u-[0-9]{1,4}$/)),
    reasoning: optional(
      fc
        .record({
          effort: optional(fc.constantFrom('low', 'high')),
          max_tokens: optional(fc.integer({ min: 1, max: 8000 })),
          exclude: optional(fc.boolean()),
          enabled: optional(fc.boolean()),
        })
        .map(clean),
    ),
    provider: optional(fc.constant({ order: ['anthropic'], allow_fallbacks: false })),
    top_k: optional(fc.integer({ min: 1, max: 100 })),
    transforms: optional(fc.constant(['middle-out'])),
    stream: fc.boolean(),
  })
  .map((r) => clean({ model: 'openrouter/anthropic/claude-sonnet-5.5', ...r }));

/** What the client sent, in the forms the adapter writes: strings for one plain text part, joined tool text. */
function normalized(body: Json): Json {
  const plainText = (content: unknown) =>
    Array.isArray(content) && content.length === 1 && content[0].type === 'text' && !content[0].cache_control
      ? content[0].text
      : content;
  const messages = body.messages.map((m: Json) => {
    if (m.role === 'tool')
      return { ...m, content: typeof m.content === 'string' ? m.content : m.content.map((p: Json) => p.text).join('') };
    if (m.role === 'assistant') {
      const out: Json = { role: 'assistant', content: m.content ?? null };
      if (m.tool_calls) out.tool_calls = m.tool_calls;
      if (m.reasoning) out.reasoning = m.reasoning;
      if (m.reasoning_details) out.reasoning_details = m.reasoning_details;
      if (m.refusal) out.refusal = m.refusal;
      if (m.name) out.name = m.name;
      return out;
    }
    // A PDF without a file name goes by the default name (vendors want one).
    const named = Array.isArray(m.content)
      ? m.content.map((p: Json) => (p.type === 'file' ? { ...p, file: { filename: 'document.pdf', ...p.file } } : p))
      : m.content;
    return clean({ ...m, content: plainText(named) });
  });
  const out: Json = { model: 'anthropic/claude-sonnet-5.5', messages };
  if (body.tools) {
    out.tools = body.tools;
    if (body.tool_choice !== undefined) out.tool_choice = body.tool_choice;
    if (body.parallel_tool_calls !== undefined) out.parallel_tool_calls = body.parallel_tool_calls;
  }
  for (const field of [
    'temperature',
    'top_p',
    'stop',
    'presence_penalty',
    'frequency_penalty',
    'response_format',
    'max_tokens',
    'seed',
    'user',
    'reasoning',
    'provider',
    'transforms',
    'top_k',
  ]) {
    if (body[field] !== undefined) out[field] = body[field];
  }
  out.stream = body.stream;
  if (body.stream) out.stream_options = { include_usage: true };
  return out;
}

describe('property: chat door → OpenAI-compatible adapter (OpenRouter)', () => {
  it("renders the client's request back, for everything both carry", () => {
    fc.assert(
      fc.property(request, (body) => {
        const ctx = context(
          { id: 'openrouter', baseUrl: 'https://openrouter.test/api/v1' },
          { upstreamModel: 'anthropic/claude-sonnet-5.5', supportsReasoning: true },
          body.stream,
        );
        const sent = JSON.parse(
          buildRequest(parseChatRequest(body as unknown as ChatCompletionRequest, body.stream), ctx).body,
        ) as Json;
        expect(sent).toEqual(normalized(body));
      }),
      { numRuns: 300 },
    );
  });
});
