// Property: any valid gateway request becomes a Gemini request that validates against a JSON Schema of
// GenerateContentRequest written from Google's reference (test/fixtures/gemini/generate-content-request.schema.json)
// and keeps Gemini's turn rules: roles alternate, calls only in model turns, responses only in user turns and
// named after a call, and on Gemini 3 the first call of every model turn carries a signature.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import AjvModule from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  fromChat,
  type ChatCompletionRequest,
  type ChatMessage,
  type ReasoningDetail,
  type ToolDefinition,
} from '../../helpers/chat-requests.js';
import type { AdapterContext } from '../../../src/providers/adapter.js';
import { buildRequest } from '../../../src/providers/gemini/index.js';
import { loadDocument, schemaValidators } from '../../unit/spec-document.js';

const Ajv = AjvModule.default;
const schemaFile = fileURLToPath(
  new URL('../../fixtures/gemini/generate-content-request.schema.json', import.meta.url),
);
const validateGemini = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(schemaFile, 'utf8')),
);
const validateGateway = schemaValidators(loadDocument())('ChatCompletionRequest');

// ---- arbitraries -------------------------------------------------------------------------------

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', 'héllo 世界 😀', '{"json":"looking"}'));
const base64 = fc.uint8Array({ minLength: 1, maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString('base64'));

/** JSON Schemas as clients write them, including keywords Gemini does not accept. */
const jsonSchema: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean') }, { requiredKeys: ['type'] })
      .chain((base) =>
        fc
          .record(
            {
              description: text,
              format: fc.constantFrom('date-time', 'uuid', 'int32', 'float', 'email'),
              enum: fc.oneof(
                fc.array(word, { minLength: 1, maxLength: 3 }),
                fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
              ),
              minimum: fc.integer(),
              exclusiveMaximum: fc.integer(),
              pattern: fc.constant('^[a-z]+$'),
              nullable: fc.boolean(),
              default: fc.jsonValue({ maxDepth: 1 }),
            },
            { requiredKeys: [] },
          )
          .map((extra) => ({ ...base, ...extra })),
      ),
    fc.record({ type: fc.constant(['string', 'null']), description: text }, { requiredKeys: ['type'] }),
    fc.record({ const: fc.oneof(word, fc.integer()) }),
    fc.record(
      { type: fc.constant('array'), items: tie('node'), minItems: fc.nat(3), uniqueItems: fc.boolean() },
      { requiredKeys: ['type'] },
    ),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.tuple(tie('node'), fc.constant({ type: 'null' })) }),
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(word, tie('node'), { maxKeys: 3 }),
        required: fc.array(word, { maxLength: 3 }),
        additionalProperties: fc.boolean(),
        patternProperties: fc.constant({ '^x': { type: 'string' } }),
      },
      { requiredKeys: ['type', 'properties'] },
    ),
  ),
})).node;

const topSchema = fc.record(
  {
    $schema: fc.constant('http://json-schema.org/draft-07/schema#'),
    type: fc.constant('object'),
    properties: fc.dictionary(word, jsonSchema, { maxKeys: 4 }),
    required: fc.array(word, { maxLength: 2 }),
    additionalProperties: fc.constant(false),
    $defs: fc.constant({ Tag: { type: 'string', enum: ['a', 'b'] } }),
  },
  { requiredKeys: ['type', 'properties'] },
);

const tools = fc
  .uniqueArray(fc.stringMatching(/^[a-zA-Z0-9_-]{1,64}$/), { maxLength: 3 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc
          .record({ description: text, parameters: topSchema, strict: fc.boolean() }, { requiredKeys: [] })
          .map((fn): ToolDefinition => ({ type: 'function', function: { name, ...fn } })),
      ),
    ),
  );

const userPart = fc.oneof(
  text.map((t) => ({ type: 'text' as const, text: t })),
  fc
    .tuple(fc.constantFrom('png', 'jpeg', 'webp', 'gif'), base64)
    .map(([sub, data]) => ({ type: 'image_url' as const, image_url: { url: `data:image/${sub};base64,${data}` } })),
  fc
    .constantFrom('https://example.com/a.png', 'https://img.example/x?y=1', 'https://example.com/p.JPEG')
    .map((url) => ({ type: 'image_url' as const, image_url: { url, detail: 'low' as const } })),
);

const textContent = fc.oneof(
  text,
  fc.array(
    text.map((t) => ({ type: 'text' as const, text: t })),
    { maxLength: 3 },
  ),
);

const reasoningDetail = (callIds: string[]): fc.Arbitrary<ReasoningDetail> =>
  fc.oneof(
    fc.record({
      type: fc.constant('reasoning.text' as const),
      text,
      signature: base64,
      format: fc.constantFrom('google-gemini-v1', 'anthropic-claude-v1'),
    }),
    fc.record({
      type: fc.constant('reasoning.encrypted' as const),
      data: base64,
      format: fc.constant('google-gemini-v1'),
    }),
    fc.record({
      type: fc.constant('reasoning.encrypted' as const),
      data: base64,
      id: callIds.length > 0 ? fc.constantFrom(...callIds) : fc.constant('x'),
      format: fc.constant('google-gemini-v1'),
    }),
    fc.record({
      type: fc.constant('reasoning.summary' as const),
      summary: text,
      format: fc.constant('openai-responses-v1'),
    }),
  );

/** One exchange: a user turn, optionally an assistant reply with tool calls followed by their results. */
function exchange(toolNames: string[], turn: number): fc.Arbitrary<ChatMessage[]> {
  const user = fc
    .oneof(text, fc.array(userPart, { minLength: 1, maxLength: 3 }))
    .map((content): ChatMessage => ({ role: 'user', content }));
  type Call = NonNullable<Extract<ChatMessage, { role: 'assistant' }>['tool_calls']>[number];
  const calls: fc.Arbitrary<Call[]> =
    toolNames.length === 0
      ? fc.constant<Call[]>([])
      : fc
          .array(
            fc.tuple(fc.constantFrom(...toolNames), fc.dictionary(word, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })),
            { maxLength: 3 },
          )
          .map((list) =>
            list.map(([name, args], i) => ({
              id: `call_${turn}_${i}`,
              type: 'function' as const,
              function: { name, arguments: JSON.stringify(args) },
            })),
          );
  const assistant = calls.chain((toolCalls) =>
    fc
      .record({
        content: fc.oneof(fc.constant(null), textContent),
        details: fc.option(fc.array(reasoningDetail(toolCalls.map((c) => c.id)), { maxLength: 4 }), { nil: undefined }),
        results: fc.shuffledSubarray(toolCalls, { minLength: toolCalls.length, maxLength: toolCalls.length }),
        resultText: fc.array(textContent, { minLength: toolCalls.length, maxLength: toolCalls.length }),
      })
      .map(({ content, details, results, resultText }): ChatMessage[] => [
        {
          role: 'assistant',
          content,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          ...(details ? { reasoning_details: details } : {}),
        },
        ...results.map((call, i): ChatMessage => ({ role: 'tool', tool_call_id: call.id, content: resultText[i] })),
      ]),
  );
  const system = fc.record({ role: fc.constantFrom('system' as const, 'developer' as const), content: textContent });
  return fc
    .tuple(fc.option(system, { nil: undefined }), user, fc.option(assistant, { nil: undefined }))
    .map(([sys, u, a]) => [...(sys ? [sys as ChatMessage] : []), u, ...(a ?? [])]);
}

const models = fc.constantFrom(
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-3-pro-preview',
  'gemini-3.1-pro-preview',
  'gemini-3.5-flash',
  'gemma-4-26b-a4b-it',
);

const scenario = tools.chain((toolDefs) => {
  const names = toolDefs.map((t) => t.function.name);
  const toolChoice = fc.oneof(
    fc.constantFrom('auto' as const, 'none' as const, 'required' as const),
    names.length > 0
      ? fc.constantFrom(...names).map((name) => ({ type: 'function' as const, function: { name } }))
      : fc.constant('auto' as const),
  );
  return fc.record({
    messages: fc
      .array(fc.nat(), { minLength: 1, maxLength: 4 })
      .chain((turns) => fc.tuple(...turns.map((_, i) => exchange(names, i))))
      .map((parts) => parts.flat()),
    params: fc.record(
      {
        tools: fc.constant(toolDefs),
        tool_choice: toolChoice,
        parallel_tool_calls: fc.boolean(),
        temperature: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 2, noNaN: true })),
        top_p: fc.double({ min: 0, max: 1, noNaN: true }),
        max_tokens: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 200_000 })),
        max_completion_tokens: fc.integer({ min: 1, max: 200_000 }),
        stop: fc.oneof(fc.constant(null), text, fc.array(text, { maxLength: 4 })),
        seed: fc.integer(),
        presence_penalty: fc.double({ min: -2, max: 2, noNaN: true }),
        frequency_penalty: fc.double({ min: -2, max: 2, noNaN: true }),
        user: word,
        response_format: fc.oneof(
          fc.constant({ type: 'text' }),
          fc.constant({ type: 'json_object' }),
          fc.record({
            type: fc.constant('json_schema'),
            json_schema: fc.record({ name: word, schema: topSchema, strict: fc.boolean() }),
          }),
        ),
        reasoning: fc.record(
          {
            effort: fc.constantFrom('xhigh', 'high', 'medium', 'low', 'minimal', 'none'),
            max_tokens: fc.nat(40_000),
            exclude: fc.boolean(),
            enabled: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    model: models,
    supportsReasoning: fc.boolean(),
    maxOutputTokens: fc.option(fc.integer({ min: 1, max: 65_536 }), { nil: undefined }),
    stream: fc.boolean(),
  });
});

// ---- the property ------------------------------------------------------------------------------

type Part = Record<string, unknown>;
const isEmpty = (content: unknown) =>
  content === null ||
  content === undefined ||
  content === '' ||
  (Array.isArray(content) && content.every((p: { type: string; text?: string }) => p.type === 'text' && p.text === ''));
type Content = { role: string; parts: Part[] };

describe('buildRequest (property)', () => {
  it('every valid gateway request yields a schema-valid, well-formed Gemini request', () => {
    fc.assert(
      fc.property(scenario, ({ messages, params, model, supportsReasoning, maxOutputTokens, stream }) => {
        const request = { model: `google/${model}`, messages, ...params } as ChatCompletionRequest;
        // Precondition: the generated request is one the gateway's own OpenAPI schema accepts.
        expect(validateGateway(JSON.parse(JSON.stringify(request))), JSON.stringify(validateGateway.errors)).toBe(true);
        const ctx: AdapterContext = {
          provider: {
            id: 'google',
            kind: 'gemini',
            baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
            apiKey: 'k',
          },
          model: { id: `google/${model}`, upstreamModel: model, supportsReasoning, maxOutputTokens },
          stream,
        };
        const empty = messages.every((m) => m.role !== 'tool' && (m.role !== 'user' || isEmpty(m.content)));
        if (empty) {
          // Nothing Gemini would accept: answered 400 by the gateway instead.
          expect(() => buildRequest(fromChat(request), ctx)).toThrow(
            expect.objectContaining({
              status: 400,
              metadata: expect.objectContaining({ reason: 'empty_conversation' }),
            }),
          );
          return;
        }
        const upstream = buildRequest(fromChat(request), ctx);
        const body = JSON.parse(upstream.body) as { contents: Content[] };
        expect(validateGemini(body), JSON.stringify(validateGemini.errors?.slice(0, 3))).toBe(true);
        expect(upstream.url.endsWith(stream ? ':streamGenerateContent?alt=sse' : ':generateContent')).toBe(true);

        const calls = new Map<string, string>();
        let callParts = 0;
        let responseParts = 0;
        body.contents.forEach((content, i) => {
          if (i > 0) expect(content.role).not.toBe(body.contents[i - 1].role);
          const firstCall = content.parts.find((p) => p.functionCall);
          if (firstCall && model.startsWith('gemini-3')) expect(typeof firstCall.thoughtSignature).toBe('string');
          for (const part of content.parts) {
            if (part.functionCall) {
              expect(content.role).toBe('model');
              callParts++;
              calls.set((part.functionCall as { name: string }).name, 'seen');
            }
            if (part.functionResponse) {
              expect(content.role).toBe('user');
              expect(calls.has((part.functionResponse as { name: string }).name)).toBe(true);
              responseParts++;
            }
          }
        });
        const toolMessages = messages.filter((m) => m.role === 'tool').length;
        const toolCalls = messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.tool_calls?.length ?? 0) : 0), 0);
        expect(callParts).toBe(toolCalls);
        expect(responseParts).toBe(toolMessages);
      }),
      { numRuns: 150 },
    );
  });
});
