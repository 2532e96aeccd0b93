// Vendors charge per use for the hosted tools the native lanes pass through, on top of the tokens; the gateway bills
// them at the catalog's price for each (docs/metering.md "Per-request tool fees"), from what the vendor's answer shows:
// OpenAI's file search calls and code interpreter containers (native Responses lane), Gemini's Google Maps grounded
// prompts (native Gemini lane), Anthropic's code execution containers (native Messages lane). Over HTTP: the generation
// record's cost and uses, the ledger's debit, GET /generation, the reservation the tools add, the fees in GET /models.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { listLedger } from '../../src/repositories/credits.js';
import type { ToolUses } from '../../src/core/tool-uses.js';

const fixture = (vendor: string, name: string) =>
  readFileSync(new URL(`../fixtures/${vendor}/${name}`, import.meta.url), 'utf8');
const json = (vendor: string, name: string) => JSON.parse(fixture(vendor, name));

interface Want {
  model: string;
  uses: ToolUses | null;
  cost: bigint;
}
// gpt-5.4 (USD per 1M: input 2.5, output 15; file search 0.0025 a call, code interpreter 0.03 a GB container).
// native-responses-file-search: 6,200 in, 300 out: 15,500,000 + 4,500,000 nanos; + 2 calls.
const FILE_SEARCH: Want = { model: 'openai/gpt-5.4', uses: { file_search: 2 }, cost: 20_000_000n + 2n * 2_500_000n };
// native-responses-code-interpreter: 3,100 in, 640 out: 7,750,000 + 9,600,000 nanos; + one 4 GB container.
const INTERPRETER_TOKENS = 7_750_000n + 9_600_000n;
const INTERPRETER: Want = {
  model: 'openai/gpt-5.4',
  uses: { code_interpreter: 4 },
  cost: INTERPRETER_TOKENS + 4n * 30_000_000n,
};
// claude-sonnet-5-5 (input 2, output 10; code execution 0.05 USD per container-hour). code-execution: 4,200 in, 350
// out: 8,400,000 + 3,500,000 nanos; + one container's 5 minutes, 50,000,000 / 12 rounded: 4,166,667.
const CODE_EXECUTION_TOKENS = 8_400_000n + 3_500_000n;
const CODE_EXECUTION: Want = {
  model: 'anthropic/claude-sonnet-5-5',
  uses: { code_execution: 1 },
  cost: CODE_EXECUTION_TOKENS + 4_166_667n,
};
// gemini-2.5-flash (input 0.3, output 2.5; Maps grounding 0.025 USD a grounded prompt). maps-grounding: 18 + 1,380
// tool-use prompt tokens, 42 + 96 thinking out: 419,400 + 345,000 nanos; + one grounded prompt.
const MAPS: Want = { model: 'google/gemini-2.5-flash', uses: { maps_grounding: 1 }, cost: 764_400n + 25_000_000n };

describeEachBackend('hosted tool fees', (backend) => {
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

  /** The generation's record, its debits and GET /generation match what the vendor charges. */
  async function expectBilled(user: { userId: string; key: string }, res: Response, want: Want) {
    const id = res.headers.get('x-generation-id')!;
    await gw.settled();
    const row = await gw.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const debits = (await listLedger(gw.db, user.userId, 10))
      .filter((r) => r.kind === 'debit')
      .map((r) => -r.amount_nanos);
    const generation = (await (await gw.fetch(`/api/v1/generation?id=${id}`, { key: user.key })).json()).data;
    expect(row).toMatchObject({ model: want.model, tool_uses: want.uses, status: 'success', usage_estimated: false });
    expect(row.cost_nanos).toBe(want.cost);
    expect(debits).toEqual([want.cost]);
    expect(generation).toMatchObject({ tool_uses: want.uses ?? {}, total_cost: Number(want.cost) / 1e9 });
  }

  const responses = (key: string, stream: boolean, tools: unknown[], input: unknown = 'What is our refund policy?') =>
    gw.fetch('/api/v1/responses', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-5.4', stream, input, tools, max_output_tokens: 2000 }),
    });
  const fileSearch = [
    { type: 'file_search', vector_store_ids: ['vs_6911a0c3b48193a4e6c8d0f2b4d6e8'], max_num_results: 5 },
  ];
  const interpreter = (container: unknown = { type: 'auto', memory_limit: '4g' }) => [
    { type: 'code_interpreter', container },
  ];

  const messages = (
    key: string,
    stream: boolean,
    tools: unknown[] = [{ type: 'code_execution_20250825', name: 'code_execution' }],
  ) =>
    gw.fetch('/api/v1/messages', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: CODE_EXECUTION.model,
        max_tokens: 1024,
        stream,
        tools,
        messages: [{ role: 'user', content: 'Mean and stdev of 3, 11, 14, 19, 23?' }],
      }),
    });

  const gemini = (key: string, stream: boolean) =>
    gw.fetch(
      `/api/v1/gemini/v1beta/models/gemini-2.5-flash:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
        body: JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'Italian restaurants open tonight within a 10-minute walk?' }] }],
          tools: [{ googleMaps: { enableWidget: true } }],
          toolConfig: { retrievalConfig: { latLng: { latitude: 41.8933, longitude: 12.4829 } } },
          generationConfig: { maxOutputTokens: 2000 },
        }),
      },
    );

  it('native Responses lane: each file_search_call is charged, JSON and stream', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-file-search.json') });
    const res = await responses(user.key, false, fileSearch);
    expect(res.status).toBe(200);
    expect(upstream.last.body.tools).toEqual(fileSearch);
    expect((await res.json()).usage.cost).toBe(Number(FILE_SEARCH.cost) / 1e9);
    await expectBilled(user, res, FILE_SEARCH);

    const again = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('openai', 'native-responses-file-search.chunks.txt')] });
    const stream = await responses(again.key, true, fileSearch);
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain(`"cost":${Number(FILE_SEARCH.cost) / 1e9}`);
    await expectBilled(again, stream, FILE_SEARCH);
  });

  it('native Responses lane: a code interpreter container is charged once, by its GB, JSON and stream', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-code-interpreter.json') });
    const res = await responses(user.key, false, interpreter());
    expect(res.status).toBe(200);
    await res.json();
    await expectBilled(user, res, INTERPRETER);

    const again = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('openai', 'native-responses-code-interpreter.chunks.txt')] });
    const stream = await responses(again.key, true, interpreter());
    expect(stream.status).toBe(200);
    await stream.text();
    await expectBilled(again, stream, INTERPRETER);
  });

  it('native Responses lane: a container the request names, or an earlier turn ran in, is not charged again', async () => {
    const body = json('openai', 'native-responses-code-interpreter.json');
    const container = body.output[1].container_id as string;
    const named = await funded();
    upstream.reply({ kind: 'json', body });
    const res = await responses(named.key, false, interpreter(container));
    expect(res.status).toBe(200);
    await res.json();
    await expectBilled(named, res, { model: INTERPRETER.model, uses: null, cost: INTERPRETER_TOKENS });

    const turn = await funded();
    upstream.reply({ kind: 'json', body });
    const earlier = {
      type: 'code_interpreter_call',
      id: 'ci_6911a0000000',
      status: 'completed',
      code: 'xs = [3, 11, 14, 19, 23]',
      container_id: container,
      outputs: null,
    };
    const input = [
      { role: 'user', content: 'Load the numbers.' },
      earlier,
      { role: 'user', content: 'Now the statistics?' },
    ];
    const next = await responses(turn.key, false, interpreter({ type: 'auto' }), input);
    expect(next.status).toBe(200);
    await next.json();
    await expectBilled(turn, next, { model: INTERPRETER.model, uses: null, cost: INTERPRETER_TOKENS });
  });

  it('native Gemini lane: a prompt grounded with Google Maps is charged once, JSON and stream', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: json('gemini', 'maps-grounding.json') });
    const res = await gemini(user.key, false);
    expect(res.status).toBe(200);
    expect(upstream.last.body.tools).toEqual([{ googleMaps: { enableWidget: true } }]);
    expect((await res.json()).candidates[0].groundingMetadata.groundingChunks[0].maps.title).toBe('Trattoria da Enzo');
    await expectBilled(user, res, MAPS);

    const again = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('gemini', 'maps-grounding.chunks.txt')] });
    const stream = await gemini(again.key, true);
    expect(stream.status).toBe(200);
    await stream.text();
    await expectBilled(again, stream, MAPS);
  });

  it('native Messages lane: a code execution container is charged 5 minutes, JSON and stream', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: json('anthropic', 'code-execution.json') });
    const res = await messages(user.key, false);
    expect(res.status).toBe(200);
    expect((await res.json()).container.id).toBe('container_011CVx7Fq2pLm9TnR4bYs8Wd');
    await expectBilled(user, res, CODE_EXECUTION);

    const again = await funded();
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic', 'code-execution.chunks.txt')] });
    const stream = await messages(again.key, true);
    expect(stream.status).toBe(200);
    await stream.text();
    await expectBilled(again, stream, CODE_EXECUTION);
  });

  it('native Messages lane: code execution is free with web search 20260209 (Anthropic charges only its tokens)', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: json('anthropic', 'code-execution.json') });
    const res = await messages(user.key, false, [
      { type: 'web_search_20260209', name: 'web_search' },
      { type: 'code_execution_20260120', name: 'code_execution' },
    ]);
    expect(res.status).toBe(200);
    await res.json();
    await expectBilled(user, res, { model: CODE_EXECUTION.model, uses: null, cost: CODE_EXECUTION_TOKENS });
  });

  it('reserves for the tools a request offers, or 402 before any upstream call', async () => {
    // 0.5 USD covers the tokens of a 2,000-token answer, not a 64 GB container (1.92 USD) on top.
    const user = await funded(0.5);
    const refused = await responses(user.key, false, interpreter({ type: 'auto', memory_limit: '64g' }));
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toMatchObject({
      code: 402,
      message: expect.stringContaining('offer fewer hosted tools'),
      metadata: { tool_uses_assumed: { code_interpreter: 64 } },
    });
    expect(upstream.requests).toHaveLength(0);
    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-code-interpreter.json') });
    const smaller = await responses(user.key, false, interpreter({ type: 'auto', memory_limit: '4g' }));
    expect(smaller.status).toBe(200);
  });

  it("GET /models shows each model's tool fees under their keys, USD per unit", async () => {
    const user = await gw.createUser();
    const list = (await (await gw.fetch('/api/v1/models', { key: user.key })).json()).data as {
      id: string;
      pricing: Record<string, string>;
    }[];
    const pricing = (id: string) => list.find((m) => m.id === id)!.pricing;
    expect(pricing('openai/gpt-5.4')).toMatchObject({ file_search: '0.0025', code_interpreter: '0.03' });
    expect(pricing('anthropic/claude-sonnet-5-5')).toMatchObject({ code_execution: '0.05' });
    expect(pricing('google/gemini-2.5-flash')).toMatchObject({ maps_grounding: '0.025' });
    expect(pricing('deepseek/deepseek-v4-pro')).not.toHaveProperty('file_search');
  });
});
