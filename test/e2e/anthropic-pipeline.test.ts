// The Anthropic adapter inside the real gateway (shipped catalog, embedded database) in front of a local
// mock of api.anthropic.com: what goes out on the wire and what the client gets back, streamed and not.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../../src/providers/anthropic/index.js';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { loadJson } from '../helpers/stream-replay.js';

const UPSTREAM_KEY = 'sk-ant-api03-upstream-secret';
const MODEL = 'anthropic/claude-haiku-5-5';
let gw: TestGateway;
let upstream: MockUpstream;
let user: { userId: string; key: string };

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
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

function chat(body: Record<string, unknown>) {
  return gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key: user.key,
    headers: { 'content-type': 'application/json', 'x-api-key': 'client-must-not-leak' },
    body: JSON.stringify({ model: MODEL, ...body }),
  });
}

describe('Anthropic adapter in the gateway pipeline', () => {
  it('JSON: POST /v1/messages with the operator key; tool call and usage come back in the gateway format', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'tool-use') });
    const res = await chat({
      stream: false,
      messages: [{ role: 'user', content: 'Weather in SF?' }],
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
    });
    expect(res.status).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(upstream.last.headers['x-api-key']).toBe(UPSTREAM_KEY);
    expect(upstream.last.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream.last.body).toMatchObject({ model: 'claude-haiku-5-5', max_tokens: 8192, stream: false });
    const body = await res.json();
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: "I'll check the current weather in San Francisco for you.",
        tool_calls: [
          {
            id: 'toolu_01A09q90qw90lq917835lq9',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
          },
        ],
      },
    });
    expect(body.usage).toMatchObject({ prompt_tokens: 472, completion_tokens: 89, total_tokens: 561 });
  });

  it('SSE: thinking, signed reasoning_details and text stream through; finish and usage in the last chunk', async () => {
    const bytes = readFileSync(new URL('../fixtures/anthropic/thinking.chunks.txt', import.meta.url), 'utf8');
    upstream.reply({ kind: 'sse', chunks: [bytes.slice(0, 700), bytes.slice(700)] });
    const res = await chat({
      stream: true,
      max_tokens: 4000,
      reasoning: { effort: 'medium' },
      messages: [{ role: 'user', content: 'What is 27 * 453?' }],
    });
    const read = await readSse(res);
    expect(upstream.last.body).toMatchObject({
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      stream: true,
    });
    expect(read.done).toBe(true);
    const deltas = read.chunks.map((c) => c.choices[0]?.delta ?? {});
    expect(deltas.map((d) => d.reasoning ?? '').join('')).toBe(
      'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3',
    );
    expect(deltas.flatMap((d) => d.reasoning_details ?? [])).toEqual([
      {
        type: 'reasoning.text',
        text: 'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+vA2fYR==',
        format: 'anthropic-claude-v1',
        index: 0,
      },
    ]);
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('27 * 453 = 12,231');
    const last = read.chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage).toMatchObject({ prompt_tokens: 46, completion_tokens: 212 });
  });

  it('SSE: an in-stream overloaded_error ends with an error chunk and [DONE]', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: [readFileSync(new URL('../fixtures/anthropic/mid-stream-error.chunks.txt', import.meta.url), 'utf8')],
    });
    const read = await readSse(await chat({ stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    expect(read.done).toBe(true);
    expect(read.chunks.at(-1).choices[0]).toMatchObject({ finish_reason: 'error', error: { code: 'server_error' } });
  });

  it('HTTP 529 overloaded → 503 for the client; 401 → 502 without the vendor text', async () => {
    upstream.reply({ kind: 'json', status: 529, body: loadJson('anthropic', 'error-529') });
    const overloaded = await chat({ stream: false, messages: [{ role: 'user', content: 'hi' }] });
    expect(overloaded.status).toBe(503);
    upstream.reply({ kind: 'json', status: 401, body: loadJson('anthropic', 'error-401') });
    const denied = await chat({ stream: false, messages: [{ role: 'user', content: 'hi' }] });
    expect(denied.status).toBe(502);
    expect(JSON.stringify(await denied.json())).not.toContain('x-api-key');
  });
});
