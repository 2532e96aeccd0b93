// Rate-limit headers as each door's clients read them (docs/rate-limits.md): every door keeps OpenRouter's
// X-RateLimit-*; the OpenAI doors (chat completions, Responses, embeddings) add x-ratelimit-*-requests/-tokens with
// durations and, on a 429, retry-after-ms; the Anthropic door (Messages, count_tokens) adds anthropic-ratelimit-*
// with RFC 3339 times; the Gemini door adds nothing. On an admitted request (both lanes, streamed or not, a cache
// hit) and on the 429 of the key's requests per minute, which always has Retry-After.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApiKeyLimits } from '../../src/repositories/api-keys.js';
import { MemoryCacheStore } from '../../src/pipeline/response-cache/memory-store.js';
import { ResponseCache } from '../../src/pipeline/response-cache/response-cache.js';
import { createLogger } from '../../src/logger.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, type RecordedRequest, type Reply } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

const chunks = (vendor: string, name: string) =>
  readFileSync(new URL(`../fixtures/${vendor}/${name}.chunks.txt`, import.meta.url), 'utf8');

function vendorReply(request: RecordedRequest): Reply {
  const { path, body } = request;
  if (path.endsWith('/chat/completions'))
    return body?.stream
      ? { kind: 'sse', chunks: [chunks('openai', 'text')] }
      : { kind: 'json', body: loadJson('openai', 'text') };
  if (path.endsWith('/responses')) return { kind: 'json', body: loadJson('openai', 'native-responses-reasoning') };
  if (path.endsWith('/messages')) return { kind: 'json', body: loadJson('anthropic', 'text') };
  if (path.endsWith('/embeddings')) return { kind: 'json', body: loadJson('openai', 'embeddings-float') };
  if (path.endsWith(':generateContent')) return { kind: 'json', body: loadJson('gemini', 'text') };
  // Token counting upstream is not scripted: the gateway answers its own estimate.
  return { kind: 'text', status: 404, body: `no reply for ${path}` };
}

let gw: TestGateway;
let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-openai-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-up',
      ANTHROPIC_BASE_URL: upstream.url,
      GEMINI_API_KEY: 'AIzaUp',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
    },
    overrides: {
      responseCache: new ResponseCache(
        new MemoryCacheStore(8 * 1024 * 1024, 1024 * 1024),
        { maxEntryBytes: 1024 * 1024, priceFractionPpm: 0 },
        createLogger('silent'),
      ),
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  upstream.always(vendorReply);
});

const RPM = 2;
const TPM = 100_000;
/** Go's duration text as OpenAI writes it: 30s, 59.5s, 1m0s, 20ms. */
const DURATION = /^(\d+h)?(\d+m)?\d+(\.\d+)?s$|^\d+ms$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** A funded key of its own with RPM requests and TPM tokens per minute. */
async function limitedKey(): Promise<string> {
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  await setApiKeyLimits(gw.db, user.keyId, { rate_limit_rpm: RPM, rate_limit_tpm: TPM });
  return user.key;
}

const json = { 'content-type': 'application/json' };
const hello = [{ role: 'user', content: 'hi' }];
const post = (path: string, headers: Record<string, string>, body: object) =>
  gw.fetch(`/api/v1${path}`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

type Family = 'openai' | 'anthropic' | 'openrouter';

interface DoorCase {
  name: string;
  family: Family;
  send(key: string): Promise<Response>;
}

const chat =
  (model: string, stream: boolean, extra: Record<string, string> = {}) =>
  (key: string) =>
    post('/chat/completions', { ...bearer(key), ...extra }, { model, stream, messages: hello });
const gemini = (operation: string) => (key: string) =>
  post(
    `/gemini/v1beta/models/gemini-2.5-flash:${operation}`,
    { 'x-goog-api-key': key },
    {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    },
  );

const CASES: DoorCase[] = [
  { name: 'chat completions, native lane', family: 'openai', send: chat('openai/gpt-5.4-mini', false) },
  { name: 'chat completions, native lane, streamed', family: 'openai', send: chat('openai/gpt-5.4-mini', true) },
  { name: 'chat completions, translated lane', family: 'openai', send: chat('anthropic/claude-haiku-5-5', false) },
  {
    name: 'Responses, native lane',
    family: 'openai',
    send: (key) => post('/responses', bearer(key), { model: 'openai/gpt-5.4-mini', input: 'hi', stream: false }),
  },
  {
    name: 'embeddings',
    family: 'openai',
    send: (key) => post('/embeddings', bearer(key), { model: 'openai/text-embedding-3-small', input: ['one', 'two'] }),
  },
  {
    name: 'Messages, native lane',
    family: 'anthropic',
    send: (key) =>
      post('/messages', { 'x-api-key': key }, { model: 'claude-haiku-5-5', max_tokens: 64, messages: hello }),
  },
  {
    name: 'Messages, translated lane',
    family: 'anthropic',
    send: (key) =>
      post('/messages', { 'x-api-key': key }, { model: 'openai/gpt-5.4-mini', max_tokens: 64, messages: hello }),
  },
  {
    name: 'Messages count_tokens',
    family: 'anthropic',
    send: (key) =>
      post('/messages/count_tokens', { 'x-api-key': key }, { model: 'openai/gpt-5.4-mini', messages: hello }),
  },
  { name: 'Gemini generateContent', family: 'openrouter', send: gemini('generateContent') },
  { name: 'Gemini countTokens', family: 'openrouter', send: gemini('countTokens') },
];

const OPENAI_NAMES = ['requests', 'tokens'].flatMap((f) =>
  ['limit', 'remaining', 'reset'].map((p) => `x-ratelimit-${p}-${f}`),
);
const ANTHROPIC_NAMES = ['requests', 'tokens', 'input-tokens', 'output-tokens'].flatMap((f) =>
  ['limit', 'remaining', 'reset'].map((p) => `anthropic-ratelimit-${f}-${p}`),
);

function namesOf(res: Response, names: string[]): string[] {
  return names.filter((name) => res.headers.has(name));
}

/** The door's own family, with the request bucket read as `remaining`; no other door's. */
function expectFamily(res: Response, family: Family, remaining: number): void {
  const h = (name: string) => res.headers.get(name);
  const now = Date.now();
  expect([h('x-ratelimit-limit'), h('x-ratelimit-remaining')]).toEqual([String(RPM), String(remaining)]);
  expect(Number(h('x-ratelimit-reset'))).toBeGreaterThan(now - 5_000);
  expect(Number(h('x-ratelimit-reset'))).toBeLessThanOrEqual(now + 60_000);
  if (family === 'openai') {
    expect(namesOf(res, OPENAI_NAMES)).toEqual(OPENAI_NAMES);
    expect([h('x-ratelimit-limit-requests'), h('x-ratelimit-remaining-requests')]).toEqual([
      String(RPM),
      String(remaining),
    ]);
    expect(h('x-ratelimit-limit-tokens')).toBe(String(TPM));
    expect(h('x-ratelimit-remaining-tokens')).toMatch(/^\d+$/);
    expect(Number(h('x-ratelimit-remaining-tokens'))).toBeLessThanOrEqual(TPM);
    expect(h('x-ratelimit-reset-requests')).toMatch(DURATION);
    expect(h('x-ratelimit-reset-tokens')).toMatch(DURATION);
  } else expect(namesOf(res, OPENAI_NAMES)).toEqual([]);
  if (family === 'anthropic') {
    // Only the requests and tokens families: the gateway has no separate input or output token limits.
    expect(namesOf(res, ANTHROPIC_NAMES)).toEqual(ANTHROPIC_NAMES.slice(0, 6));
    expect([h('anthropic-ratelimit-requests-limit'), h('anthropic-ratelimit-requests-remaining')]).toEqual([
      String(RPM),
      String(remaining),
    ]);
    expect(h('anthropic-ratelimit-tokens-limit')).toBe(String(TPM));
    for (const reset of ['anthropic-ratelimit-requests-reset', 'anthropic-ratelimit-tokens-reset']) {
      expect(h(reset)).toMatch(RFC3339);
      expect(Date.parse(h(reset)!)).toBeLessThanOrEqual(now + 61_000);
    }
  } else expect(namesOf(res, ANTHROPIC_NAMES)).toEqual([]);
}

describe("each door sends the key's rate state in its clients' headers", () => {
  it.each(CASES)('$name: on admitted requests, and on the 429 with Retry-After', async ({ family, send }) => {
    const key = await limitedKey();
    const first = await send(key);
    const text = await first.text();
    expect(first.status, text).toBe(200);
    expectFamily(first, family, RPM - 1);
    if (family === 'openai') {
      // One of two requests taken: the bucket is full again in half a minute; the prompt's tokens are taken too.
      expect(first.headers.get('x-ratelimit-reset-requests')).toBe('30s');
      expect(Number(first.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(TPM);
    }
    await (await send(key)).text();
    const limited = await send(key);
    const body = await limited.text();
    expect(limited.status, body).toBe(429);
    expectFamily(limited, family, 0);
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    const retryAfterMs = limited.headers.get('retry-after-ms');
    if (family === 'openai') {
      expect(retryAfterMs).toMatch(/^[1-9]\d*$/);
      expect(Number(retryAfterMs)).toBeLessThanOrEqual(Number(retryAfter) * 1000);
      expect(Math.ceil(Number(retryAfterMs) / 1000)).toBe(Number(retryAfter));
    } else expect(retryAfterMs).toBeNull();
  });

  it('a response-cache hit carries them too, counted as a request of its own', async () => {
    const key = await limitedKey();
    const send = chat('openai/gpt-5.4-mini', false, { 'x-modelgate-cache': 'on' });
    const miss = await send(key);
    await miss.text();
    expect([miss.status, miss.headers.get('x-modelgate-cache')]).toEqual([200, 'miss']);
    expectFamily(miss, 'openai', 1);
    const hit = await send(key);
    await hit.text();
    expect([hit.status, hit.headers.get('x-modelgate-cache')]).toEqual([200, 'hit']);
    expectFamily(hit, 'openai', 0);
    expect(upstream.requests).toHaveLength(1);
  });
});
