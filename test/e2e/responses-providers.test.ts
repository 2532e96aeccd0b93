// The Responses door in front of each provider kind (Anthropic, Gemini, a pass/ model over an OpenAI-compatible
// upstream), with the official SDK: signed reasoning travels out in encrypted_content and back to the provider
// without server state, usage and cost per access mode, a mid-stream failure as `error` + `response.failed`.
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { grantPass } from '../../src/services/pass.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

let gw: TestGateway;
let upstream: MockUpstream;
let client: OpenAI;
let user: { userId: string; key: string };
const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
      GEMINI_API_KEY: 'AIzaUp',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
      PASS_API_KEY: 'sk-pass',
      PASS_BASE_URL: `${upstream.url}/v1`,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 10);
  client = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: user.key, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

async function record(id: string) {
  await gw.settled();
  return gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  strict: false,
  parameters: { type: 'object', properties: { location: { type: 'string' } } },
};

describe('Anthropic behind /responses', () => {
  it('streams thinking as reasoning items whose encrypted_content brings the signed blocks back to Claude', async () => {
    upstream.reply(
      { kind: 'sse', chunks: [fixture('anthropic/thinking-tool-use.chunks.txt')] },
      { kind: 'json', body: loadJson('anthropic', 'text') },
    );
    const stream = client.responses.stream({
      model: 'anthropic/claude-haiku-5-5',
      input: 'Weather in Paris?',
      tools: [weatherTool],
      reasoning: { effort: 'medium', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      max_output_tokens: 4000,
    });
    const summaryDeltas: string[] = [];
    stream.on('response.reasoning_summary_text.delta', (event) => summaryDeltas.push(event.delta));
    const first = await stream.finalResponse();
    expect(upstream.last.body).toMatchObject({ thinking: { type: 'enabled' }, max_tokens: 4000 });
    expect(summaryDeltas.join('')).toBe('The user wants the weather in Paris. I should call get_weather.');
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'reasoning', 'function_call']);
    expect(first.output[0]).toMatchObject({
      summary: [{ type: 'summary_text', text: 'The user wants the weather in Paris. I should call get_weather.' }],
    });
    for (const item of first.output.slice(0, 2))
      expect((item as { encrypted_content?: string }).encrypted_content).toMatch(/^mg1\./);
    expect(first.output[2]).toMatchObject({
      call_id: 'toolu_01CswdEQBMshySk6Y9DFKrfq',
      name: 'get_weather',
      arguments: '{"location": "Paris"}',
    });
    expect(first.usage).toMatchObject({ input_tokens: 388, output_tokens: 140 });

    const second = await client.responses.create({
      model: 'anthropic/claude-haiku-5-5',
      tools: [weatherTool],
      reasoning: { effort: 'medium' },
      max_output_tokens: 4000,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'toolu_01CswdEQBMshySk6Y9DFKrfq', output: '18°C' },
      ],
    });
    expect(second.output_text).toContain('Hello!');
    const [, assistant, toolResult] = upstream.last.body.messages;
    expect(assistant.content).toEqual([
      {
        type: 'thinking',
        thinking: 'The user wants the weather in Paris. I should call get_weather.',
        signature: 'BDaL4VrbR2Oj0hO4XpJxT28J5TILnCrrUXoKiiNBZW9P+nr8XSj1zuZzAl4egiCCpQNvfyUuFFJP5CncdYZEQPPmLxYsNrcs==',
      },
      {
        type: 'redacted_thinking',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB8URj2pLmN0oQWjy==',
      },
      { type: 'tool_use', id: 'toolu_01CswdEQBMshySk6Y9DFKrfq', name: 'get_weather', input: { location: 'Paris' } },
    ]);
    expect(toolResult).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01CswdEQBMshySk6Y9DFKrfq' }],
    });
  });

  it('leaves encrypted_content out of an unstored answer unless include asks for it; a stored one carries it', async () => {
    const reasoningOf = async (store: boolean) => {
      upstream.reply({ kind: 'json', body: loadJson('anthropic', 'thinking') });
      const response = await client.responses.create({
        model: 'anthropic/claude-haiku-5-5',
        input: 'What is 27 * 453?',
        reasoning: { effort: 'medium' },
        max_output_tokens: 4000,
        store,
      });
      return response.output.find((item) => item.type === 'reasoning');
    };
    const unstored = await reasoningOf(false);
    expect(unstored).toBeDefined();
    expect(unstored).not.toHaveProperty('encrypted_content');
    // What the next turn gives back to the provider (docs/stored-responses.md).
    expect(await reasoningOf(true)).toHaveProperty('encrypted_content');
  });

  it('a failure after the stream began ends with error and response.failed; the record says error', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/mid-stream-error.chunks.txt')] });
    const res = await gw.fetch('/api/v1/responses', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'anthropic/claude-haiku-5-5', input: 'Explain.', stream: true }),
    });
    expect(res.status).toBe(200);
    const frames = (await res.text()).split('\n\n').filter((block) => block.startsWith('event: '));
    const events = frames.map((block) => ({
      name: block.split('\n')[0].slice('event: '.length),
      data: JSON.parse(block.split('\n')[1].slice('data: '.length)),
    }));
    for (const event of events) expect(event.data.type).toBe(event.name);
    expect(events.map((event) => event.name).slice(-3)).toEqual([
      'response.output_item.done',
      'error',
      'response.failed',
    ]);
    expect(events.at(-2)!.data).toMatchObject({ code: 'server_error', param: null });
    const failed = events.at(-1)!.data.response;
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
    expect(failed.output[0].content[0].text).toBe('The question');
    expect(failed.usage.input_tokens).toBeGreaterThan(0);
    expect(await record(res.headers.get('x-generation-id')!)).toMatchObject({
      api_format: 'responses',
      status: 'error',
    });
  });
});

describe('Gemini behind /responses', () => {
  it('carries a function call thought signature out and back to Gemini 3', async () => {
    upstream.reply(
      { kind: 'sse', chunks: [fixture('gemini/tool-call-gemini3.chunks.txt')] },
      { kind: 'json', body: JSON.parse(fixture('gemini/text.json')) },
    );
    const first = await client.responses
      .stream({
        model: 'google/gemini-3.1-pro-preview',
        input: 'Weather in Oslo?',
        include: ['reasoning.encrypted_content'],
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            strict: false,
            parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } },
          },
        ],
      })
      .finalResponse();
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(first.usage?.output_tokens_details.reasoning_tokens).toBe(154);
    const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    await client.responses.create({
      model: 'google/gemini-3.1-pro-preview',
      input: [
        { role: 'user', content: 'Weather in Oslo?' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: call.call_id, output: '{"temp":4}' },
      ],
    });
    const modelTurn = upstream.last.body.contents[1];
    expect(modelTurn.role).toBe('model');
    expect(modelTurn.parts[0]).toMatchObject({
      functionCall: { name: 'get_weather' },
      thoughtSignature: expect.stringMatching(/^EpQCCpECAdHtim8K/),
    });
  });
});

describe('pass/ model behind /responses', () => {
  it('serves a subscriber: reference cost reported, not charged; record with api_format responses', async () => {
    const subscriber = await gw.createUser();
    await grantPass(gw.db, subscriber.userId, 1, new Date());
    const pass = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: subscriber.key, maxRetries: 0 });
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'gpt-oss-120b',
          choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }],
        },
        {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'gpt-oss-120b',
          choices: [],
          usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 },
        },
      ]),
    });
    const response = await pass.responses.stream({ model: 'pass/gpt-oss-120b', input: 'hi' }).finalResponse();
    expect(response.output_text).toBe('ok');
    expect(response.usage).toMatchObject({
      input_tokens: 1000,
      output_tokens: 100,
      cost_details: { access_mode: 'pass', charged: false },
    });
    expect((response.usage as unknown as { cost: number }).cost).toBeGreaterThan(0);
    expect(await record(response.id)).toMatchObject({ api_format: 'responses', access_mode: 'pass', streamed: true });
  });
});
