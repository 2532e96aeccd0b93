// Stored responses with the official `openai` SDK: a chain started on openai/gpt-5.5 (native lane) with a function
// call, continued on Claude (translated lane) with only the function's output, then back on OpenAI with only a new
// message; each upstream receives the whole conversation in its own format (reasoning only its own provider can read
// left out for the others). Ids are isolated per organization, `store: false` keeps nothing, the expanded input is
// what admission reserves, and retention ends a chain.
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StoredResponses, purgeExpiredResponses } from '../../src/services/stored-responses.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

const anthropicFixture = (name: string) =>
  readFileSync(new URL(`../fixtures/anthropic/${name}`, import.meta.url), 'utf8');

let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;
let client: OpenAI;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 50);
  client = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: user.key, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Weather of a city',
  strict: false,
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

const OPENAI_REASONING = {
  id: 'rs_up_1',
  type: 'reasoning',
  encrypted_content: 'gAAAAABopenai-own-encrypted-reasoning==',
  summary: [{ type: 'summary_text', text: 'Call the weather tool.' }],
};
const OPENAI_CALL = {
  id: 'fc_up_1',
  type: 'function_call',
  status: 'completed',
  call_id: 'call_w1',
  name: 'get_weather',
  arguments: '{"location":"Paris"}',
};

/** OpenAI's Response object (native lane) with the given output. */
function openAiResponse(output: unknown[], inputTokens = 40) {
  return {
    id: 'resp_upstream_1',
    object: 'response',
    created_at: 1795600000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: 'gpt-5.5-2026-04-23',
    output,
    previous_response_id: null,
    store: false,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: 4 },
      total_tokens: inputTokens + 12,
    },
  };
}

const ANSWER = {
  id: 'msg_up_1',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', annotations: [], text: 'Done.' }],
};

const userMessage = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

describe('a chain across providers, sending only new items', () => {
  it('OpenAI (native) → Claude (translated) → OpenAI: each upstream gets the whole conversation', async () => {
    // Turn 1 on OpenAI: the model calls get_weather.
    upstream.reply({ kind: 'json', body: openAiResponse([OPENAI_REASONING, OPENAI_CALL]) });
    const first = await client.responses.create({
      model: 'openai/gpt-5.5',
      input: 'Weather in Paris?',
      tools: [weatherTool],
      instructions: 'Answer briefly.',
    });
    expect(first).toMatchObject({ store: true, previous_response_id: null });
    expect(first.id).toMatch(/^gen-/);
    expect(upstream.last.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });

    // Turn 2 on Claude: only the function's output is sent.
    upstream.reply({ kind: 'sse', chunks: [anthropicFixture('thinking.chunks.txt')] });
    const stream = await client.responses.create({
      model: 'anthropic/claude-sonnet-5-5',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: 'call_w1', output: '18°C and sunny' }],
      tools: [weatherTool],
      stream: true,
    });
    let second: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') second = event.response;
    expect(second).toMatchObject({ previous_response_id: first.id, store: true });
    const claude = upstream.last;
    expect(claude.path).toBe('/v1/messages');
    // Instructions are not carried forward; OpenAI's own reasoning is not Claude's to read.
    expect(claude.body.system).toBeUndefined();
    expect(claude.body.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_w1', name: 'get_weather', input: { location: 'Paris' } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'call_w1',
            content: '18°C and sunny',
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);
    const claudeReasoning = second!.output.find((item) => item.type === 'reasoning') as { encrypted_content?: string };
    expect(claudeReasoning.encrypted_content).toMatch(/^mg1\./);
    const claudeMessage = second!.output.find((item) => item.type === 'message');

    // Turn 3 back on OpenAI: only a new message.
    upstream.reply({ kind: 'json', body: openAiResponse([ANSWER]) });
    const third = await client.responses.create({
      model: 'openai/gpt-5.5',
      previous_response_id: second!.id,
      input: 'Thanks!',
    });
    expect(third.previous_response_id).toBe(second!.id);
    const openai = upstream.last.body;
    expect(openai.previous_response_id).toBeUndefined();
    expect(openai.store).toBe(false);
    expect(openai.instructions).toBeUndefined();
    // Claude's reasoning (the gateway's own record of it) is left out for OpenAI; the rest goes as stored.
    expect(openai.input).toEqual([
      userMessage('Weather in Paris?'),
      OPENAI_REASONING,
      OPENAI_CALL,
      { type: 'function_call_output', call_id: 'call_w1', output: '18°C and sunny' },
      JSON.parse(JSON.stringify(claudeMessage)),
      userMessage('Thanks!'),
    ]);
  });

  it("another organization's id, and a store:false response, are previous_response_not_found", async () => {
    upstream.always({ kind: 'json', body: openAiResponse([ANSWER]) });
    const mine = await client.responses.create({ model: 'openai/gpt-5.5', input: 'hello' });
    const unstored = await client.responses.create({ model: 'openai/gpt-5.5', input: 'hello', store: false });
    expect(unstored).toMatchObject({ store: false });
    const other = await gw.createUser();
    await gw.grant(other.userId, 5);
    const stranger = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: other.key, maxRetries: 0 });
    const sent = upstream.requests.length;
    for (const [asker, id] of [
      [stranger, mine.id],
      [client, unstored.id],
    ] as const) {
      const refusal = asker.responses.create({ model: 'openai/gpt-5.5', previous_response_id: id, input: 'again' });
      await expect(refusal).rejects.toBeInstanceOf(OpenAI.BadRequestError);
      await expect(refusal).rejects.toMatchObject({
        code: 'previous_response_not_found',
        message: expect.stringContaining(`Previous response with id '${id}' not found.`),
      });
    }
    expect(upstream.requests).toHaveLength(sent);
  });
});

describe('admission sees the expanded input', () => {
  it('a continuation is reserved for the whole chain: refused where the same new input alone is admitted', async () => {
    upstream.always({ kind: 'json', body: openAiResponse([ANSWER]) });
    const poor = await gw.createUser();
    // gpt-5.5 input: 5 USD per 1M tokens. The long input reserves ~0.60 USD; two turns of it ~1.20.
    await gw.grant(poor.userId, 0.9);
    const sdk = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: poor.key, maxRetries: 0 });
    const long = 'word '.repeat(48_000);
    const first = await sdk.responses.create({ model: 'openai/gpt-5.5', input: long, max_output_tokens: 16 });
    const sent = upstream.requests.length;
    const continued = sdk.responses.create({
      model: 'openai/gpt-5.5',
      previous_response_id: first.id,
      input: long,
      max_output_tokens: 16,
    });
    await expect(continued).rejects.toMatchObject({ status: 402 });
    expect(upstream.requests).toHaveLength(sent);
    await expect(
      sdk.responses.create({ model: 'openai/gpt-5.5', input: long, max_output_tokens: 16 }),
    ).resolves.toMatchObject({ status: 'completed' });
  });
});

describe('retention', () => {
  it('a response past its retention cannot be continued, and the purge deletes it', async () => {
    upstream.always({ kind: 'json', body: openAiResponse([ANSWER]) });
    let now = Date.now();
    const clock = () => new Date(now);
    const stored = new StoredResponses(gw.db, 1, clock);
    const { storedResponses, responseState } = gw.parts;
    gw.parts.storedResponses = stored;
    gw.parts.responseState = { ...responseState!, stored: stored.memory };
    try {
      const kept = await client.responses.create({ model: 'openai/gpt-5.5', input: 'remember this' });
      const rows = () => gw.db.selectFrom('stored_responses').select('id').where('id', '=', kept.id).execute();
      await expect.poll(rows).toHaveLength(1);
      await expect(
        client.responses.create({ model: 'openai/gpt-5.5', previous_response_id: kept.id, input: 'again' }),
      ).resolves.toMatchObject({ previous_response_id: kept.id });
      now += 86_400_000 + 1_000;
      await expect(
        client.responses.create({ model: 'openai/gpt-5.5', previous_response_id: kept.id, input: 'again' }),
      ).rejects.toMatchObject({ code: 'previous_response_not_found' });
      expect(await purgeExpiredResponses(gw.db, clock())).toBeGreaterThanOrEqual(2);
      expect(await rows()).toEqual([]);
    } finally {
      gw.parts.storedResponses = storedResponses;
      gw.parts.responseState = responseState;
    }
  });
});

describe('GET, DELETE and input_items with the SDK', () => {
  it('retrieve, inputItems.list (paged), delete; another organization gets 404', async () => {
    upstream.always({ kind: 'json', body: openAiResponse([ANSWER]) });
    const first = await client.responses.create({ model: 'openai/gpt-5.5', input: 'one' });
    const second = await client.responses.create({
      model: 'openai/gpt-5.5',
      previous_response_id: first.id,
      input: [userMessage('two'), userMessage('three')] as OpenAI.Responses.ResponseInput,
    });
    const retrieved = await client.responses.retrieve(second.id);
    expect(retrieved).toMatchObject({ id: second.id, previous_response_id: first.id, store: true });
    expect(retrieved.output).toEqual(second.output);

    // Newest first by default: three, two, the first turn's answer, one.
    const page = await client.responses.inputItems.list(second.id, { limit: 2 });
    expect(page.data.map((item) => (item as { content: { text: string }[] }).content[0]!.text)).toEqual([
      'three',
      'two',
    ]);
    expect(page.has_more).toBe(true);
    const all: unknown[] = [];
    for await (const item of client.responses.inputItems.list(second.id, { order: 'asc', limit: 1 })) all.push(item);
    expect(all).toEqual([
      { id: `msg_${first.id}_in0`, ...userMessage('one') },
      ANSWER,
      { id: `msg_${second.id}_in0`, ...userMessage('two') },
      { id: `msg_${second.id}_in1`, ...userMessage('three') },
    ]);

    const other = await gw.createUser();
    const stranger = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: other.key, maxRetries: 0 });
    for (const call of [
      () => stranger.responses.retrieve(second.id),
      () => stranger.responses.inputItems.list(second.id),
      () => stranger.responses.delete(second.id),
    ])
      await expect(call()).rejects.toBeInstanceOf(OpenAI.NotFoundError);

    const deleted = await gw.fetch(`/api/v1/responses/${first.id}`, { method: 'DELETE', key: user.key });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id: first.id, object: 'response', deleted: true });
    await expect(client.responses.retrieve(first.id)).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining(`Response with id '${first.id}' not found.`),
    });
    // The chain through a deleted response is broken.
    await expect(
      client.responses.create({ model: 'openai/gpt-5.5', previous_response_id: second.id, input: 'four' }),
    ).rejects.toMatchObject({ code: 'previous_response_not_found' });
    await client.responses.delete(second.id);
    expect(
      await gw.db.selectFrom('stored_responses').select('id').where('id', 'in', [first.id, second.id]).execute(),
    ).toEqual([]);
  });
});
