// The Anthropic Messages front door with the official @anthropic-ai/sdk (baseURL = the gateway's /api) in front of a
// native Anthropic mock upstream, so the native lane: the request reaches Anthropic as the client sent it (model name
// aside), Anthropic's answer comes back as it sent it (ids and usage its own, `model` the gateway's id): JSON and
// streamed replies, thinking signatures sent back exactly, cache_control and protocol headers forwarded, bare Claude
// names, count_tokens, the generation record, and typed errors.
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../../src/providers/anthropic/index.js';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

const UPSTREAM_KEY = 'sk-ant-api03-upstream-secret';
const MODEL = 'anthropic/claude-haiku-5-5';
let gw: TestGateway;
let upstream: MockUpstream;
let user: { userId: string; key: string };
let client: Anthropic;

type ApiError = InstanceType<typeof Anthropic.APIError>;

const fixture = (name: string) => readFileSync(new URL(`../fixtures/anthropic/${name}`, import.meta.url), 'utf8');

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: { ANTHROPIC_API_KEY: UPSTREAM_KEY, ANTHROPIC_BASE_URL: upstream.url, MODELGATE_SSE_KEEPALIVE_SECONDS: '1' },
    overrides: {
      adapters: { 'openai-compatible': createOpenAICompatibleAdapter(), anthropic: createAnthropicAdapter() },
    },
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

describe('POST /v1/messages with the Anthropic SDK, native Anthropic upstream', () => {
  it('create: the Message object, exact usage, x-generation-id, the generation record with api_format messages', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'cache-usage') });
    const { data: message, response } = await client.messages
      .create(
        {
          model: MODEL,
          max_tokens: 300,
          system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
          ],
          metadata: { user_id: 'end-user-7' },
          top_k: 5,
          stop_sequences: ['END'],
        } as Anthropic.MessageCreateParamsNonStreaming,
        { headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'extended-cache-ttl-2025-04-11' } },
      )
      .withResponse();
    const cacheUsage = loadJson('anthropic', 'cache-usage') as {
      usage: Record<string, number>;
      content: Array<{ text: string }>;
    };
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: MODEL,
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(message.content).toEqual([{ type: 'text', text: cacheUsage.content[0].text }]);
    // Anthropic's own counts come back unchanged: input_tokens without the cache reads and writes.
    expect(message.usage).toEqual(cacheUsage.usage);
    // The message id is Anthropic's; the generation's id is in x-generation-id (and the record keeps Anthropic's).
    expect(message.id).toBe('msg_01CaChEuSaGe5Qw8Lp2Zx7Vb');
    const id = response.headers.get('x-generation-id');
    expect(id).toMatch(/^gen-/);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(upstream.last.headers['x-api-key']).toBe(UPSTREAM_KEY);
    // The client's protocol headers, forwarded as they are.
    expect(upstream.last.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream.last.headers['anthropic-beta']).toBe('extended-cache-ttl-2025-04-11');
    expect(upstream.last.headers.authorization).toBeUndefined();
    // The client's body, only the model named as Anthropic names it.
    expect(upstream.last.body).toEqual({
      model: 'claude-haiku-5-5',
      max_tokens: 300,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      ],
      metadata: { user_id: 'end-user-7' },
      top_k: 5,
      stop_sequences: ['END'],
    });
    const record = await (await gw.fetch(`/api/v1/generation?id=${id}`, { key: user.key })).json();
    expect(record.data).toMatchObject({
      id,
      api_format: 'messages',
      model: MODEL,
      upstream_id: 'msg_01CaChEuSaGe5Qw8Lp2Zx7Vb',
    });
    expect(record.data.native_tokens_prompt ?? record.data.tokens_prompt ?? record.data.prompt_tokens).toBe(
      cacheUsage.usage.input_tokens +
        cacheUsage.usage.cache_read_input_tokens +
        cacheUsage.usage.cache_creation_input_tokens,
    );
  });

  it('stream: the SDK assembles thinking with its signature and the text; sending the block back reaches Anthropic unchanged', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('thinking.chunks.txt')] });
    const stream = client.messages.stream({
      model: 'claude-haiku-5-5-20251001', // a bare, dated name resolves to the catalog's anthropic/ model
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [{ role: 'user', content: 'What is 27 * 453?' }],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) =>
      types.push(event.type === 'content_block_delta' ? `delta:${event.delta.type}` : event.type),
    );
    const message = await stream.finalMessage();
    expect(upstream.last.body).toMatchObject({
      model: 'claude-haiku-5-5',
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      stream: true,
    });
    expect(types[0]).toBe('message_start');
    expect(types).toContain('delta:thinking_delta');
    expect(types).toContain('delta:signature_delta');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const signature = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+vA2fYR==';
    expect(message.content).toEqual([
      {
        type: 'thinking',
        thinking: 'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3',
        signature,
      },
      { type: 'text', text: '27 * 453 = 12,231' },
    ]);
    expect(message.usage).toMatchObject({ input_tokens: 46, output_tokens: 212 });
    expect(message.stop_reason).toBe('end_turn');

    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    await client.messages.create({
      model: MODEL,
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [
        { role: 'user', content: 'What is 27 * 453?' },
        { role: 'assistant', content: message.content },
        { role: 'user', content: 'And times 2?' },
      ],
    });
    expect(upstream.last.body.messages[1]).toEqual({
      role: 'assistant',
      content: [message.content[0], { type: 'text', text: '27 * 453 = 12,231' }],
    });
  });

  it('tool use round trip: tool_use block from the stream, tool_result with is_error and nested content goes back unchanged', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('tool-use.chunks.txt')] });
    const tools: Anthropic.Tool[] = [
      {
        name: 'get_weather',
        description: 'Weather',
        input_schema: { type: 'object', properties: { location: { type: 'string' } } },
      },
    ];
    const first = await client.messages
      .stream({
        model: MODEL,
        max_tokens: 500,
        tools,
        tool_choice: { type: 'auto', disable_parallel_tool_use: true },
        messages: [{ role: 'user', content: 'Weather in SF?' }],
      })
      .finalMessage();
    expect(upstream.last.body).toMatchObject({
      tools: [{ name: 'get_weather', input_schema: tools[0].input_schema }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((b) => b.type === 'tool_use');
    expect(call).toMatchObject({ type: 'tool_use', name: 'get_weather' });
    expect(typeof (call as Anthropic.ToolUseBlock).input).toBe('object');

    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 500,
      tools,
      messages: [
        { role: 'user', content: 'Weather in SF?' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: (call as Anthropic.ToolUseBlock).id,
              is_error: true,
              content: [{ type: 'text', text: 'service down' }],
            },
          ],
        },
      ],
    });
    expect(second.content[0]).toMatchObject({ type: 'text' });
    const sent = upstream.last.body.messages;
    expect(sent[1].content.at(-1)).toMatchObject({
      type: 'tool_use',
      id: (call as Anthropic.ToolUseBlock).id,
      input: (call as Anthropic.ToolUseBlock).input,
    });
    expect(sent[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: (call as Anthropic.ToolUseBlock).id,
          is_error: true,
          content: [{ type: 'text', text: 'service down' }],
        },
      ],
    });
  });

  it("count_tokens asks Anthropic's counter for anthropic/ models", async () => {
    upstream.reply({ kind: 'json', body: { input_tokens: 1234 } });
    const counted = await client.messages.countTokens({
      model: 'claude-haiku-5-5',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(counted).toEqual({ input_tokens: 1234 });
    expect(upstream.last.path).toBe('/v1/messages/count_tokens');
    expect(upstream.last.body).toEqual({
      model: 'claude-haiku-5-5',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello' }],
    });
  });

  it('document blocks (PDF with citations, text, url, content) reach Anthropic unchanged, also in count_tokens and tool results', async () => {
    const request = JSON.parse(
      readFileSync(new URL('../fixtures/messages/document-blocks.request.json', import.meta.url), 'utf8'),
    ) as Anthropic.MessageCreateParamsNonStreaming;
    const byUrl = JSON.parse(
      readFileSync(new URL('../fixtures/messages/document-url.request.json', import.meta.url), 'utf8'),
    ) as Anthropic.MessageCreateParamsNonStreaming;
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    await client.messages.create({
      ...request,
      model: MODEL,
      messages: [...request.messages, { role: 'assistant', content: 'Noted.' }, ...byUrl.messages],
    });
    expect(upstream.last.body.messages).toEqual([
      ...request.messages,
      { role: 'assistant', content: 'Noted.' },
      ...byUrl.messages,
    ]);

    upstream.reply({ kind: 'json', body: { input_tokens: 4321 } });
    expect(await client.messages.countTokens({ model: MODEL, messages: request.messages })).toEqual({
      input_tokens: 4321,
    });
    expect(upstream.last.body.messages).toEqual(request.messages);

    // Claude Code's Read tool answers with a document inside tool_result: it stays inside the result, as sent.
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const pdf = (request.messages[0].content as Anthropic.ContentBlockParam[])[0];
    await client.messages.create({
      model: MODEL,
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Read a.pdf' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.pdf' } }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [{ type: 'text', text: 'PDF file read' }, pdf as Anthropic.DocumentBlockParam],
            },
          ],
        },
      ],
    });
    expect(upstream.last.body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'PDF file read' }, pdf] },
      ],
    });
  });

  it('while the upstream is silent the stream carries `event: ping`, as Anthropic sends it', async () => {
    const bytes = fixture('text.chunks.txt');
    const cut = bytes.indexOf('event: content_block_start');
    // The stream opens once the failover window (the keep-alive interval, 1 s here) has passed without content, and
    // the first ping follows a second later at the earliest: 4 s of silence leave room for a loaded machine's timers.
    upstream.reply({ kind: 'sse', chunks: [bytes.slice(0, cut), { pauseMs: 4000 }, bytes.slice(cut)] });
    const res = await gw.fetch('/api/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text).toContain('event: ping\ndata: {"type":"ping"}\n\n');
    expect(text.indexOf('event: ping')).toBeLessThan(text.indexOf('event: content_block_start'));
    expect(text.trimEnd().endsWith('event: message_stop\ndata: {"type":"message_stop"}')).toBe(true);
  });

  it('stop sequences: which one matched comes back as stop_reason stop_sequence, streamed and not', async () => {
    const streamed = fixture('text.chunks.txt').replace(
      '"stop_reason":"end_turn","stop_sequence":null',
      '"stop_reason":"stop_sequence","stop_sequence":"END"',
    );
    upstream.reply({ kind: 'sse', chunks: [streamed] });
    const message = await client.messages
      .stream({ model: MODEL, max_tokens: 50, stop_sequences: ['END'], messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();
    expect(message).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
    upstream.reply({
      kind: 'json',
      body: { ...(loadJson('anthropic', 'text') as object), stop_reason: 'stop_sequence', stop_sequence: 'END' },
    });
    const whole = await client.messages.create({
      model: MODEL,
      max_tokens: 50,
      stop_sequences: ['END'],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(whole).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
  });

  it("an in-stream upstream error is Anthropic's own `event: error`, and the generation records it", async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('mid-stream-error.chunks.txt')] });
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(stream.finalMessage()).rejects.toMatchObject({
      error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    await gw.settled();
    const row = await gw.db
      .selectFrom('generations')
      .selectAll()
      .where('upstream_id', '=', 'msg_01OvErLoAd3Lp8Qw2Zx7Vb4K')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'error',
      error_code: 'server_error',
      api_format: 'messages',
      prompt_tokens: 25,
      completion_tokens: 1,
    });
  });
});

describe("errors in Anthropic's shape", () => {
  it('401 authentication_error for a bad x-api-key; x-request-id is set', async () => {
    const bad = new Anthropic({ apiKey: 'mg-not-a-key', baseURL: `${gw.url}/api`, maxRetries: 0 });
    const err = await bad.messages
      .create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((err as ApiError).error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect((err as ApiError).headers?.get('x-request-id')).toBeTruthy();
  });

  it("Authorization: Bearer works too (Claude Code's ANTHROPIC_AUTH_TOKEN), and so do account tokens", async () => {
    const token = await gw.createToken(user.userId);
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const bearer = new Anthropic({ authToken: token, apiKey: null, baseURL: `${gw.url}/api`, maxRetries: 0 });
    const message = await bearer.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.type).toBe('message');
  });

  it('402 billing_error without credits', async () => {
    const poor = await gw.createUser();
    const sdk = new Anthropic({ apiKey: poor.key, baseURL: `${gw.url}/api`, maxRetries: 0 });
    const err = await sdk.messages
      .create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as ApiError).status).toBe(402);
    expect((err as ApiError).error).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
  });

  it('404 not_found_error for an unknown model', async () => {
    const err = await client.messages
      .create({ model: 'claude-unknown-9', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    expect((err as ApiError).error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it('429 rate_limit_error with Retry-After when the upstream is rate limited', async () => {
    upstream.reply({
      kind: 'json',
      status: 429,
      body: loadJson('anthropic', 'error-429'),
      headers: { 'retry-after': '7' },
    });
    const err = await client.messages
      .create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err as ApiError).error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect((err as ApiError).headers?.get('retry-after')).toBe('7');
  });

  it('400 invalid_request_error from schema validation (max_tokens missing)', async () => {
    const res = await gw.fetch('/api/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'Invalid request: max_tokens is required' },
    });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('the chat route keeps the gateway envelope and does not take x-api-key', async () => {
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe(401);
  });
});
