// Vendor options that change the token prices (core/served-options.ts) are priced on the native lanes: OpenAI's
// `service_tier` on /responses and /chat/completions, Anthropic's `speed` (fast mode) and `inference_geo` (US-only
// inference) on /messages. Each reaches the vendor only with a value the catalog prices (pricing.multipliers), is
// reserved at its factor, and is charged at the factor of what the vendor's answer says it served (OpenAI's
// `service_tier`, Anthropic's usage fields); any other value is left out and named in x-modelgate-warning. Over HTTP:
// the request the vendor gets, the record's cost and served options, the debit, GET /generation, the 402.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { listLedger } from '../../src/repositories/credits.js';

const fixture = (vendor: string, name: string) =>
  readFileSync(new URL(`../fixtures/${vendor}/${name}`, import.meta.url), 'utf8');
const json = (vendor: string, name: string) => JSON.parse(fixture(vendor, name));

interface Want {
  model: string;
  served: Record<string, string>;
  cost: bigint;
}
// gpt-5.5 (USD per 1M: input 5, cached 0.5, output 30; priority 2.5×, flex 0.5×). native-responses-priority.json:
// 6,000 in (2,000 cached), 800 out: 20,000,000 + 1,000,000 + 24,000,000 = 45,000,000 nanos at the standard price.
const PRIORITY: Want = { model: 'openai/gpt-5.5', served: { service_tier: 'priority' }, cost: 112_500_000n };
const FLEX: Want = { model: 'openai/gpt-5.5', served: { service_tier: 'flex' }, cost: 22_500_000n };
// native-responses-priority.chunks.txt: 900 in, 6 out: 4,500,000 + 180,000 = 4,680,000 nanos; × 2.5.
const PRIORITY_STREAM: Want = { model: 'openai/gpt-5.5', served: { service_tier: 'priority' }, cost: 11_700_000n };
// gpt-5.4 (input 2.5, output 15; priority 2×). chat-priority: 1,000 in, 200 out: 2,500,000 + 3,000,000; × 2.
const CHAT: Want = { model: 'openai/gpt-5.4', served: { service_tier: 'priority' }, cost: 11_000_000n };
// claude-opus-5-5 (input 4, cache read 0.2, output 20; fast 2×, us 1.1×). fast-mode: 2,048 in, 1,024 cache reads,
// 512 out: 8,192,000 + 204,800 + 10,240,000 = 18,636,800 nanos; × 2 × 1.1 = 41,000,960.
const FAST_US: Want = {
  model: 'anthropic/claude-opus-5-5',
  served: { speed: 'fast', inference_geo: 'us' },
  cost: 41_000_960n,
};

describeEachBackend('price options', (backend) => {
  let gw: TestGateway;
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    gw = await startTestGateway({
      backend,
      env: {
        ANTHROPIC_API_KEY: 'sk-ant-upstream',
        ANTHROPIC_BASE_URL: upstream.url,
        OPENAI_API_KEY: 'sk-proj-upstream',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
        DEEPSEEK_API_KEY: 'sk-deepseek-upstream',
        DEEPSEEK_BASE_URL: upstream.url,
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  async function funded(usd = 1) {
    const user = await gw.createUser();
    await gw.grant(user.userId, usd);
    return user;
  }

  /** The record, its debit and GET /generation: the served options' factor in the cost, the options shown. */
  async function expectBilled(user: { userId: string; key: string }, res: Response, want: Want) {
    const id = res.headers.get('x-generation-id')!;
    await gw.settled();
    const row = await gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const debits = (await listLedger(gw.db, user.userId, 10))
      .filter((r) => r.kind === 'debit')
      .map((r) => -r.amount_nanos);
    const generation = (await (await gw.fetch(`/api/v1/generation?id=${id}`, { key: user.key })).json()).data;
    expect(row).toMatchObject({ model: want.model, status: 'success', usage_estimated: false });
    expect(row.cost_nanos).toBe(want.cost);
    expect(debits).toEqual([want.cost]);
    expect(row.attempts?.at(-1)?.served).toEqual(want.served);
    expect(generation).toMatchObject({ served_options: want.served, total_cost: Number(want.cost) / 1e9 });
  }

  const post = (path: string, key: string, body: Record<string, unknown>) =>
    gw.fetch(`/api/v1${path}`, {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    });
  const responses = (key: string, body: Record<string, unknown>) =>
    post('/responses', key, {
      model: 'openai/gpt-5.5',
      input: 'Why does this test fail?',
      max_output_tokens: 2000,
      ...body,
    });
  const chat = (key: string, body: Record<string, unknown>) =>
    post('/chat/completions', key, {
      model: 'openai/gpt-5.4',
      messages: [{ role: 'user', content: 'Why is this test flaky?' }],
      max_tokens: 1000,
      ...body,
    });
  const messages = (key: string, body: Record<string, unknown>) =>
    post('/messages', key, {
      model: 'anthropic/claude-opus-5-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'How do I decouple this service?' }],
      ...body,
    });

  it('/responses: a priority tier reaches OpenAI and is charged at the tier the Response says it served, JSON and stream', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-priority.json') });
    const res = await responses(user.key, { service_tier: 'priority' });
    expect(res.status).toBe(200);
    expect(upstream.last.body.service_tier).toBe('priority');
    expect(res.headers.get('x-modelgate-warning')).toBeNull();
    expect((await res.json()).usage.cost).toBe(Number(PRIORITY.cost) / 1e9);
    await expectBilled(user, res, PRIORITY);

    const again = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('openai', 'native-responses-priority.chunks.txt')] });
    const stream = await responses(again.key, { service_tier: 'priority', stream: true });
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain(`"cost":${Number(PRIORITY_STREAM.cost) / 1e9}`);
    await expectBilled(again, stream, PRIORITY_STREAM);
  });

  it('/responses: flex is charged at half; `fast` (served as priority) and `auto` reach OpenAI as sent', async () => {
    const user = await funded();
    const flex = { ...json('openai', 'native-responses-priority.json'), service_tier: 'flex' };
    upstream.reply({ kind: 'json', body: flex });
    const res = await responses(user.key, { service_tier: 'flex' });
    expect(res.status).toBe(200);
    await res.json();
    await expectBilled(user, res, FLEX);

    const fast = await funded();
    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-priority.json') });
    const faster = await responses(fast.key, { service_tier: 'fast' });
    expect(faster.status).toBe(200);
    expect(upstream.last.body.service_tier).toBe('fast');
    await faster.json();
    await expectBilled(fast, faster, PRIORITY);

    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-reasoning.json') });
    const auto = await responses((await funded()).key, { service_tier: 'auto' });
    expect(auto.status).toBe(200);
    expect(upstream.last.body.service_tier).toBe('auto');
    expect(auto.headers.get('x-modelgate-warning')).toBeNull();
  });

  it('/responses: a tier the catalog does not price is left out and named', async () => {
    const user = await funded();
    upstream.always({ kind: 'json', body: json('openai', 'native-responses-reasoning.json') });
    const scale = await responses(user.key, { service_tier: 'scale' });
    expect(scale.status).toBe(200);
    expect(upstream.last.body).not.toHaveProperty('service_tier');
    expect(scale.headers.get('x-modelgate-warning')).toBe(
      'service_tier "scale" left out: openai/gpt-5.5 has no price for it at this gateway, which would bill it at the standard price',
    );
    // GPT-5.4 nano has no priority processing price.
    const nano = await responses(user.key, { model: 'openai/gpt-5.4-nano', service_tier: 'priority' });
    expect(nano.status).toBe(200);
    expect(upstream.last.body).not.toHaveProperty('service_tier');
    expect(nano.headers.get('x-modelgate-warning')).toMatch(
      /^service_tier "priority" left out: openai\/gpt-5.4-nano has no price for it/,
    );
  });

  it("reserves at the requested tier's factor: priority may answer 402 where the standard tier fits", async () => {
    // 0.05 USD: 1,000 output tokens of GPT-5.5 reserve about 0.03 USD at the standard price, 0.075 at priority.
    const user = await funded(0.05);
    const refused = await responses(user.key, { service_tier: 'priority', max_output_tokens: 1000 });
    expect(refused.status).toBe(402);
    const error = (await refused.json()).error;
    expect(error.message).toContain('leave out service_tier');
    expect(error.metadata).toMatchObject({ price_options_assumed: { service_tier: 'priority' } });
    expect(upstream.requests).toHaveLength(0);
    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-reasoning.json') });
    expect((await responses(user.key, { max_output_tokens: 1000 })).status).toBe(200);
  });

  it('/chat/completions: a priced tier reaches OpenAI and is charged as served, JSON and stream; others are left out', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: json('openai', 'chat-priority.json') });
    const res = await chat(user.key, { service_tier: 'priority', stream: false });
    expect(res.status).toBe(200);
    expect(upstream.last.body.service_tier).toBe('priority');
    expect((await res.json()).usage.cost).toBe(Number(CHAT.cost) / 1e9);
    await expectBilled(user, res, CHAT);

    const again = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('openai', 'chat-priority.chunks.txt')] });
    const stream = await chat(again.key, { service_tier: 'priority', stream: true });
    expect(stream.status).toBe(200);
    await stream.text();
    await expectBilled(again, stream, CHAT);

    // DeepSeek prices no tier: a non-standard one is named, the standard `auto` is left out silently.
    upstream.always({ kind: 'json', body: json('openai', 'text.json') });
    const deepseek = await chat(again.key, {
      model: 'deepseek/deepseek-flash',
      service_tier: 'priority',
      stream: false,
    });
    expect(deepseek.status).toBe(200);
    expect(upstream.last.body).not.toHaveProperty('service_tier');
    expect(deepseek.headers.get('x-modelgate-warning')).toMatch(
      /^service_tier "priority" left out: deepseek\/deepseek-flash has no price for it/,
    );
    const auto = await chat(again.key, { model: 'deepseek/deepseek-flash', service_tier: 'auto', stream: false });
    expect(upstream.last.body).not.toHaveProperty('service_tier');
    expect(auto.headers.get('x-modelgate-warning')).toBeNull();
  });

  it("/messages: fast mode and US-only inference reach Anthropic and are charged as Anthropic's usage says, JSON and stream", async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: json('anthropic', 'fast-mode.json') });
    const res = await messages(user.key, { speed: 'fast', inference_geo: 'us', service_tier: 'auto' });
    expect(res.status).toBe(200);
    expect(upstream.last.body).toMatchObject({ speed: 'fast', inference_geo: 'us', service_tier: 'auto' });
    expect((await res.json()).usage).toMatchObject({ speed: 'fast', inference_geo: 'us' });
    await expectBilled(user, res, FAST_US);

    const again = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic', 'fast-mode.chunks.txt')] });
    const stream = await messages(again.key, { speed: 'fast', inference_geo: 'us', stream: true });
    expect(stream.status).toBe(200);
    await stream.text();
    await expectBilled(again, stream, FAST_US);
  });

  it('/messages: a model without a price for them has speed and inference_geo left out and named', async () => {
    upstream.reply({ kind: 'json', body: json('anthropic', 'text.json') });
    const res = await messages((await funded()).key, {
      model: 'anthropic/claude-sonnet-4-5',
      speed: 'fast',
      inference_geo: 'us',
    });
    expect(res.status).toBe(200);
    expect(upstream.last.body).not.toHaveProperty('speed');
    expect(upstream.last.body).not.toHaveProperty('inference_geo');
    expect(res.headers.get('x-modelgate-warning')).toBe(
      'speed "fast" left out: anthropic/claude-sonnet-4-5 has no price for it at this gateway, which would bill it at the standard price; ' +
        'inference_geo "us" left out: anthropic/claude-sonnet-4-5 has no price for it at this gateway, which would bill it at the standard price',
    );
  });

  it('GET /models shows the factors under pricing.multipliers', async () => {
    const user = await gw.createUser();
    const list = (await (await gw.fetch('/api/v1/models', { key: user.key })).json()).data as {
      id: string;
      pricing: Record<string, unknown>;
    }[];
    const of = (id: string) => list.find((m) => m.id === id)!.pricing.multipliers;
    expect(of('openai/gpt-5.5')).toEqual({ service_tier: { priority: '2.5', flex: '0.5' } });
    expect(of('anthropic/claude-opus-5-5')).toEqual({ speed: { fast: '2' }, inference_geo: { us: '1.1' } });
    expect(of('deepseek/deepseek-flash')).toBeUndefined();
  });
});
