// A hosted tool the vendor bills in a way the gateway does not meter is left out of a native lane's request and named
// in x-modelgate-warning, as the translated lane names a tool its upstream cannot serve (providers/native/
// tool-gate.ts): OpenAI's image generation, a hosted shell and unknown types on /responses (in `tools` and in Codex's
// `additional_tools`), Anthropic's advisor, unknown types and `fallbacks` on /messages, unknown tool keys on the
// Gemini door. And the native chat lane, which leaves `web_search_options` out, reserves no search for it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

const fixture = (vendor: string, name: string) =>
  readFileSync(new URL(`../fixtures/${vendor}/${name}`, import.meta.url), 'utf8');
const json = (vendor: string, name: string) => JSON.parse(fixture(vendor, name));

describeEachBackend('native tool gate', (backend) => {
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

  const post = (path: string, key: string, body: Record<string, unknown>) =>
    gw.fetch(`/api/v1${path}`, {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    });
  const fn = {
    type: 'function',
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
    strict: false,
  };

  it('/responses: image generation, a hosted shell and an unknown type are left out and named; the rest reaches OpenAI', async () => {
    const user = await funded();
    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-reasoning.json') });
    const image = { type: 'image_generation', quality: 'high', size: '1536x1024' };
    const tools = [
      fn,
      image,
      { type: 'web_search' },
      { type: 'shell', environment: { type: 'container_auto' } },
      { type: 'shell', environment: { type: 'local' } },
      { type: 'hologram_render' },
    ];
    const res = await post('/responses', user.key, {
      model: 'openai/gpt-5.4',
      input: 'Draw our logo, then list the repo.',
      tools,
      max_output_tokens: 2000,
    });
    expect(res.status).toBe(200);
    expect(upstream.last.body.tools).toEqual([
      fn,
      { type: 'web_search' },
      { type: 'shell', environment: { type: 'local' } },
    ]);
    expect(res.headers.get('x-modelgate-warning')).toBe(
      'tool image_generation dropped: OpenAI bills each image by its size and quality, which its answer does not report to the gateway; ' +
        'tool shell dropped: a hosted shell creates a container OpenAI bills, which the gateway does not meter; ' +
        'tool hologram_render dropped: a hosted tool type the gateway does not know how OpenAI bills',
    );
    await res.json();
    await gw.settled();
    const row = await gw.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', res.headers.get('x-generation-id')!)
      .executeTakeFirstOrThrow();
    expect(row.tool_uses).toBeNull();
  });

  it('/responses: a Codex additional_tools item loses the tool, and the input goes otherwise as sent', async () => {
    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-reasoning.json') });
    const input = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Make an icon.' }] },
      { type: 'additional_tools', tools: [fn, { type: 'image_generation' }] },
    ];
    const res = await post('/responses', (await funded()).key, {
      model: 'openai/gpt-5.4',
      input,
      max_output_tokens: 2000,
    });
    expect(res.status).toBe(200);
    expect(upstream.last.body.input).toEqual([input[0], { type: 'additional_tools', tools: [fn] }]);
    expect(res.headers.get('x-modelgate-warning')).toMatch(/^tool image_generation dropped: /);
    // Nothing to leave out: the client's bytes go as they were.
    upstream.reply({ kind: 'json', body: json('openai', 'native-responses-reasoning.json') });
    const raw = `{"model":"openai/gpt-5.4","input":[{"type":"additional_tools","tools":[{"type":"web_search"}]},{"type":"message","role":"user","content":"Hi"}],"max_output_tokens":2000.0}`;
    const plain = await gw.fetch('/api/v1/responses', {
      method: 'POST',
      key: (await funded()).key,
      headers: { 'content-type': 'application/json' },
      body: raw,
    });
    expect(plain.status).toBe(200);
    expect(upstream.last.rawBody).toContain('"max_output_tokens":2000.0');
    expect(plain.headers.get('x-modelgate-warning')).toBeNull();
  });

  it('/messages: the advisor, an unknown type and fallbacks are left out and named; custom and server tools reach Anthropic', async () => {
    upstream.reply({ kind: 'json', body: json('anthropic', 'text.json') });
    const custom = {
      name: 'read_file',
      description: 'Read a file',
      input_schema: { type: 'object', properties: { path: { type: 'string' } } },
    };
    const fetchTool = { type: 'web_fetch_20250910', name: 'web_fetch', max_uses: 3 };
    const tools = [
      custom,
      fetchTool,
      { type: 'advisor_20260301', name: 'advisor', model: 'claude-opus-5-5' },
      { type: 'teleport_20270101', name: 'teleport' },
    ];
    const res = await post('/messages', (await funded()).key, {
      model: 'anthropic/claude-sonnet-5-5',
      max_tokens: 1024,
      tools,
      fallbacks: [{ model: 'claude-opus-5-5' }],
      messages: [{ role: 'user', content: 'Summarise https://example.com' }],
    });
    expect(res.status).toBe(200);
    expect(upstream.last.body.tools).toEqual([custom, fetchTool]);
    expect(upstream.last.body).not.toHaveProperty('fallbacks');
    expect(res.headers.get('x-modelgate-warning')).toBe(
      'tool advisor_20260301 dropped: the advisor runs another model, which Anthropic bills at its own prices and the gateway does not meter; ' +
        'tool teleport_20270101 dropped: a hosted tool type the gateway does not know how Anthropic bills; ' +
        'fallbacks left out: a fallback model is billed at its own price, which the gateway does not meter; name fallback models in `models`',
    );
  });

  it('Gemini door: an unknown tool key is left out and named; Google Search and functions reach Google', async () => {
    upstream.reply({ kind: 'json', body: json('gemini', 'text.json') });
    const res = await gw.fetch('/api/v1/gemini/v1beta/models/gemini-3.5-flash:generateContent', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': (await funded()).key },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'Who won Euro 2024?' }] }],
        tools: [
          { googleSearch: {}, enterpriseWebSearch: {} },
          { functionDeclarations: [{ name: 'lookup' }] },
          { quantumOracle: {} },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect(upstream.last.body.tools).toEqual([{ googleSearch: {} }, { functionDeclarations: [{ name: 'lookup' }] }]);
    expect(res.headers.get('x-modelgate-warning')).toBe(
      'tool enterpriseWebSearch dropped: a hosted tool type the gateway does not know how Google bills; ' +
        'tool quantumOracle dropped: a hosted tool type the gateway does not know how Google bills',
    );
  });

  it('chat: the native lane, which leaves web_search_options out, reserves no search; the translated lane still does', async () => {
    // 0.05 USD: 100 output tokens fit, 10 searches of 0.01 USD do not.
    const user = await funded(0.05);
    const body = {
      messages: [{ role: 'user', content: 'What changed in Node 24?' }],
      max_tokens: 100,
      stream: false,
      web_search_options: {},
    };
    upstream.reply({ kind: 'json', body: json('openai', 'text.json') });
    const native = await post('/chat/completions', user.key, { ...body, model: 'openai/gpt-5.4' });
    expect(native.status).toBe(200);
    expect(upstream.last.body).not.toHaveProperty('web_search_options');
    expect(native.headers.get('x-modelgate-warning')).toMatch(/^web_search_options left out/);
    // To Claude it becomes Anthropic's web search, which may run 10 searches.
    const translated = await post('/chat/completions', user.key, { ...body, model: 'anthropic/claude-sonnet-5-5' });
    expect(translated.status).toBe(402);
    expect((await translated.json()).error.message).toContain('cap the web search tool');
    expect(upstream.requests).toHaveLength(1);
  });
});
