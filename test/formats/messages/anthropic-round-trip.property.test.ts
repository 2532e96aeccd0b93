// Property: a Messages request parsed by the Messages door and rendered by the Anthropic adapter is the request the
// client sent, for every feature both carry: text, images and documents (every source kind, title, context,
// citations), tool_use and tool_result (images and documents inside, is_error), signed and redacted thinking, cache
// breakpoints with their TTL on every block kind, on tools and on tool_use, system blocks, tools and tool_choice,
// thinking (a budget, or adaptive with its effort), sampling, stop sequences and the user id. Equal up to the forms
// Anthropic defines as the same: one plain text block and its string, a tool result of plain text and its string.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMessagesRequest } from '../../../src/formats/messages/parse-request.js';
import type { MessagesRequest } from '../../../src/formats/messages/wire-types.js';
import { buildRequest } from '../../../src/providers/anthropic/index.js';
import { anthropicContext } from '../../providers/anthropic/anthropic-context.js';

type Json = Record<string, any>;

const UPSTREAM_MODEL = 'claude-sonnet-4-5';
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
/** Drops the keys fast-check left undefined, as a JSON client would not send them. */
const clean = <T extends Json>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '');
const id = fc.stringMatching(/^toolu_[a-zA-Z0-9]{4,10}$/);
const signature = fc.base64String({ minLength: 4, maxLength: 24 }).filter((s) => s !== '');
const cache = optional(
  fc.oneof(
    fc.constant({ type: 'ephemeral' }),
    fc.constantFrom('5m', '1h').map((ttl) => ({ type: 'ephemeral', ttl })),
  ),
);

const textBlock = fc.record({ type: fc.constant('text'), text, cache_control: cache }).map(clean);
const imageBlock = fc
  .record({
    type: fc.constant('image'),
    source: fc.oneof(
      fc.record({
        type: fc.constant('base64'),
        media_type: fc.constantFrom('image/jpeg', 'image/png', 'image/gif', 'image/webp'),
        data: fc.base64String({ minLength: 4, maxLength: 16 }),
      }),
      fc.record({ type: fc.constant('url'), url: fc.webUrl({ validSchemes: ['https'] }) }),
    ),
    cache_control: cache,
  })
  .map(clean);
const documentBlock = fc
  .record({
    type: fc.constant('document'),
    source: fc.oneof(
      fc.record({
        type: fc.constant('base64'),
        media_type: fc.constant('application/pdf'),
        data: fc.base64String({ minLength: 4, maxLength: 16 }),
      }),
      fc.record({ type: fc.constant('url'), url: fc.webUrl({ validSchemes: ['https'] }) }),
      fc.record({ type: fc.constant('text'), media_type: fc.constant('text/plain'), data: text }),
      fc.record({
        type: fc.constant('content'),
        content: fc.array(fc.oneof(textBlock, imageBlock), { minLength: 1, maxLength: 3 }),
      }),
    ),
    title: optional(text),
    context: optional(text),
    citations: optional(fc.constant({ enabled: true })),
    cache_control: cache,
  })
  .map(clean);
const toolResult = (toolUseId: string) =>
  fc
    .record({
      type: fc.constant('tool_result'),
      tool_use_id: fc.constant(toolUseId),
      content: optional(
        fc.oneof(text, fc.array(fc.oneof(textBlock, imageBlock, documentBlock), { minLength: 1, maxLength: 3 })),
      ),
      is_error: optional(fc.constant(true)),
      cache_control: cache,
    })
    .map(clean);
const toolUse = fc
  .record({
    type: fc.constant('tool_use'),
    id,
    name: fc.constantFrom('Read', 'Edit', 'Bash'),
    input: fc.dictionary(fc.stringMatching(/^[a-z_]{1,6}$/), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    cache_control: cache,
  })
  .map(clean);
const thinking = fc.oneof(
  fc.record({ type: fc.constant('thinking'), thinking: fc.string({ maxLength: 12 }), signature }),
  fc.record({ type: fc.constant('redacted_thinking'), data: signature }),
);

/** An assistant turn (thinking first, as Claude writes it) and the user turn that answers its calls. */
const exchange = fc
  .record({
    thoughts: fc.array(thinking, { maxLength: 2 }),
    texts: fc.array(textBlock, { maxLength: 2 }),
    calls: fc.uniqueArray(toolUse, { maxLength: 3, selector: (call) => call.id }),
    after: fc.array(fc.oneof(textBlock, imageBlock, documentBlock), { maxLength: 2 }),
  })
  .chain(({ thoughts, texts, calls, after }) =>
    fc.tuple(...calls.map((call) => toolResult(call.id))).map((results) => {
      const answer = [...thoughts, ...texts, ...calls];
      const reply = [...results, ...after];
      return {
        assistant: answer.length > 0 ? answer : [{ type: 'text', text: 'ok' }],
        user: reply.length > 0 ? reply : [{ type: 'text', text: 'go on' }],
        calls: calls.length,
        thinks: thoughts.length > 0,
      };
    }),
  );

const tool = fc
  .record({
    name: fc.constantFrom('Read', 'Edit', 'Bash'),
    description: optional(text),
    input_schema: fc.constant({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
    cache_control: cache,
  })
  .map(clean);

const request: fc.Arbitrary<Json> = fc
  .record({
    first: fc.array(fc.oneof(textBlock, imageBlock, documentBlock), { minLength: 1, maxLength: 3 }),
    exchanges: fc.array(exchange, { maxLength: 3 }),
    system: optional(fc.oneof(text, fc.array(textBlock, { minLength: 1, maxLength: 2 }))),
    tools: fc.uniqueArray(tool, { maxLength: 3, selector: (t) => t.name }),
    choice: fc.constantFrom('none', 'auto', 'any', 'tool', 'absent'),
    parallel: fc.boolean(),
    think: fc.constantFrom('off', 'budget', 'adaptive'),
    effort: fc.constantFrom('low', 'medium', 'high', 'max', undefined),
    maxTokens: fc.integer({ min: 2048, max: 64000 }),
    budget: fc.integer({ min: 1024, max: 2047 }),
    temperature: optional(fc.double({ min: 0, max: 1, noNaN: true })),
    topK: optional(fc.integer({ min: 1, max: 500 })),
    stop: optional(fc.array(text, { minLength: 1, maxLength: 2 })),
    userId: optional(text),
    stream: fc.boolean(),
  })
  .map((r) => {
    const messages: Json[] = [{ role: 'user', content: r.first }];
    for (const step of r.exchanges)
      messages.push({ role: 'assistant', content: step.assistant }, { role: 'user', content: step.user });
    const body: Json = { model: UPSTREAM_MODEL, max_tokens: r.maxTokens, messages, stream: r.stream };
    if (r.system !== undefined) body.system = r.system;
    if (r.tools.length > 0) {
      body.tools = r.tools;
      // Claude forbids thinking with a forced tool call, and so does the adapter: the forced choices go without thinking.
      const forced = r.choice === 'any' || r.choice === 'tool';
      if (r.choice !== 'absent' && !(forced && r.think !== 'off')) {
        const choice: Json = r.choice === 'tool' ? { type: 'tool', name: r.tools[0].name } : { type: r.choice };
        if (!r.parallel && r.choice !== 'none') choice.disable_parallel_tool_use = true;
        body.tool_choice = choice;
      }
    }
    // With thinking on, Claude needs each tool-calling turn to start with its thinking, and takes no sampling changes.
    const thinkingFits = r.exchanges.every((step) => step.calls === 0 || step.thinks);
    if (r.think !== 'off' && thinkingFits) {
      if (r.think === 'budget') body.thinking = { type: 'enabled', budget_tokens: r.budget };
      else {
        body.thinking = { type: 'adaptive' };
        if (r.effort) body.output_config = { effort: r.effort };
      }
    } else {
      if (r.temperature !== undefined) body.temperature = r.temperature;
      if (r.topK !== undefined) body.top_k = r.topK;
    }
    if (r.stop) body.stop_sequences = r.stop;
    if (r.userId) body.metadata = { user_id: r.userId };
    return body;
  });

/** The short forms Anthropic defines as the same as the block forms. */
function normalized(body: Json): Json {
  const plain = (blocks: Json[]) => blocks.length === 1 && blocks[0].type === 'text' && !blocks[0].cache_control;
  const turn = (message: Json): Json => {
    if (typeof message.content === 'string') return message;
    const content = message.content.map((block: Json) => {
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) return block;
      const texts = block.content.every((inner: Json) => inner.type === 'text' && !inner.cache_control);
      return texts ? { ...block, content: block.content.map((inner: Json) => inner.text).join('') } : block;
    });
    return { ...message, content: plain(content) ? content[0].text : content };
  };
  const out: Json = { ...body, messages: body.messages.map(turn) };
  if (Array.isArray(body.system) && plain(body.system)) out.system = body.system[0].text;
  return out;
}

describe('property: Messages door → Anthropic adapter', () => {
  it("renders the client's request back, for everything both carry", () => {
    fc.assert(
      fc.property(request, (body) => {
        const ctx = anthropicContext({ upstreamModel: UPSTREAM_MODEL, maxOutputTokens: 64000 }, body.stream);
        const parsed = parseMessagesRequest(body as MessagesRequest, `anthropic/${UPSTREAM_MODEL}`, body.stream);
        const sent = JSON.parse(buildRequest(parsed, ctx).body) as Json;
        expect(sent).toEqual(normalized(body));
      }),
      { numRuns: 300 },
    );
  });
});
