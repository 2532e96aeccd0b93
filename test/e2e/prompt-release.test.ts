// A long prompt must not stay in memory for the whole generation: once the vendor request is built and sent, the
// gateway drops the parsed messages (the prompt lives on only in the bytes sent upstream): the translated request on
// the translated lane, the client's bytes and parsed body on the native lane.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import { nativeChat } from '../../src/providers/openai-compatible/native-chat.js';
import type { NativeWire } from '../../src/providers/native/native-protocol.js';
import type { GenerationRequest } from '../../src/core/generation-request.js';

let gw: TestGateway;
let upstream: MockUpstream;
let key: string;
/** The parsed request objects the adapter was handed, in order. */
const seen: GenerationRequest[] = [];
/** The client's requests the native lane was handed, in order. */
const wires: NativeWire[] = [];

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  const adapter = createOpenAICompatibleAdapter();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      DEEPSEEK_API_KEY: 'k',
      DEEPSEEK_BASE_URL: upstream.url,
    },
    overrides: {
      natives: {
        chat: {
          ...nativeChat,
          buildRequest: (input) => {
            wires.push(input.wire);
            return nativeChat.buildRequest(input);
          },
        },
      },
      adapters: {
        'openai-compatible': {
          ...adapter,
          buildRequest: (request, ctx) => {
            seen.push(request);
            return adapter.buildRequest(request, ctx);
          },
        },
      },
    },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 10);
  key = user.key;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

const prompt = 'x'.repeat(64 * 1024);
const chunk = (content: string) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
const usage = {
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
};

describe('prompt release', () => {
  it("native lane: sends the client's whole prompt upstream, then drops its bytes and messages while the stream runs", async () => {
    upstream.reply({
      kind: 'sse',
      chunks: [...openAiSse([chunk('a')], false), { pauseMs: 200 }, ...openAiSse([chunk('b'), usage])],
    });
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: prompt }], stream: true }),
    });
    // Headers are here, the upstream is still pausing mid-stream.
    expect(wires.at(-1)!.raw.length).toBe(0);
    expect(wires.at(-1)!.body.messages).toEqual([]);
    const sse = await readSse(res);
    expect(sse.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('ab');
    expect(upstream.last.body.messages).toEqual([{ role: 'user', content: prompt }]);
  });

  it('translated lane: sends the whole prompt upstream, then drops it while the stream is still running', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: [...openAiSse([chunk('a')], false), { pauseMs: 200 }, ...openAiSse([chunk('b'), usage])],
    });
    // DeepSeek has no `developer` role: the conversation is translated for it.
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'deepseek/deepseek-reasoner',
        messages: [
          { role: 'developer', content: 'Be brief.' },
          { role: 'user', content: prompt },
        ],
        stream: true,
      }),
    });
    // Headers are here, the upstream is still pausing mid-stream.
    expect(seen.at(-1)!.messages).toEqual([]);
    expect(seen.at(-1)!.system).toEqual([]);
    const sse = await readSse(res);
    expect(sse.chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('ab');
    expect(upstream.last.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: prompt },
    ]);
  });
});
