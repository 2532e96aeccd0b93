// The Responses front door with the official `openai` SDK (client.responses) against an OpenAI-compatible mock
// upstream that speaks chat completions only, so the translated lane: create, stream, a function-call round trip,
// reasoning items sent back, stateless errors, records. (OpenAI itself also speaks the Responses API: that is the
// native lane, test/e2e/native-responses.test.ts.)
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { loadProviderConfigs } from '../../src/providers/registry.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let client: OpenAI;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  const env = {
    MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
    OPENAI_API_KEY: 'sk-up',
    OPENAI_BASE_URL: `${upstream.url}/v1`,
    DEEPSEEK_API_KEY: 'sk-ds',
    DEEPSEEK_BASE_URL: upstream.url,
  };
  // An OpenAI-compatible server without the Responses API (OpenAI's own speaks both).
  const providers = loadProviderConfigs(env, loadCatalog(env));
  providers.getProvider('openai')!.protocols = ['chat'];
  gw = await startTestGateway({ env, overrides: { providers } });
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  client = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: user.key, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const reply = (
  message: Record<string, unknown>,
  finish = 'stop',
  usage: Record<string, unknown> = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
) => ({
  id: 'chatcmpl-sdk',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage,
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-sdk',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = (usage: Record<string, unknown>) => ({ ...chunk({}), choices: [], usage });

const addTool = {
  type: 'function' as const,
  name: 'add',
  description: 'Adds',
  strict: false,
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
};

async function record(id: string) {
  await gw.settled();
  return gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('client.responses against an OpenAI-compatible upstream', () => {
  it('responses.create: output_text, usage with cached tokens and cost, the upstream request, api_format', async () => {
    upstream.reply({
      kind: 'json',
      body: reply({ content: 'Hi there' }, 'stop', {
        prompt_tokens: 12,
        completion_tokens: 3,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 4 },
      }),
    });
    const response = await client.responses.create({
      model: 'openai/gpt-test',
      instructions: 'Be brief.',
      input: 'Hello',
      max_output_tokens: 50,
      temperature: 0.3,
      metadata: { run: 'r1' },
      store: true,
      prompt_cache_key: 'unknown-to-the-gateway',
    });
    expect(response.output_text).toBe('Hi there');
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'openai/gpt-test',
      store: true,
      previous_response_id: null,
      metadata: { run: 'r1' },
      instructions: 'Be brief.',
    });
    expect(response.id).toMatch(/^gen-/);
    expect(response.usage).toMatchObject({
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 3,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    });
    expect((response.usage as unknown as { cost: number }).cost).toBeGreaterThan(0);
    expect(upstream.last.body).toMatchObject({
      model: 'gpt-test-2026',
      temperature: 0.3,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
    });
    expect(upstream.last.body.metadata).toBeUndefined();
    expect(upstream.last.body.store).toBeUndefined();
    const row = await record(response.id);
    expect(row).toMatchObject({ api_format: 'responses', streamed: false, prompt_tokens: 12, completion_tokens: 3 });
  });

  it('responses.stream: typed events with sequence numbers, text deltas, the final response with usage', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Str' }),
        chunk({ content: 'eam' }),
        chunk({}, 'stop'),
        usageChunk({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }),
      ]),
    });
    const stream = client.responses.stream({ model: 'openai/gpt-test', input: [{ role: 'user', content: 'Hello' }] });
    const types: string[] = [];
    const sequence: number[] = [];
    let deltas = '';
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') deltas += event.delta;
    }
    const final = await stream.finalResponse();
    expect(deltas).toBe('Stream');
    expect(final.output_text).toBe('Stream');
    expect(final.status).toBe('completed');
    expect(final.usage).toMatchObject({ input_tokens: 3, output_tokens: 2, total_tokens: 5 });
    expect(sequence).toEqual(sequence.map((_, i) => i));
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect((await record(final.id)).api_format).toBe('responses');
  });

  it('runs a function-call round trip with function_call_output (streamed call, JSON answer)', async () => {
    upstream.reply(
      {
        kind: 'sse',
        chunks: openAiSse([
          chunk({
            role: 'assistant',
            tool_calls: [{ index: 0, id: 'call_9', type: 'function', function: { name: 'add', arguments: '' } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":1,' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"b":2}' } }] }),
          chunk({}, 'tool_calls'),
        ]),
      },
      { kind: 'json', body: reply({ content: '3' }) },
    );
    const stream = client.responses.stream({
      model: 'openai/gpt-test',
      input: '1+2?',
      tools: [addTool],
      tool_choice: 'auto',
      parallel_tool_calls: false,
    });
    const argDeltas: string[] = [];
    stream.on('response.function_call_arguments.delta', (event) => argDeltas.push(event.delta));
    const first = await stream.finalResponse();
    expect(argDeltas).toEqual(['{"a":1,', '"b":2}']);
    expect(upstream.last.body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'add', description: 'Adds', strict: false, parameters: addTool.parameters },
      },
    ]);
    expect(upstream.last.body.parallel_tool_calls).toBe(false);
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({
      type: 'function_call',
      call_id: 'call_9',
      name: 'add',
      arguments: '{"a":1,"b":2}',
      status: 'completed',
    });

    const second = await client.responses.create({
      model: 'openai/gpt-test',
      tools: [addTool],
      input: [
        { role: 'user', content: '1+2?' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'call_9', output: '3' },
      ],
    });
    expect(second.output_text).toBe('3');
    expect(upstream.last.body.messages).toEqual([
      { role: 'user', content: '1+2?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }],
      },
      { role: 'tool', tool_call_id: 'call_9', content: '3' },
    ]);
  });

  it('returns reasoning items and takes them back (summary text replayed to a vendor that wants it)', async () => {
    upstream.reply(
      {
        kind: 'json',
        body: { ...reply({ content: '42', reasoning_content: 'Six times seven.' }), model: 'deepseek-reasoner' },
      },
      { kind: 'json', body: reply({ content: 'ok' }) },
    );
    const first = await client.responses.create({
      model: 'deepseek/deepseek-reasoner',
      input: '6*7?',
      reasoning: { effort: 'high', summary: 'auto' },
    });
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(first.output[0]).toMatchObject({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Six times seven.' }],
    });
    expect(first.output_text).toBe('42');
    await client.responses.create({
      model: 'deepseek/deepseek-reasoner',
      input: [
        { role: 'user', content: '6*7?' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { role: 'user', content: 'Sure?' },
      ],
    });
    expect(upstream.last.body.messages[1]).toMatchObject({
      role: 'assistant',
      content: '42',
      reasoning_content: 'Six times seven.',
    });
  });

  it('answers an unknown previous_response_id and conversation with 400 (SDK typed errors)', async () => {
    const previous = client.responses.create({
      model: 'openai/gpt-test',
      input: 'again',
      previous_response_id: 'resp_1',
    });
    await expect(previous).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(previous).rejects.toMatchObject({
      status: 400,
      code: 'previous_response_not_found',
      message: expect.stringContaining("Previous response with id 'resp_1' not found."),
    });
    await expect(
      client.responses.create({ model: 'openai/gpt-test', input: 'x', conversation: 'conv_1' }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(client.responses.create({ model: 'openai/does-not-exist', input: 'x' })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    expect(upstream.requests).toHaveLength(0);
  });

  it('a built-in tool the chat upstream cannot run is left out and named in x-modelgate-warning, not refused', async () => {
    upstream.reply({
      kind: 'json',
      body: reply({ content: 'No search here' }, 'stop', { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 }),
    });
    const { data, response } = await client.responses
      .create({ model: 'openai/gpt-test', input: 'x', tools: [{ type: 'web_search' }] })
      .withResponse();
    expect(data.output_text).toBe('No search here');
    expect(response.headers.get('x-modelgate-warning')).toBe(
      'tool web_search dropped: openai-compatible vendor openai has no hosted web search',
    );
    expect(upstream.last.body.tools).toBeUndefined();
  });

  it('same credits and errors as /chat/completions: 402 without credits, 401 with a wrong key, 429 from upstream', async () => {
    const poor = await gw.createUser();
    const broke = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: poor.key, maxRetries: 0 });
    await expect(broke.responses.create({ model: 'openai/gpt-test', input: 'x' })).rejects.toMatchObject({
      status: 402,
    });
    const bad = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: 'mg-v1-wrong', maxRetries: 0 });
    await expect(bad.responses.create({ model: 'openai/gpt-test', input: 'x' })).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
    upstream.reply({
      kind: 'json',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { message: 'slow down', type: 'rate_limit_error' } },
    });
    await expect(client.responses.create({ model: 'openai/gpt-test', input: 'x' })).rejects.toBeInstanceOf(
      OpenAI.RateLimitError,
    );
  });

  it("stream omitted is one JSON object even without an Accept header (OpenAI's default for this API)", async () => {
    upstream.reply({ kind: 'json', body: reply({ content: 'plain' }) });
    const res = await fetch(`${gw.url}/api/v1/responses`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${(client as unknown as { apiKey: string }).apiKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        model: 'openai/gpt-test',
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await res.json();
    expect(body.output[0].content[0].text).toBe('plain');
    expect(res.headers.get('x-generation-id')).toBe(body.id);
  });
});
