// The Gemini front door (POST /gemini/v1beta/models/{model}:generateContent, :streamGenerateContent, :countTokens,
// GET /gemini/v1beta/models) in front of a Gemini model and a Claude model, both served by one local mock: plain and
// tool turns, JSON, SSE and the JSON-array stream, Google's auth and error shapes, records and billing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';
import { grantPass } from '../../src/services/pass.js';

let gw: TestGateway;
let upstream: MockUpstream;
let user: { userId: string; key: string };

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const BASE = '/api/v1/gemini/v1beta/models';

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      GEMINI_API_KEY: 'AIzaUpstream',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: upstream.url,
      PASS_API_KEY: 'sk-pass',
      PASS_BASE_URL: `${upstream.url}/pass/v1`,
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

function post(path: string, body: unknown, headers: Record<string, string> = { 'x-goog-api-key': user.key }) {
  return gw.fetch(`${BASE}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** SSE data lines exactly as the Gen AI SDK's parser reads them: `data: <json>` blocks, nothing else. */
function sseChunks(text: string): any[] {
  const blocks = text.split('\n\n').filter((block) => block.trim() !== '');
  for (const block of blocks) expect(block.trimStart()).toMatch(/^data: [^\n]*$/);
  return blocks.map((block) => JSON.parse(block.trimStart().slice('data: '.length)));
}

const readFile = {
  functionDeclarations: [
    {
      name: 'read_file',
      description: 'Reads a file',
      parametersJsonSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
    },
  ],
};
const ask = { contents: [{ role: 'user', parts: [{ text: 'Read readme.txt' }] }], tools: [readFile] };

describe('a Gemini model through the Gemini door', () => {
  it('generateContent: a bare name reaches the google/ model with the operator key; the answer is a GenerateContentResponse', async () => {
    upstream.reply({ kind: 'json', body: loadJson('gemini', 'text') });
    const res = await post('gemini-2.5-flash:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0.5, maxOutputTokens: 100 },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(upstream.last.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(upstream.last.headers['x-goog-api-key']).toBe('AIzaUpstream');
    expect(upstream.last.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0.5, maxOutputTokens: 100 },
    });
    expect(body).toMatchObject({
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Hello! How can I help you today?' }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 9, totalTokenCount: 17 },
      modelVersion: 'google/gemini-2.5-flash',
    });
    expect(body.responseId).toBe(res.headers.get('x-generation-id'));
    const row = await gw.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', body.responseId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ api_format: 'gemini', model: 'google/gemini-2.5-flash', status: 'success' });
  });

  it('streamGenerateContent?alt=sse: data-only chunks, a signed function call, the last chunk with finishReason and usage', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('gemini/tool-call-gemini3.chunks.txt')] });
    const res = await post('gemini-3.1-pro-preview:streamGenerateContent?alt=sse', ask);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(upstream.last.path).toBe('/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent?alt=sse');
    // The native lane: Google gets the client's bytes as they came (parametersJsonSchema and all).
    expect(upstream.last.rawBody).toBe(JSON.stringify(ask));
    const chunks = sseChunks(await res.text());
    const parts = chunks.flatMap((chunk) => chunk.candidates[0].content.parts);
    const call = parts.find((part) => part.functionCall);
    // Google's chunk as Google sent it: its call has no id (the native lane adds nothing).
    expect(call.functionCall).toEqual({ name: 'get_weather', args: { city: 'Oslo', unit: 'celsius' } });
    expect(call.thoughtSignature).toMatch(/^EpQCCpEC/);
    const last = chunks[chunks.length - 1];
    expect(last.candidates[0].finishReason).toBe('STOP');
    // Google's own usageMetadata, and the generation is metered from it: thinking is billed as output.
    expect(last.usageMetadata).toMatchObject({
      promptTokenCount: 61,
      candidatesTokenCount: 18,
      thoughtsTokenCount: 154,
      totalTokenCount: 233,
    });
    const row = await gw.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', res.headers.get('x-generation-id')!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      api_format: 'gemini',
      status: 'success',
      prompt_tokens: 61,
      completion_tokens: 172,
      reasoning_tokens: 154,
    });

    // The tool turn: the call comes back with its signature and id, the response by id.
    upstream.reply({ kind: 'sse', chunks: [fixture('gemini/text.chunks.txt')] });
    const turn = {
      ...ask,
      contents: [
        ...ask.contents,
        { role: 'model', parts: [{ functionCall: call.functionCall, thoughtSignature: call.thoughtSignature }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '12 C' } } }] },
      ],
    };
    const next = await post('gemini-3.1-pro-preview:streamGenerateContent?alt=sse', turn);
    expect(next.status).toBe(200);
    await next.text();
    expect(upstream.last.rawBody).toBe(JSON.stringify(turn));
  });

  it('native lane: what only Google knows (googleSearch, code execution parts, cachedContent, safetySettings, new fields) reaches it as sent', async () => {
    upstream.reply({ kind: 'json', body: loadJson('gemini', 'text') });
    const body = {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Search and compute' },
            {
              fileData: {
                mimeType: 'application/pdf',
                fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc',
              },
            },
          ],
        },
        {
          role: 'model',
          parts: [
            { executableCode: { language: 'PYTHON', code: 'print(1)' } },
            { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } },
          ],
        },
        { role: 'user', parts: [{ text: 'and?' }] },
      ],
      tools: [{ googleSearch: {} }, { codeExecution: {} }],
      cachedContent: 'cachedContents/xyz',
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      generationConfig: { responseModalities: ['TEXT'], mediaResolution: 'MEDIA_RESOLUTION_LOW' },
      labels: { team: 'a' },
    };
    const res = await post('gemini-2.5-flash:generateContent', body);
    expect(res.status).toBe(200);
    expect(upstream.last.rawBody).toBe(JSON.stringify(body));
    const answer = await res.json();
    // Google's body as sent, only the gateway's identity in it.
    expect(answer).toEqual({
      ...(loadJson('gemini', 'text') as object),
      modelVersion: 'google/gemini-2.5-flash',
      responseId: res.headers.get('x-generation-id'),
    });
  });

  it('streamGenerateContent without alt: one JSON array, sent as the chunks come', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('gemini/text.chunks.txt')] });
    const res = await post('gemini-2.5-flash:streamGenerateContent', { contents: [{ parts: [{ text: 'Hi' }] }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    expect(text.startsWith('[')).toBe(true);
    const chunks = JSON.parse(text) as any[];
    expect(chunks.length).toBeGreaterThan(1);
    expect(
      chunks.map((c) => c.candidates[0].content.parts.map((p: { text: string }) => p.text).join('')).join(''),
    ).toBe('Hello! How can I help you today? é世😀');
    expect(chunks[chunks.length - 1].candidates[0].finishReason).toBe('STOP');
  });
});

describe('a Claude model through the Gemini door', () => {
  it('a gateway id with its slash in the path; tools, thinking and the tool turn translate both ways', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/thinking-tool-use.chunks.txt')] });
    const res = await post('anthropic/claude-sonnet-5-5:streamGenerateContent?alt=sse', {
      ...ask,
      generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 }, maxOutputTokens: 4096 },
    });
    expect(res.status).toBe(200);
    expect(upstream.last.path).toBe('/v1/messages');
    expect(upstream.last.headers['x-api-key']).toBe('sk-ant-upstream');
    expect(upstream.last.body).toMatchObject({
      model: 'claude-sonnet-5-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [
        {
          name: 'read_file',
          description: 'Reads a file',
          input_schema: readFile.functionDeclarations[0].parametersJsonSchema,
        },
      ],
      messages: [{ role: 'user', content: 'Read readme.txt' }],
    });
    const chunks = sseChunks(await res.text());
    const parts = chunks.flatMap((chunk) => chunk.candidates[0].content.parts);
    expect(
      parts
        .filter((p) => p.thought)
        .map((p) => p.text)
        .join(''),
    ).toBe('The user wants the weather in Paris. I should call get_weather.');
    const call = parts.find((part) => part.functionCall);
    expect(call.functionCall).toEqual({
      id: 'toolu_01CswdEQBMshySk6Y9DFKrfq',
      name: 'get_weather',
      args: { location: 'Paris' },
    });
    // Claude's thinking and redacted thinking ride on the call, which Gemini CLI replays.
    expect(call.thoughtSignature).toMatch(/^mg\.gs1\./);
    expect(chunks[chunks.length - 1].candidates[0].finishReason).toBe('STOP');

    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const next = await post('anthropic/claude-sonnet-5-5:generateContent', {
      ...ask,
      contents: [
        ...ask.contents,
        { role: 'model', parts: [{ functionCall: call.functionCall, thoughtSignature: call.thoughtSignature }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: call.functionCall.id, name: 'get_weather', response: { output: 'Sunny' } } },
          ],
        },
      ],
    });
    expect(next.status).toBe(200);
    const answer = await next.json();
    expect(answer.candidates[0].content.parts[0].text).toBeTruthy();
    expect(upstream.last.body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            thinking: 'The user wants the weather in Paris. I should call get_weather.',
            signature: expect.stringMatching(/^BDaL4V/),
          },
          { type: 'redacted_thinking', data: expect.stringMatching(/^EmwKAh/) },
          { type: 'tool_use', id: 'toolu_01CswdEQBMshySk6Y9DFKrfq', name: 'get_weather', input: { location: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_01CswdEQBMshySk6Y9DFKrfq', content: 'Sunny' }],
      },
    ]);
  });
});

describe('Google Search through the Gemini door', () => {
  it('googleSearch is the web search: Claude gets its web search tool; a tool a vendor lacks is left out with a warning', async () => {
    upstream.reply({ kind: 'json', body: loadJson('anthropic', 'text') });
    const res = await post('anthropic/claude-sonnet-5-5:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'Search the web for modelgate' }] }],
      tools: [{ googleSearch: {} }, { codeExecution: {} }],
      generationConfig: { temperature: 0, topP: 1 },
    });
    expect(res.status).toBe(200);
    expect(upstream.last.body.tools).toEqual([
      expect.objectContaining({ type: 'web_search_20250305', name: 'web_search' }),
    ]);
    expect(res.headers.get('x-modelgate-warning')).toMatch(/code ?execution/i);
  });
});

describe('auth, errors and discovery', () => {
  const hi = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

  it("takes the key as x-goog-api-key, ?key= or Bearer; without one, 401 in Google's shape", async () => {
    upstream.always({ kind: 'json', body: loadJson('gemini', 'text') });
    expect((await post('gemini-2.5-flash:generateContent', hi)).status).toBe(200);
    expect((await post(`gemini-2.5-flash:generateContent?key=${user.key}`, hi, {})).status).toBe(200);
    expect((await post('gemini-2.5-flash:generateContent', hi, { authorization: `Bearer ${user.key}` })).status).toBe(
      200,
    );
    const none = await post('gemini-2.5-flash:generateContent', hi, {});
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({
      error: { code: 401, status: 'UNAUTHENTICATED', message: expect.stringContaining('x-goog-api-key') },
    });
    const wrong = await post('gemini-2.5-flash:generateContent', hi, { 'x-goog-api-key': 'mg-v1-not-a-key' });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.status).toBe('UNAUTHENTICATED');
    // The client's key never goes upstream.
    for (const request of upstream.requests) expect(JSON.stringify(request.headers)).not.toContain(user.key);
  });

  it('an unknown model is 404 NOT_FOUND; a bad body 400 INVALID_ARGUMENT; no credits 402', async () => {
    const unknown = await post('gemini-9-ultra:generateContent', hi);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: { code: 404, status: 'NOT_FOUND', message: expect.stringContaining('google/gemini-9-ultra') },
    });
    const empty = await post('gemini-2.5-flash:generateContent', { contents: [] });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    const poor = await gw.createUser();
    const broke = await post('gemini-2.5-flash:generateContent', hi, { 'x-goog-api-key': poor.key });
    expect(broke.status).toBe(402);
    expect((await broke.json()).error).toMatchObject({ code: 402, status: 'FAILED_PRECONDITION' });
    expect(upstream.requests).toHaveLength(0);
  });

  it("403 PERMISSION_DENIED for a pass/ model without a subscription; 429 RESOURCE_EXHAUSTED with Retry-After past the key's rate", async () => {
    const pass = await post('pass/glm-5.2:generateContent', hi);
    expect(pass.status).toBe(403);
    expect((await pass.json()).error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
    const limited = await gw.createUser();
    await gw.grant(limited.userId, 1);
    await gw.db.updateTable('api_keys').set({ rate_limit_rpm: 1 }).where('id', '=', limited.keyId).execute();
    upstream.always({ kind: 'json', body: loadJson('gemini', 'text') });
    expect((await post('gemini-2.5-flash:generateContent', hi, { 'x-goog-api-key': limited.key })).status).toBe(200);
    const second = await post('gemini-2.5-flash:generateContent', hi, { 'x-goog-api-key': limited.key });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await second.json()).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
  });

  it('a pass/ model with a subscription is served under the pass: no credits spent, recorded as pass', async () => {
    const subscriber = await gw.createUser();
    await grantPass(gw.db, subscriber.userId, 1, new Date());
    upstream.reply({
      kind: 'json',
      body: {
        id: 'chatcmpl-p',
        object: 'chat.completion',
        created: 1,
        model: 'glm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'pass ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
      },
    });
    const res = await post('pass/glm-5.2:generateContent', hi, { 'x-goog-api-key': subscriber.key });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.candidates[0].content.parts).toEqual([{ text: 'pass ok' }]);
    expect(upstream.last.path).toBe('/pass/v1/chat/completions');
    const row = await gw.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', body.responseId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ api_format: 'gemini', access_mode: 'pass', model: 'pass/glm-5.2', status: 'success' });
  });

  it("countTokens counts the prompt; models lists the catalog in Google's shape, paged", async () => {
    const count = await post('gemini-2.5-flash:countTokens', hi);
    expect(count.status).toBe(200);
    expect((await count.json()).totalTokens).toBeGreaterThan(0);
    const first = await gw.fetch(`${BASE}?pageSize=2`, { headers: { 'x-goog-api-key': user.key } });
    const page = await first.json();
    expect(page.models).toHaveLength(2);
    expect(page.models[0].supportedGenerationMethods).toEqual([
      'generateContent',
      'streamGenerateContent',
      'countTokens',
    ]);
    const rest = await (
      await gw.fetch(`${BASE}?pageSize=1000&pageToken=${page.nextPageToken}`, {
        headers: { 'x-goog-api-key': user.key },
      })
    ).json();
    const names = [...page.models, ...rest.models].map((m: { name: string }) => m.name);
    expect(names).toContain('models/gemini-3.5-flash');
    expect(names).toContain('models/anthropic/claude-sonnet-5-5');
    expect(names).not.toContain('models/gemini-embedding-001');
    const one = await gw.fetch(`${BASE}/anthropic/claude-sonnet-5-5`, { headers: { 'x-goog-api-key': user.key } });
    expect(await one.json()).toMatchObject({
      name: 'models/anthropic/claude-sonnet-5-5',
      version: 'anthropic/claude-sonnet-5-5',
    });
  });
});
