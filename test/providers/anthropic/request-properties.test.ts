// Property: any valid gateway request (drawn as a chat client writes it, parsed by the chat door) becomes an Anthropic request that validates against the schema
// written from Anthropic's API reference and obeys its turn, tool and thinking rules.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import {
  fromChat,
  type ChatCompletionRequest,
  type ChatMessage,
  type ContentPart,
  type ReasoningDetail,
  type ToolCall,
} from '../../helpers/chat-requests.js';
import { buildRequest } from '../../../src/providers/anthropic/index.js';
import { ANTHROPIC_REQUEST_SCHEMA, anthropicRuleViolations } from './anthropic-request-schema.js';
import { anthropicContext } from './anthropic-context.js';

const validate = new Ajv({ allErrors: true, strict: false }).compile(ANTHROPIC_REQUEST_SCHEMA);

const TOOL_NAMES = ['get_weather', 'lookup', 'sum-2'] as const;
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', ' ', 'ends with space ', 'line\n', 'é世😀'));
const image = fc.oneof(
  fc.constantFrom('png', 'jpeg', 'jpg', 'gif', 'webp').map((t) => `data:image/${t};base64,iVBORw0KGgo=`),
  fc.constantFrom('https://example.com/a.png', 'http://example.com/b.jpg'),
);
const parts: fc.Arbitrary<ContentPart[]> = fc.array(
  fc.oneof(
    text.map((t): ContentPart => ({ type: 'text', text: t })),
    image.map((url): ContentPart => ({ type: 'image_url', image_url: { url } })),
  ),
  { maxLength: 3 },
);
const textParts = fc.array(
  text.map((t) => ({ type: 'text' as const, text: t })),
  { maxLength: 3 },
);
const jsonObject = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const detail: fc.Arbitrary<ReasoningDetail> = fc.oneof(
  fc.record({ text, signature: fc.string({ minLength: 1, maxLength: 20 }) }).map(
    ({ text: t, signature }): ReasoningDetail => ({
      type: 'reasoning.text',
      text: t,
      signature,
      format: 'anthropic-claude-v1',
    }),
  ),
  fc
    .string({ minLength: 1, maxLength: 20 })
    .map((data): ReasoningDetail => ({ type: 'reasoning.encrypted', data, format: 'anthropic-claude-v1' })),
  fc
    .string({ minLength: 1, maxLength: 20 })
    .map((data): ReasoningDetail => ({ type: 'reasoning.encrypted', data, format: 'openai-responses-v1' })),
  text.map((summary): ReasoningDetail => ({ type: 'reasoning.summary', summary })),
);

/** One exchange: messages in an order a real client produces (tool results right after their calls). */
type Exchange = ChatMessage[];
const system: fc.Arbitrary<Exchange> = fc
  .tuple(fc.constantFrom('system', 'developer' as const), fc.oneof(text, textParts))
  .map(([role, content]) => [{ role, content } as ChatMessage]);
const user: fc.Arbitrary<Exchange> = fc.oneof(text, parts).map((content) => [{ role: 'user', content }]);
const assistant: fc.Arbitrary<Exchange> = fc
  .record({
    content: fc.oneof(text, textParts, fc.constant(null)),
    details: fc.option(fc.array(detail, { maxLength: 3 }), { nil: undefined }),
    calls: fc.array(
      fc.record({
        name: fc.constantFrom(...TOOL_NAMES),
        args: fc.oneof(
          jsonObject.map((o) => JSON.stringify(o)),
          fc.constant(''),
        ),
        idStyle: fc.constantFrom('toolu_', 'call-', 'functions.x:'),
      }),
      { maxLength: 3 },
    ),
    results: fc.array(fc.oneof(text, textParts), { minLength: 3, maxLength: 3 }),
  })
  .map(({ content, details, calls, results }) => {
    const toolCalls: ToolCall[] = calls.map((c, i) => ({
      id: `${c.idStyle}${i}`,
      type: 'function',
      function: { name: c.name, arguments: c.args },
    }));
    const message: ChatMessage = { role: 'assistant', content };
    if (details) message.reasoning_details = details;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return [
      message,
      ...toolCalls.map((call, i): ChatMessage => ({ role: 'tool', tool_call_id: call.id, content: results[i] })),
    ];
  });

/** Tool ids must be unique in one conversation, as every vendor mints them. */
function uniqueIds(exchanges: Exchange[]): ChatMessage[] {
  let n = 0;
  return exchanges.flatMap((exchange) => {
    const rename = new Map<string, string>();
    return exchange.map((m): ChatMessage => {
      if (m.role === 'assistant' && m.tool_calls) {
        return {
          ...m,
          tool_calls: m.tool_calls.map((c) => {
            const id = `${c.id}_${n++}`;
            rename.set(c.id, id);
            return { ...c, id };
          }),
        };
      }
      if (m.role === 'tool') return { ...m, tool_call_id: rename.get(m.tool_call_id) ?? m.tool_call_id };
      return m;
    });
  });
}

const request: fc.Arbitrary<ChatCompletionRequest> = fc
  .record({
    exchanges: fc.array(
      fc.oneof({ weight: 1, arbitrary: system }, { weight: 3, arbitrary: user }, { weight: 3, arbitrary: assistant }),
      { maxLength: 8 },
    ),
    question: fc.string({ minLength: 1, maxLength: 10 }).filter((s) => s.trim() !== ''),
    tools: fc.subarray([...TOOL_NAMES]),
    tool_choice: fc.option(
      fc.oneof(
        fc.constantFrom('auto', 'none', 'required' as const),
        fc.constantFrom(...TOOL_NAMES).map((name) => ({ type: 'function' as const, function: { name } })),
      ),
      { nil: undefined },
    ),
    parallel_tool_calls: fc.option(fc.boolean(), { nil: undefined }),
    temperature: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: undefined }),
    top_p: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    max_tokens: fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
    max_completion_tokens: fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
    stop: fc.option(fc.oneof(text, fc.array(text, { maxLength: 4 })), { nil: undefined }),
    reasoning: fc.option(
      fc.record(
        {
          effort: fc.constantFrom('none', 'minimal', 'low', 'medium', 'high', 'xhigh' as const),
          max_tokens: fc.integer({ min: 0, max: 100_000 }),
          enabled: fc.boolean(),
          exclude: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    ),
    user: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined }),
  })
  .map(({ exchanges, question, tools, ...params }) => {
    const messages = uniqueIds(exchanges);
    // Every conversation holds at least one real user message (the gateway enforces it).
    messages.splice(Math.floor(messages.length / 2), 0, { role: 'user', content: question });
    const out: ChatCompletionRequest = { model: 'anthropic/claude-sonnet-4-5', messages, ...params };
    // A named tool_choice names a declared tool, as a client that declares tools does.
    const named = typeof params.tool_choice === 'object' ? params.tool_choice.function.name : undefined;
    const declared = named && !tools.includes(named as (typeof TOOL_NAMES)[number]) ? [...tools, named] : tools;
    if (declared.length > 0) {
      out.tools = declared.map((name) => ({
        type: 'function',
        function: { name, parameters: { type: 'object', properties: {} } },
      }));
    }
    return out;
  });

// Only conversations in which every tool call is answered right away (what the arbitrary builds).
describe('property: gateway request → Anthropic request', () => {
  it('validates against the Messages API schema and obeys its turn, tool and thinking rules', () => {
    fc.assert(
      fc.property(
        request,
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 200_000 }), { nil: undefined }),
        (req, stream, supportsReasoning, maxOutputTokens) => {
          const ctx = anthropicContext({ supportsReasoning, maxOutputTokens }, stream);
          const body = JSON.parse(buildRequest(fromChat(req, stream), ctx).body) as Record<string, unknown>;
          if (!validate(body))
            throw new Error(`schema: ${JSON.stringify(validate.errors?.slice(0, 3))}\n${JSON.stringify(body)}`);
          expect(anthropicRuleViolations(body)).toEqual([]);
          expect(body.stream).toBe(stream);
          if (maxOutputTokens !== undefined) expect(body.max_tokens).toBeLessThanOrEqual(maxOutputTokens);
          if (!supportsReasoning) expect(body).not.toHaveProperty('thinking');
        },
      ),
      { numRuns: 400 },
    );
  });
});
