// The shipped catalog's multi-endpoint models: open-weight models served by OpenRouter and Groq, and GPT-5.4 mini by
// OpenAI and OpenRouter. They load with their real upstream names and prices, the endpoints listing shows them, and a
// failing first endpoint falls back to the next one under its own upstream model name and price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

const catalog = loadCatalog({});
const usdPerM = (usd: number) => BigInt(Math.round(usd * 1e9));

describe('shipped catalog endpoints', () => {
  it('lists several endpoints for models real providers serve alike, primary first', () => {
    const endpoints = (id: string) =>
      catalog
        .get(id)!
        .endpoints!.map((e) => [
          e.provider,
          e.entry.upstreamModel,
          e.entry.pricing.base.input,
          e.entry.pricing.base.output,
        ]);
    expect(endpoints('openrouter/openai/gpt-oss-120b')).toEqual([
      ['openrouter', 'openai/gpt-oss-120b', usdPerM(0.039), usdPerM(0.19)],
      ['groq', 'openai/gpt-oss-120b', usdPerM(0.15), usdPerM(0.6)],
    ]);
    expect(endpoints('openrouter/meta-llama/llama-3.3-70b-instruct')).toEqual([
      ['openrouter', 'meta-llama/llama-3.3-70b-instruct', usdPerM(0.1), usdPerM(0.32)],
      ['groq', 'llama-3.3-70b-versatile', usdPerM(0.59), usdPerM(0.79)],
    ]);
    expect(endpoints('openai/gpt-5.4-mini')).toEqual([
      ['openai', 'gpt-5.4-mini', usdPerM(0.75), usdPerM(4.5)],
      ['openrouter', 'openai/gpt-5.4-mini', usdPerM(0.75), usdPerM(4.5)],
    ]);
    const groqLlama = catalog.get('openrouter/meta-llama/llama-3.3-70b-instruct')!.endpoints![1].entry;
    expect([groqLlama.contextLength, groqLlama.maxOutputTokens]).toEqual([131072, 32768]);
    // Every endpoint names a provider the gateway has an adapter for (the shipped providers are all openai-compatible
    // here), and no other shipped model quietly gained endpoints.
    const multi = catalog
      .list()
      .filter((m) => (m.endpoints?.length ?? 1) > 1)
      .map((m) => m.id)
      .sort();
    expect(multi).toEqual([
      'openai/gpt-5.4-mini',
      'openrouter/meta-llama/llama-3.3-70b-instruct',
      'openrouter/openai/gpt-oss-120b',
    ]);
    for (const id of multi) {
      for (const e of catalog.get(id)!.endpoints!)
        expect(catalog.provider(e.provider)?.kind, `${id}@${e.provider}`).toBe('openai-compatible');
    }
  });
});

describe('shipped multi-endpoint models through the gateway', () => {
  let gw: TestGateway;
  const up: Record<'openrouter' | 'groq', MockUpstream> = {} as never;
  let user: { userId: string; key: string };

  beforeAll(async () => {
    up.openrouter = await new MockUpstream().start();
    up.groq = await new MockUpstream().start();
    // No MODELGATE_CATALOG: the shipped catalog.
    gw = await startTestGateway({
      env: {
        OPENROUTER_API_KEY: 'sk-or',
        OPENROUTER_BASE_URL: `${up.openrouter.url}/api/v1`,
        GROQ_API_KEY: 'sk-gq',
        GROQ_BASE_URL: `${up.groq.url}/openai/v1`,
      },
    });
    user = await gw.createUser();
    await gw.grant(user.userId, 10);
  });
  afterAll(async () => {
    await gw?.close();
    for (const u of Object.values(up)) await u?.close();
  });

  it('the endpoints listing shows both providers of Llama 3.3 70B', async () => {
    const res = await gw.fetch('/api/v1/models/openrouter/meta-llama%2Fllama-3.3-70b-instruct/endpoints', {
      key: user.key,
    });
    expect(res.status).toBe(200);
    const listing: any = await res.json();
    expect(
      listing.data.endpoints.map((e: any) => [
        e.provider,
        e.provider_name,
        e.pricing.prompt,
        e.pricing.completion,
        e.status,
        e.available,
      ]),
    ).toEqual([
      ['openrouter', 'OpenRouter', '0.0000001', '0.00000032', 'closed', true],
      ['groq', 'Groq', '0.00000059', '0.00000079', 'closed', true],
    ]);
  });

  it('OpenRouter failing, Groq serves under its own model name and is charged at its price', async () => {
    up.openrouter.always({ kind: 'json', status: 503, body: { error: { message: 'no capacity', code: 503 } } });
    up.groq.always({
      kind: 'json',
      body: {
        id: 'gq-1',
        object: 'chat.completion',
        created: 1760000000,
        model: 'llama-3.3-70b-versatile',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hello from groq' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1_000_000, completion_tokens: 1_000_000, total_tokens: 2_000_000 },
      },
    });
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'openrouter/meta-llama/llama-3.3-70b-instruct',
        messages: [{ role: 'user', content: 'hi' }],
        stream: false,
      }),
    });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect([body.model, body.provider]).toEqual(['openrouter/meta-llama/llama-3.3-70b-instruct', 'groq']);
    expect(up.openrouter.requests.map((r) => (r.body as any).model)).toEqual(['meta-llama/llama-3.3-70b-instruct']);
    expect(up.groq.requests.map((r) => (r.body as any).model)).toEqual(['llama-3.3-70b-versatile']);
    // 1M prompt + 1M completion tokens at Groq's 0.59 + 0.79 USD.
    expect(body.usage.cost).toBeCloseTo(1.38, 9);
  });
});
