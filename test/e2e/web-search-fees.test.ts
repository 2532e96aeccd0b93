// Vendors charge each web search their hosted search tool runs, on top of the tokens; the gateway bills it at the
// catalog's `web_search` price, from the vendor's own count, on every lane (docs/metering.md "Per-request tool fees"):
// the native Messages lane (Anthropic's server_tool_use.web_search_requests), the native Responses lane (OpenAI's
// web_search_call items), the native Gemini lane (grounding queries) and the translated lane (a Responses web_search
// tool served by Claude, a Messages web search served by Gemini). Over HTTP: the generation record's cost and count, the ledger's debit, GET /generation, the
// reservation a search tool adds, and the fee in GET /models.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { listLedger } from '../../src/repositories/credits.js';

const fixture = (vendor: string, name: string) =>
  readFileSync(new URL(`../fixtures/${vendor}/${name}`, import.meta.url), 'utf8');

// claude-sonnet-5-5 (USD per 1M: input 2, cache read 0.1, output 10; 0.01 USD a search). anthropic/web-search:
// 10,240 uncached + 2,048 cached in, 410 out: 20,480 + 204.8 + 4,100 = 24,784.8 → 24,784,800 nanos; + 2 searches.
const CLAUDE = { model: 'anthropic/claude-sonnet-5-5', searches: 2, cost: 24_784_800n + 2n * 10_000_000n };
// gpt-5.4 (input 2.5, output 15; 0.01 USD a call). openai/native-responses-web-search: 8,914 in, 512 out:
// 22,285 + 7,680 = 29,965 → 29,965,000 nanos; + 2 web_search_call items.
const GPT = { model: 'openai/gpt-5.4', searches: 2, cost: 29_965_000n + 2n * 10_000_000n };
// gemini-3.5-flash (input 1.5, output 9; 0.014 USD a query). gemini/google-search.json: 14 + 1,204 tool-use prompt
// tokens, 31 + 157 thinking out: 1,827 + 1,692 = 3,519 → 3,519,000 nanos; + 3 queries. The stream
// (google-search.chunks.txt): 112 in, 16 out: 168 + 144 = 312 → 312,000 nanos; + 2 queries.
const GEMINI_JSON = { model: 'google/gemini-3.5-flash', searches: 3, cost: 3_519_000n + 3n * 14_000_000n };
const GEMINI_STREAM = { model: 'google/gemini-3.5-flash', searches: 2, cost: 312_000n + 2n * 14_000_000n };
// gemini-2.5-flash (input 0.3, output 2.5; 0.035 USD a grounded prompt): 365.4 + 470 = 835.4 → 835,400; one prompt.
const GEMINI_25 = { model: 'google/gemini-2.5-flash', searches: 1, cost: 835_400n + 35_000_000n };

describeEachBackend('web search fees', (backend) => {
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
        GEMINI_API_KEY: 'AIzaUpstream0123456789',
        GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
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

  /** The generation's record, its debits, and what GET /generation says of it. */
  async function billed(user: { userId: string; key: string }, res: Response) {
    const id = res.headers.get('x-generation-id')!;
    await gw.settled();
    const row = await gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const debits = (await listLedger(gw.db, user.userId, 10))
      .filter((r) => r.kind === 'debit')
      .map((r) => -r.amount_nanos);
    const generation = (await (await gw.fetch(`/api/v1/generation?id=${id}`, { key: user.key })).json()).data;
    return { row, debits, generation };
  }

  async function expectBilled(
    user: { userId: string; key: string },
    res: Response,
    want: { model: string; searches: number; cost: bigint },
  ) {
    const { row, debits, generation } = await billed(user, res);
    expect(row).toMatchObject({ model: want.model, web_search_requests: want.searches, status: 'success' });
    expect(row.cost_nanos).toBe(want.cost);
    expect(debits).toEqual([want.cost]);
    expect(generation).toMatchObject({ web_search_requests: want.searches, total_cost: Number(want.cost) / 1e9 });
  }

  const messages = (
    key: string,
    stream: boolean,
    tools: unknown[] = [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }],
    maxTokens = 1024,
  ) =>
    gw.fetch('/api/v1/messages', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: CLAUDE.model,
        max_tokens: maxTokens,
        stream,
        tools,
        messages: [{ role: 'user', content: 'Who won Euro 2024?' }],
      }),
    });

  const responses = (key: string, model: string, stream: boolean) =>
    gw.fetch('/api/v1/responses', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        stream,
        input: 'Who won Euro 2024?',
        tools: [{ type: 'web_search' }],
        max_output_tokens: 2000,
      }),
    });

  const gemini = (key: string, model: string, stream: boolean) =>
    gw.fetch(`/api/v1/gemini/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'Who won Euro 2024?' }] }],
        tools: [{ googleSearch: {} }],
        generationConfig: { maxOutputTokens: 2000 },
      }),
    });

  it("native Messages lane, JSON: Anthropic's web_search_requests are charged at the catalog fee", async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: JSON.parse(fixture('anthropic', 'web-search.json')) });
    const res = await messages(user.key, false);
    expect(res.status).toBe(200);
    expect((await res.json()).usage.server_tool_use).toEqual({ web_search_requests: 2, web_fetch_requests: 0 });
    await expectBilled(user, res, CLAUDE);
  });

  it("native Messages lane, stream: message_delta's cumulative count is charged", async () => {
    const user = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic', 'web-search.chunks.txt')] });
    const res = await messages(user.key, true);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"web_search_requests":2');
    await expectBilled(user, res, CLAUDE);
  });

  it('native Responses lane, JSON and stream: each web_search_call item is charged', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: JSON.parse(fixture('openai', 'native-responses-web-search.json')) });
    const json = await responses(user.key, GPT.model, false);
    expect(json.status).toBe(200);
    expect((await json.json()).usage.cost).toBe(Number(GPT.cost) / 1e9);
    await expectBilled(user, json, GPT);

    const again = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('openai', 'native-responses-web-search.chunks.txt')] });
    const stream = await responses(again.key, GPT.model, true);
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain(`"cost":${Number(GPT.cost) / 1e9}`);
    await expectBilled(again, stream, GPT);
  });

  it('native Gemini lane: Gemini 3 is charged per grounding query, Gemini 2.5 per grounded prompt', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: JSON.parse(fixture('gemini', 'google-search.json')) });
    const json = await gemini(user.key, 'gemini-3.5-flash', false);
    expect(json.status).toBe(200);
    await json.json();
    await expectBilled(user, json, GEMINI_JSON);

    const streamed = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('gemini', 'google-search.chunks.txt')] });
    const stream = await gemini(streamed.key, 'gemini-3.5-flash', true);
    expect(stream.status).toBe(200);
    await stream.text();
    await expectBilled(streamed, stream, GEMINI_STREAM);

    const older = await funded();
    upstream.reply({ kind: 'json', body: JSON.parse(fixture('gemini', 'google-search.json')) });
    const prompt = await gemini(older.key, 'gemini-2.5-flash', false);
    expect(prompt.status).toBe(200);
    await prompt.json();
    await expectBilled(older, prompt, GEMINI_25);
  });

  it("translated lane: a Responses web_search served by Claude is charged Anthropic's searches, JSON and stream", async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: JSON.parse(fixture('anthropic', 'web-search.json')) });
    const json = await responses(user.key, CLAUDE.model, false);
    expect(json.status).toBe(200);
    expect(upstream.last.body.tools).toMatchObject([{ type: 'web_search_20250305', name: 'web_search' }]);
    const body = await json.json();
    expect(body.output.filter((item: { type: string }) => item.type === 'web_search_call')).toHaveLength(2);
    expect(body.usage.cost).toBe(Number(CLAUDE.cost) / 1e9);
    await expectBilled(user, json, CLAUDE);

    const again = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic', 'web-search.chunks.txt')] });
    const stream = await responses(again.key, CLAUDE.model, true);
    expect(stream.status).toBe(200);
    await stream.text();
    await expectBilled(again, stream, CLAUDE);
  });

  it("translated lane: a Messages web search served by Gemini reports its queries in Anthropic's server_tool_use", async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: JSON.parse(fixture('gemini', 'google-search.json')) });
    const res = await gw.fetch('/api/v1/messages', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: GEMINI_JSON.model,
        max_tokens: 2000,
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
        messages: [{ role: 'user', content: 'Who won Euro 2024?' }],
      }),
    });
    expect(res.status).toBe(200);
    expect(upstream.last.body.tools).toEqual([{ googleSearch: {} }]);
    expect((await res.json()).usage.server_tool_use).toEqual({ web_search_requests: 3 });
    await expectBilled(user, res, GEMINI_JSON);
  });

  it('reserves for the searches a request may run: max_uses × the fee, or 402 before any upstream call', async () => {
    // 0.02 USD: a 10-token Claude request fits, but not with three searches of 0.01 USD on top.
    const user = await funded(0.02);
    const refused = await messages(
      user.key,
      false,
      [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
      10,
    );
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toMatchObject({
      type: 'billing_error',
      message: expect.stringContaining('cap the web search tool'),
    });
    expect(upstream.requests).toHaveLength(0);
    upstream.reply({ kind: 'json', body: JSON.parse(fixture('anthropic', 'text.json')) });
    const plain = await messages(user.key, false, [], 10);
    expect(plain.status).toBe(200);
  });

  it("GET /models shows each model's fee as pricing.web_search, USD per request", async () => {
    const user = await gw.createUser();
    const list = (await (await gw.fetch('/api/v1/models', { key: user.key })).json()).data as {
      id: string;
      pricing: Record<string, string>;
    }[];
    const fee = (id: string) => list.find((m) => m.id === id)!.pricing.web_search;
    expect([fee(CLAUDE.model), fee(GPT.model), fee('google/gemini-3.5-flash'), fee('google/gemini-2.5-pro')]).toEqual([
      '0.01',
      '0.01',
      '0.014',
      '0.035',
    ]);
    expect(fee('deepseek/deepseek-v4-pro')).toBeUndefined();
  });
});
