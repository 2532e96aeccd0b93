// The Gemini adapter inside the running gateway (shipped catalog: google is kind "gemini"), in front of a local
// mock of generativelanguage.googleapis.com replaying the recorded fixtures.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import { createGeminiAdapter } from '../../src/providers/gemini/index.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { loadJson, selfReferencingSchema } from '../providers/gemini/helpers.js';

const KEY = 'AIzaUpstreamSecret0123456789';
const FIXTURES = fileURLToPath(new URL('../fixtures/gemini/', import.meta.url));
let gw: TestGateway;
let upstream: MockUpstream;
let user: { key: string; userId: string };

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: { GEMINI_API_KEY: KEY, GOOGLE_BASE_URL: `${upstream.url}/v1beta` },
    overrides: { adapters: { 'openai-compatible': createOpenAICompatibleAdapter(), gemini: createGeminiAdapter() } },
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
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'client-must-not-pass' },
    body: JSON.stringify({ model: 'google/gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }], ...body }),
  });
}

describe('Gemini through the gateway', () => {
  it('JSON: calls :generateContent with the operator key and answers in the gateway format', async () => {
    upstream.reply({ kind: 'json', body: loadJson('text') });
    const res = await chat({ stream: false });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(upstream.last.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(upstream.last.headers['x-goog-api-key']).toBe(KEY);
    expect(upstream.last.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }]);
    expect(body.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'Hello! How can I help you today?' },
      finish_reason: 'stop',
    });
    expect(body.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 9 });
  });

  it('SSE: streams deltas, one finish chunk with usage, then [DONE]', async () => {
    const bytes = readFileSync(`${FIXTURES}reasoning.chunks.txt`, 'utf8');
    upstream.reply({ kind: 'sse', chunks: [bytes.slice(0, 101), bytes.slice(101)] });
    const sse = await readSse(await chat({ stream: true, model: 'google/gemini-3.5-flash' }));
    expect(upstream.last.path).toBe('/v1beta/models/gemini-3.5-flash:streamGenerateContent?alt=sse');
    expect(upstream.last.body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true });
    expect(sse.done).toBe(true);
    const deltas = sse.chunks.map((c) => c.choices[0]?.delta ?? {});
    expect(deltas.map((d) => d.reasoning ?? '').join('')).toBe(
      "**Counting the letters**\n\nI need to count the r's in strawberry.",
    );
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('There are **3** r\'s in "strawberry".');
    expect(deltas.flatMap((d) => d.reasoning_details ?? [])).toMatchObject([
      { type: 'reasoning.encrypted', format: 'google-gemini-v1' },
    ]);
    const last = sse.chunks[sse.chunks.length - 1];
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage).toMatchObject({
      prompt_tokens: 12,
      completion_tokens: 301,
      completion_tokens_details: { reasoning_tokens: 290 },
    });
  });

  it("a Gemini 429 becomes the gateway's 429 with Retry-After from RetryInfo", async () => {
    upstream.reply({ kind: 'json', status: 429, body: loadJson('error-429') });
    const res = await chat({ stream: false });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('35');
  });

  it("a recursive tool schema that inlining would blow up: 400 in the request's envelope, nothing sent upstream", async () => {
    const tools = [{ type: 'function', function: { name: 'tree', parameters: selfReferencingSchema() } }];
    for (const stream of [false, true]) {
      const res = await chat({ stream, tools });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error).toMatchObject({
        code: 400,
        metadata: { reason: 'schema_too_large', field: 'tools' },
      });
    }
    const format = await chat({
      stream: false,
      response_format: { type: 'json_schema', json_schema: { name: 'tree', schema: selfReferencingSchema() } },
    });
    expect(format.status).toBe(400);
    expect(((await format.json()) as any).error.metadata).toMatchObject({
      reason: 'schema_too_large',
      field: 'response_format',
    });
    expect(upstream.requests).toHaveLength(0);
  });
});
