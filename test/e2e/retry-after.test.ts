// Every 429 the gateway sends has Retry-After (delta-seconds, at least 1), on every door, also when it relays an
// upstream's 429 that named no wait (then 1 s) or a wait of 0; the OpenAI doors add retry-after-ms. The official
// openai SDK waits what the gateway says instead of its own backoff.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApiKeyLimits } from '../../src/repositories/api-keys.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, type Reply } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

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
      // The upstreams' 429s are what is tested: they must not open the endpoints' circuit breakers (then 503).
      MODELGATE_BREAKER_FAILURES: '1000',
      MODELGATE_BREAKER_FAILURE_RATE: '0',
    },
  });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

async function fundedKey(limits: { rate_limit_rpm?: number; rate_limit_tpm?: number } = { rate_limit_rpm: 10 }) {
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  await setApiKeyLimits(gw.db, user.keyId, limits);
  return user.key;
}

const json = { 'content-type': 'application/json' };
const hello = [{ role: 'user', content: 'hi' }];
const post = (path: string, headers: Record<string, string>, body: object) =>
  gw.fetch(`/api/v1${path}`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });

/** The vendors' own 429 bodies, without any header that says how long to wait. */
const OPENAI_429: Reply = { kind: 'json', status: 429, body: loadJson('openai', 'error-429') };
const ANTHROPIC_429: Reply = { kind: 'json', status: 429, body: loadJson('anthropic', 'error-429') };
const GEMINI_429: Reply = {
  kind: 'json',
  status: 429,
  body: {
    error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' },
  },
};

interface Relay {
  name: string;
  upstream: Reply;
  send(key: string): Promise<Response>;
  /** retry-after-ms sent beside Retry-After (the OpenAI doors). */
  millis: boolean;
}

const RELAYS: Relay[] = [
  {
    name: 'chat completions',
    upstream: OPENAI_429,
    millis: true,
    send: (key) =>
      post('/chat/completions', { authorization: `Bearer ${key}` }, { model: 'openai/gpt-5.4-mini', messages: hello }),
  },
  {
    name: 'Responses',
    upstream: OPENAI_429,
    millis: true,
    send: (key) =>
      post(
        '/responses',
        { authorization: `Bearer ${key}` },
        { model: 'openai/gpt-5.4-mini', input: 'hi', stream: false },
      ),
  },
  {
    name: 'embeddings',
    upstream: OPENAI_429,
    millis: true,
    send: (key) =>
      post('/embeddings', { authorization: `Bearer ${key}` }, { model: 'openai/text-embedding-3-small', input: ['a'] }),
  },
  {
    name: 'Messages',
    upstream: ANTHROPIC_429,
    millis: false,
    send: (key) =>
      post('/messages', { 'x-api-key': key }, { model: 'claude-haiku-5-5', max_tokens: 64, messages: hello }),
  },
  {
    name: 'Gemini',
    upstream: GEMINI_429,
    millis: false,
    send: (key) =>
      post(
        '/gemini/v1beta/models/gemini-2.5-flash:generateContent',
        { 'x-goog-api-key': key },
        {
          contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        },
      ),
  },
];

describe("an upstream's 429, relayed", () => {
  it.each(RELAYS)(
    '$name: with Retry-After 1 when the upstream named no wait',
    async ({ upstream: reply, send, millis }) => {
      upstream.always(reply);
      const res = await send(await fundedKey());
      const body = await res.text();
      expect(res.status, body).toBe(429);
      expect(upstream.requests.length).toBeGreaterThan(0);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('retry-after-ms')).toBe(millis ? '1000' : null);
      // The key's own rate state goes with it, as with every answer after admission.
      expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    },
  );

  it("keeps the upstream's wait, never under 1 s, and says it in milliseconds on the OpenAI doors", async () => {
    const key = await fundedKey();
    const send = RELAYS[0].send;
    for (const [given, sent] of [
      ['3', '3'],
      ['0', '1'],
    ]) {
      upstream.reset();
      upstream.always({ ...OPENAI_429, headers: { 'retry-after': given } } as Reply);
      const res = await send(key);
      await res.text();
      expect(res.status).toBe(429);
      expect([res.headers.get('retry-after'), res.headers.get('retry-after-ms')]).toEqual([sent, `${sent}000`]);
    }
  });
});

it("the openai SDK retries an upstream 429 after the gateway's wait, not its own backoff", async () => {
  const client = new OpenAI({ baseURL: `${gw.url}/api/v1`, apiKey: await fundedKey(), maxRetries: 1 });
  // The SDK falls back to its exponential backoff only when the answer names no wait (retry-after-ms, Retry-After).
  let ownBackoff = 0;
  Object.assign(client, {
    calculateDefaultRetryTimeoutMillis: () => {
      ownBackoff++;
      return 0;
    },
  });
  upstream.reply(OPENAI_429, { kind: 'json', body: loadJson('openai', 'text') });
  const completion = await client.chat.completions.create({ model: 'openai/gpt-5.4-mini', messages: hello as never });
  expect(completion.choices[0].message.content).toBeTruthy();
  expect(upstream.requests).toHaveLength(2);
  expect(ownBackoff).toBe(0);
});
