// POST /embeddings refuses before any provider is called: bad input (400), a model that is not an embedding model
// (and the chat doors refuse embedding models), credits that cannot cover the request (402), a key whose allowed_models
// leaves the model out (403). GET /models lists embedding models and filters by output modality; requests show in
// the metrics and in a GenAI `embeddings` span.
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { metricValue } from '../helpers/serve-process.js';
import { recordedSpans } from '../helpers/recorded-spans.js';
import { setActiveTracer } from '../../src/observability/tracer.js';

const TOKEN = 'scrape-token-abcdefghijklmnop';
const { tracer, exporter } = recordedSpans();
let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;

beforeAll(async () => {
  setActiveTracer(tracer);
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/embeddings-catalog.json',
      MODELGATE_METRICS_TOKEN: TOKEN,
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      GOOGLE_API_KEY: 'AIza-test-key-000000',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
      MISTRAL_API_KEY: 'mistral-key',
      MISTRAL_BASE_URL: `${upstream.url}/mistral/v1`,
      ANTHROPIC_API_KEY: 'sk-ant',
      ANTHROPIC_BASE_URL: upstream.url,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 5);
});
afterAll(async () => {
  setActiveTracer(undefined);
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  exporter.reset();
});

const embed = (body: Record<string, unknown>, key = user.key) =>
  gw.fetch('/api/v1/embeddings', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function refused(body: Record<string, unknown>, status: number, key = user.key) {
  const res = await embed(body, key);
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(status);
  expect(upstream.requests).toHaveLength(0);
  return json.error as { code: number; message: string; metadata: Record<string, unknown> };
}

const okReply = {
  kind: 'json' as const,
  body: {
    object: 'list',
    data: [{ object: 'embedding', index: 0, embedding: [0.1] }],
    usage: { prompt_tokens: 2, total_tokens: 2 },
  },
};

describe('refused before any provider call', () => {
  it('400 for empty inputs', async () => {
    for (const input of ['', [], ['fine', ''], [[]], [[1, 2], []]]) {
      const error = await refused({ model: 'openai/text-embedding-3-small', input }, 400);
      expect(error.metadata.reason).toBe('empty_input');
    }
  });

  it('400 for more than 2,048 inputs', async () => {
    const error = await refused(
      { model: 'openai/text-embedding-3-small', input: Array.from({ length: 2049 }, () => 'x') },
      400,
    );
    expect(error).toMatchObject({ code: 400, metadata: { reason: 'too_many_inputs', limit: 2048 } });
    // 2,048 is allowed.
    upstream.reply({
      kind: 'json',
      body: {
        data: Array.from({ length: 2048 }, (_, index) => ({ index, embedding: [index] })),
        usage: { prompt_tokens: 2048 },
      },
    });
    expect(
      (await embed({ model: 'openai/text-embedding-3-small', input: Array.from({ length: 2048 }, () => 'x') })).status,
    ).toBe(200);
  });

  it('400 for an input longer than the model takes, naming it', async () => {
    // Gemini embedding takes 2,048 tokens: ~4 characters a token.
    const error = await refused({ model: 'google/gemini-embedding-001', input: ['short', 'y'.repeat(2049 * 4)] }, 400);
    expect(error).toMatchObject({ metadata: { reason: 'input_too_long', field: 'input[1]', max_input_tokens: 2048 } });
    const tokens = await refused(
      { model: 'openai/text-embedding-3-small', input: [Array.from({ length: 8192 }, () => 1)] },
      400,
    );
    expect(tokens.metadata).toMatchObject({ reason: 'input_too_long', estimated_tokens: 8192 });
  });

  it('400 for dimensions outside the model range, and token ids where the provider takes none', async () => {
    expect(
      (await refused({ model: 'openai/text-embedding-3-small', input: 'x', dimensions: 1537 }, 400)).metadata.reason,
    ).toBe('dimensions_not_supported');
    expect(
      (await refused({ model: 'google/gemini-embedding-001', input: 'x', dimensions: 64 }, 400)).metadata,
    ).toMatchObject({ min_dimensions: 128 });
    expect((await refused({ model: 'mistral/mistral-embed', input: 'x', dimensions: 512 }, 400)).message).toContain(
      'only 1024',
    );
    expect((await refused({ model: 'google/gemini-embedding-001', input: [1, 2, 3] }, 400)).metadata.reason).toBe(
      'token_input_not_supported',
    );
    expect((await refused({ model: 'mistral/mistral-embed', input: [[1, 2, 3]] }, 400)).metadata.reason).toBe(
      'token_input_not_supported',
    );
  });

  it('400 for a chat model on /embeddings and an embedding model on the chat doors; 404 for an unknown model', async () => {
    expect((await refused({ model: 'openai/gpt-test', input: 'x' }, 400)).metadata.reason).toBe(
      'not_an_embedding_model',
    );
    expect((await refused({ model: 'openai/text-embedding-9', input: 'x' }, 404)).metadata.reason).toBe(
      'unknown_model',
    );
    const chat = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'openai/text-embedding-3-small',
        messages: [{ role: 'user', content: 'hi' }],
        stream: false,
      }),
    });
    expect(chat.status).toBe(400);
    expect((await chat.json()).error.metadata.reason).toBe('not_a_chat_model');
    const messages = await gw.fetch('/api/v1/messages', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'google/gemini-embedding-001',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(messages.status).toBe(400);
    expect((await messages.json()).error.type).toBe('invalid_request_error');
    expect(upstream.requests).toHaveLength(0);
  });

  it('402 when the balance cannot cover the request, nothing recorded', async () => {
    const poor = await gw.createUser();
    await gw.grant(poor.userId, 0.000001);
    // 20,000 bytes of text may be up to 8,191 tokens at 2 USD per 1M: more than 1 µUSD... but one short text is not.
    const error = await refused({ model: 'openai/text-embedding-3-small', input: 'z'.repeat(20_000) }, 402, poor.key);
    expect(error.message).toMatch(
      /^Insufficient credits: this request may cost up to 0.016382 USD and 0.000001 USD is available\. Add credits\.$/,
    );
    const broke = await gw.createUser();
    expect((await refused({ model: 'openai/text-embedding-3-small', input: 'hi' }, 402, broke.key)).code).toBe(402);
    const listed = await gw.fetch('/api/v1/generations', { key: broke.key });
    expect((await listed.json()).data).toEqual([]);
  });

  it("403 for a model outside the key's allowed_models", async () => {
    const token = await gw.createToken(user.userId);
    const created = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'google-only', allowed_models: ['google/*'] }),
    });
    const { key } = await created.json();
    expect((await refused({ model: 'openai/text-embedding-3-small', input: 'x' }, 403, key)).metadata.reason).toBe(
      'model_not_allowed',
    );
  });
});

describe('the catalog', () => {
  it('lists embedding models with their output modality and sizes, and filters by output modality', async () => {
    const all = (await (await gw.fetch('/api/v1/models', { key: user.key })).json()).data as {
      id: string;
      architecture: { output_modalities: string[] };
      embedding?: unknown;
      pricing: { completion: string };
    }[];
    const small = all.find((m) => m.id === 'openai/text-embedding-3-small')!;
    expect(small).toMatchObject({
      architecture: { output_modalities: ['embeddings'] },
      embedding: { default_dimensions: 1536, min_dimensions: 1, max_dimensions: 1536 },
      context_length: 8191,
      pricing: { completion: '0' },
    });
    expect(all.find((m) => m.id === 'openai/gpt-test')).toMatchObject({
      architecture: { output_modalities: ['text'] },
    });
    expect(all.find((m) => m.id === 'openai/gpt-test')!.embedding).toBeUndefined();
    const ids = async (query: string) => {
      const res = await gw.fetch(`/api/v1/models?${query}`, { key: user.key });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      return (body.data as { id: string }[]).map((m) => m.id);
    };
    expect(await ids('output_modalities=text')).toEqual(['openai/gpt-test', 'anthropic/claude-test']);
    expect(await ids('output_modalities=embeddings')).toEqual([
      'openai/text-embedding-3-small',
      'google/gemini-embedding-001',
      'mistral/mistral-embed',
    ]);
    expect(await ids('output_modalities=embeddings,text')).toHaveLength(5);
    expect(await ids('output_modalities=all')).toHaveLength(5);
    expect(await ids('output_modalities=audio')).toEqual([]);
  });
});

describe('observability', () => {
  it('counts embeddings requests by api_format and traces them as a GenAI embeddings operation', async () => {
    upstream.reply(okReply);
    const res = await embed({ model: 'openai/text-embedding-3-small', input: 'observed' });
    expect(res.status).toBe(200);
    await res.json();
    const metrics = await (await gw.fetch('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(
      metricValue(metrics, 'modelgate_requests_total', {
        api_format: 'embeddings',
        model: 'openai/text-embedding-3-small',
        status: 'success',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(metrics, 'modelgate_tokens_total', { type: 'prompt', model: 'openai/text-embedding-3-small' }),
    ).toBeGreaterThanOrEqual(2);
    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(server.name).toBe('embeddings openai/text-embedding-3-small');
    expect(server.attributes).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.usage.input_tokens': 2,
      'gen_ai.response.id': res.headers.get('x-generation-id'),
    });
    const client = spans.find((s) => s.kind === SpanKind.CLIENT)!;
    expect(client.name).toBe('embeddings text-embedding-3-small');
    expect(client.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(client.attributes).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.usage.input_tokens': 2,
      'http.response.status_code': 200,
    });
  });

  it('traces a response-cache hit as a request span without an upstream attempt', async () => {
    upstream.reply(okReply);
    const cached = (cache: string) =>
      gw.fetch('/api/v1/embeddings', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json', 'x-modelgate-cache': cache },
        body: JSON.stringify({ model: 'openai/text-embedding-3-small', input: 'traced twice' }),
      });
    await (await cached('on')).json();
    exporter.reset();
    const hit = await cached('on');
    expect(hit.headers.get('x-modelgate-cache')).toBe('hit');
    await hit.json();
    const spans = exporter.getFinishedSpans();
    expect(spans.filter((s) => s.kind === SpanKind.CLIENT)).toEqual([]);
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(server.name).toBe('embeddings openai/text-embedding-3-small');
    expect(server.attributes).toMatchObject({
      'modelgate.response_cache': 'hit',
      'gen_ai.response.id': hit.headers.get('x-generation-id'),
      'gen_ai.usage.input_tokens': 0,
    });
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('a provider that does not serve the embeddings endpoint', () => {
  it('502 naming the endpoint that was called (embeddings), not the generation endpoints', async () => {
    for (const model of ['mistral/mistral-embed', 'google/gemini-embedding-001']) {
      upstream.reply({ kind: 'text', status: 404, body: 'Not Found' });
      const res = await embed({ model, input: 'hello' });
      const json = (await res.json()) as { error: { message: string } };
      expect(res.status, JSON.stringify(json)).toBe(502);
      expect(json.error.message).toMatch(/answered 404 for the (endpoint \()?embeddings/);
      expect(json.error.message).not.toMatch(/chat completions|generateContent/);
    }
  });
});
