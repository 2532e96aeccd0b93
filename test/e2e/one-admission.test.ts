// Every path that reaches a model is admitted by the one admission step (src/pipeline/admission/admit.ts): a
// generation on either lane, a response-cache read and its hit, embeddings and token counting (both doors). A rule
// added to the step reaches all of them, refused in each door's own error envelope; and a key's allow-list changed
// between two requests is refused on every path, the cache hit included.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { AdmissionPath, AdmissionRule } from '../../src/pipeline/admission/admission-ask.js';
import { ADMISSION_RULES } from '../../src/pipeline/admission/admission-rules.js';
import { composeAdmission } from '../../src/pipeline/admission/admit.js';
import { MemoryCacheStore } from '../../src/pipeline/response-cache/memory-store.js';
import { ResponseCache } from '../../src/pipeline/response-cache/response-cache.js';
import { createLogger } from '../../src/logger.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, type RecordedRequest, type Reply } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

/** The paths the step was asked by, in order, and the one the test rule refuses (none: it lets every request by). */
const seen: AdmissionPath[] = [];
let refused: AdmissionPath | undefined;

const testRule: AdmissionRule = (_parts, state) => {
  seen.push(state.ask.path);
  if (state.ask.path === refused)
    throw new GatewayError(403, `Refused by the test rule on ${state.ask.path}`, { reason: 'test_rule' });
};

function vendorReply(request: RecordedRequest): Reply {
  if (request.path.endsWith('/chat/completions')) return { kind: 'json', body: loadJson('openai', 'text') };
  if (request.path.endsWith('/messages')) return { kind: 'json', body: loadJson('anthropic', 'text') };
  if (request.path.endsWith('/embeddings')) return { kind: 'json', body: loadJson('openai', 'embeddings-float') };
  return { kind: 'text', status: 404, body: `no reply for ${request.path}` };
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
      admission: composeAdmission([testRule, ...ADMISSION_RULES]),
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
  seen.length = 0;
  refused = undefined;
});

const json = { 'content-type': 'application/json' };
const messages = (content: string) => [{ role: 'user', content }];

/** One request of each path, and how its door's error envelope reads. */
interface PathCase {
  name: string;
  path: AdmissionPath;
  send(key: string): Promise<Response>;
  /** The refusal's message, read from the door's own envelope (undefined when the body is not that envelope). */
  message(body: any): string | undefined;
}

const openaiMessage = (body: any) => (typeof body?.error?.message === 'string' ? body.error.message : undefined);
const anthropicMessage = (body: any) =>
  body?.type === 'error' && typeof body.error?.type === 'string' ? body.error.message : undefined;
const googleMessage = (body: any) =>
  body?.error?.code === 403 && body.error.status === 'PERMISSION_DENIED' ? body.error.message : undefined;

const chat = (model: string, content: string, cache?: boolean) => (key: string) =>
  gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { ...json, ...(cache ? { 'x-modelgate-cache': 'on' } : {}) },
    body: JSON.stringify({ model, stream: false, messages: messages(content) }),
  });

const CASES: PathCase[] = [
  {
    name: 'a generation on the native lane',
    path: 'generation',
    send: chat('openai/gpt-5.4-mini', 'native'),
    message: openaiMessage,
  },
  {
    name: 'a generation on the translated lane',
    path: 'generation',
    send: chat('anthropic/claude-haiku-5-5', 'translated'),
    message: openaiMessage,
  },
  {
    name: 'a response-cache read',
    path: 'cache-read',
    send: chat('openai/gpt-5.4-mini', 'a read', true),
    message: openaiMessage,
  },
  {
    name: 'embeddings',
    path: 'embeddings',
    send: (key) =>
      gw.fetch('/api/v1/embeddings', {
        method: 'POST',
        key,
        headers: json,
        body: JSON.stringify({ model: 'openai/text-embedding-3-small', input: ['one', 'two'] }),
      }),
    message: openaiMessage,
  },
  {
    name: 'count_tokens on the Messages door',
    path: 'count-tokens',
    send: (key) =>
      gw.fetch('/api/v1/messages/count_tokens', {
        method: 'POST',
        headers: { ...json, 'x-api-key': key },
        body: JSON.stringify({ model: 'openai/gpt-5.4-mini', messages: messages('count') }),
      }),
    message: anthropicMessage,
  },
  {
    name: 'countTokens on the Gemini door',
    path: 'count-tokens',
    send: (key) =>
      gw.fetch('/api/v1/gemini/v1beta/models/gemini-2.5-flash:countTokens', {
        method: 'POST',
        headers: { ...json, 'x-goog-api-key': key },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'count' }] }] }),
      }),
    message: googleMessage,
  },
];

async function funded() {
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  return user;
}

describe('a rule added to the admission step reaches every path', () => {
  it.each(CASES)('$name is refused by it, in its door envelope', async ({ path, send, message }) => {
    const { key } = await funded();
    refused = path;
    const res = await send(key);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(403);
    expect(message(body)).toBe(`Refused by the test rule on ${path}`);
    expect(seen).toEqual([path]);
    expect(upstream.requests).toHaveLength(0);
  });

  it('a cache hit is admitted by it too: refused there, with the hit header', async () => {
    const { key } = await funded();
    const send = chat('openai/gpt-5.4-mini', 'a hit', true);
    const miss = await send(key);
    await miss.text();
    expect([miss.status, miss.headers.get('x-modelgate-cache')]).toEqual([200, 'miss']);
    expect(seen).toEqual(['cache-read', 'generation']);
    seen.length = 0;
    refused = 'cache-hit';
    const hit = await send(key);
    const body = await hit.json();
    expect(hit.status, JSON.stringify(body)).toBe(403);
    expect(hit.headers.get('x-modelgate-cache')).toBe('hit');
    expect(openaiMessage(body)).toBe('Refused by the test rule on cache-hit');
    expect(seen).toEqual(['cache-read', 'cache-hit']);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("a key's allow-list changed between two requests", () => {
  const CACHE_HIT: PathCase = {
    name: 'a response-cache hit',
    path: 'cache-hit',
    send: chat('openai/gpt-5.4-mini', 'narrowed', true),
    message: openaiMessage,
  };

  it.each([...CASES.filter((c) => c.path !== 'cache-read'), CACHE_HIT])(
    '$name is refused once the model left it',
    async ({ send, message }) => {
      const user = await funded();
      const first = await send(user.key);
      const text = await first.text();
      expect(first.status, text).toBe(200);
      const token = await gw.createToken(user.userId);
      const narrowed = await gw.fetch(`/api/v1/api-keys/${user.keyId}`, {
        method: 'PATCH',
        key: token,
        headers: json,
        body: JSON.stringify({ allowed_models: ['openai/gpt-5.4-nano'] }),
      });
      expect(narrowed.status).toBe(200);
      const requests = upstream.requests.length;
      const second = await send(user.key);
      const body = await second.json();
      expect(second.status, JSON.stringify(body)).toBe(403);
      expect(message(body)).toMatch(/may not use model/);
      expect(upstream.requests).toHaveLength(requests);
    },
  );
});
