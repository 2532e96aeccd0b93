// What keys the response cache: the request as the pipeline routes and prices it. The Gemini door's model is in the
// path, not the body: the same body to another model is another request (never a hit of the first model's answer,
// never a 403 for a model the key did not ask for). A property over the five cached doors: two requests that differ in
// any routing or pricing input (model, fallback models, provider preferences, reasoning, tools, service tier, output
// cap, protocol and gateway option headers, the answer's form) never share an entry, and identical ones do.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse, type RecordedRequest, type Reply } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';
import { readFileSync } from 'node:fs';
import { DOORS, reordered, singleChanges, specPair, type DoorRequest } from '../helpers/cached-door-requests.js';

const chunks = (vendor: string, name: string) =>
  readFileSync(new URL(`../fixtures/${vendor}/${name}.chunks.txt`, import.meta.url), 'utf8');

let gw: TestGateway;
let upstream: MockUpstream;
let user: Awaited<ReturnType<TestGateway['createUser']>>;

/** Every vendor's answer, by the path the gateway called (native lanes and translated ones). */
function vendorReply(request: RecordedRequest): Reply {
  const body = request.body as { stream?: boolean; input?: unknown };
  if (request.path.includes(':streamGenerateContent')) return { kind: 'sse', chunks: [chunks('gemini', 'text')] };
  if (request.path.includes(':generateContent')) return { kind: 'json', body: loadJson('gemini', 'text') };
  if (request.path.endsWith('/messages'))
    return body.stream
      ? { kind: 'sse', chunks: [chunks('anthropic', 'text')] }
      : { kind: 'json', body: loadJson('anthropic', 'text') };
  if (request.path.endsWith('/responses')) {
    return body.stream
      ? { kind: 'sse', chunks: [chunks('openai', 'native-responses-text')] }
      : { kind: 'json', body: loadJson('openai', 'native-responses-reasoning') };
  }
  if (request.path.endsWith('/embeddings')) {
    return {
      kind: 'json',
      body: {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.5, -0.25] }],
        usage: { prompt_tokens: 3, total_tokens: 3 },
      },
    };
  }
  if (body.stream)
    return {
      kind: 'sse',
      chunks: openAiSse([
        {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [{ index: 0, delta: { role: 'assistant', content: 'streamed' }, finish_reason: null }],
        },
        {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        },
        {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        },
      ]),
    };
  return { kind: 'json', body: loadJson('openai', 'text') };
}

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      DEEPSEEK_API_KEY: 'sk-up',
      DEEPSEEK_BASE_URL: `${upstream.url}/v1`,
      GEMINI_API_KEY: 'AIzaUpstream',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
      MODELGATE_RESPONSE_CACHE_PRICE_FRACTION: '0.5',
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 100);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  upstream.always(vendorReply);
});

function send(request: DoorRequest, key = user.key, bodyText = JSON.stringify(request.body)): Promise<Response> {
  return gw.fetch(`/api/v1${request.path}`, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', 'x-modelgate-cache': 'on', ...request.headers },
    body: bodyText,
  });
}

async function cacheState(res: Response): Promise<string | null> {
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(200);
  return res.headers.get('x-modelgate-cache');
}

async function record(res: Response) {
  return (
    await (await gw.fetch(`/api/v1/generation?id=${res.headers.get('x-generation-id')}`, { key: user.key })).json()
  ).data;
}

describe('the Gemini door', () => {
  const gemini = (model: string, text: string): DoorRequest => ({
    path: `/gemini/v1beta/models/${model}:generateContent`,
    body: { contents: [{ role: 'user', parts: [{ text }] }] },
    headers: {},
  });

  it('keys on the model in the path: the same body to another model is a miss served and priced by that model', async () => {
    expect(await cacheState(await send(gemini('gemini-2.5-flash', 'same body')))).toBe('miss');
    for (const model of ['gemini-3.1-pro-preview', 'anthropic%2Fclaude-opus-5-5']) {
      const res = await send(gemini(model, 'same body'));
      expect(res.headers.get('x-modelgate-cache'), model).toBe('miss');
      await res.text();
      expect(await record(res)).toMatchObject({
        model: decodeURIComponent(model).replace(/^gemini/, 'google/gemini'),
        cache_hit: false,
      });
    }
    expect(upstream.requests.map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-2.5-flash:generateContent',
      '/v1beta/models/gemini-3.1-pro-preview:generateContent',
      '/v1/messages',
    ]);
    // Each model's own answer is a hit of its own, charged half its own price.
    const flash = await send(gemini('gemini-2.5-flash', 'same body'));
    const pro = await send(gemini('gemini-3.1-pro-preview', 'same body'));
    expect([flash.headers.get('x-modelgate-cache'), pro.headers.get('x-modelgate-cache')]).toEqual(['hit', 'hit']);
    await Promise.all([flash.text(), pro.text()]);
    const [flashHit, proHit] = [await record(flash), await record(pro)];
    expect(flashHit).toMatchObject({ model: 'google/gemini-2.5-flash', cache_hit: true });
    expect(proHit).toMatchObject({ model: 'google/gemini-3.1-pro-preview', cache_hit: true });
    expect(proHit.total_cost).toBeGreaterThan(flashHit.total_cost);
  });

  it("a key allowed one model is served that model, never refused for another model's entry", async () => {
    const token = await gw.createToken(user.userId);
    const created = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pro-only', allowed_models: ['google/gemini-3.1-pro-preview'] }),
    });
    const { key } = await created.json();
    expect(await cacheState(await send(gemini('gemini-2.5-flash', 'allow-list body')))).toBe('miss');
    const res = await send(gemini('gemini-3.1-pro-preview', 'allow-list body'), key);
    expect(await cacheState(res)).toBe('miss');
    expect(upstream.last.path).toBe('/v1beta/models/gemini-3.1-pro-preview:generateContent');
  });
});

describe('every cached door', () => {
  let nonce = 0;
  for (const door of DOORS) {
    it(`${door.name}: requests that differ in a routing or pricing input never share an entry; identical ones do`, async () => {
      // Every single-input change first (fast-check counts examples in numRuns), then random pairs.
      const examples = singleChanges(door).map((pair): [[Record<string, unknown>, Record<string, unknown>]] => [pair]);
      await fc.assert(
        fc.asyncProperty(specPair(door), async ([a, b]) => {
          const prompt = `${door.name} property ${++nonce}`;
          const first = door.build(a, prompt);
          const second = door.build(b, prompt);
          const identical = JSON.stringify(a) === JSON.stringify(b);
          expect(await cacheState(await send(first))).toBe('miss');
          // Key order never matters: the second is sent with every object's keys reversed.
          expect(
            await cacheState(await send(second, user.key, JSON.stringify(reordered(second.body)))),
            JSON.stringify({ a, b }),
          ).toBe(identical ? 'hit' : 'miss');
          expect(await cacheState(await send(first))).toBe('hit');
          expect(await cacheState(await send(second))).toBe('hit');
        }),
        { numRuns: examples.length + 10, examples },
      );
    });
  }
});
