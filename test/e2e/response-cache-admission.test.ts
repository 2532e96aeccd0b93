// A request with X-Modelgate-Cache is admitted before its key is computed and looked up: a key out of requests per
// minute, a model outside its allow-list and a pass/ model without a subscription are refused without the cache being
// read. An admitted request is counted once, hit or miss. A hit repeats the warnings its miss carried.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';
import { setApiKeyLimits } from '../../src/repositories/api-keys.js';
import { grantPass } from '../../src/services/pass.js';
import { MemoryCacheStore } from '../../src/pipeline/response-cache/memory-store.js';
import { ResponseCache } from '../../src/pipeline/response-cache/response-cache.js';
import { createLogger } from '../../src/logger.js';

/** The in-process store, counting its lookups. */
class CountingStore extends MemoryCacheStore {
  lookups = 0;
  override get(key: string): Promise<string | undefined> {
    this.lookups++;
    return super.get(key);
  }
}

const store = new CountingStore(8 * 1024 * 1024, 1024 * 1024);
let gw: TestGateway;
let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      PASS_API_KEY: 'sk-pass',
      PASS_BASE_URL: `${upstream.url}/pass/v1`,
    },
    overrides: {
      responseCache: new ResponseCache(
        store,
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
  upstream.always((request) =>
    request.path.endsWith('/responses')
      ? { kind: 'json', body: loadJson('openai', 'native-responses-reasoning') }
      : { kind: 'json', body: loadJson('openai', 'text') },
  );
});

const chat = (key: string, content: string, model = 'openai/gpt-5.4-nano') =>
  gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', 'x-modelgate-cache': 'on' },
    body: JSON.stringify({ model, stream: false, messages: [{ role: 'user', content }] }),
  });

async function funded() {
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  return user;
}

describe('admission before the lookup', () => {
  it('a key out of requests per minute is refused without a lookup; a miss and its hit count one request each', async () => {
    const user = await funded();
    await setApiKeyLimits(gw.db, user.keyId, { rate_limit_rpm: 2 });
    const miss = await chat(user.key, 'rate');
    await miss.text();
    const hit = await chat(user.key, 'rate');
    await hit.text();
    expect([miss.status, hit.status]).toEqual([200, 200]);
    expect([miss.headers.get('x-modelgate-cache'), hit.headers.get('x-modelgate-cache')]).toEqual(['miss', 'hit']);
    expect(hit.headers.get('x-ratelimit-remaining')).toBe('0');
    const lookups = store.lookups;
    const refused = await chat(user.key, 'rate');
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.metadata).toMatchObject({ reason: 'rate_limit', limit: 'requests_per_minute' });
    expect(refused.headers.get('x-modelgate-cache')).toBeNull();
    expect(store.lookups).toBe(lookups);
    expect(upstream.requests).toHaveLength(1);
  });

  it("a model outside the key's allow-list is refused without a lookup", async () => {
    const user = await funded();
    const token = await gw.createToken(user.userId);
    const created = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'nano-only', allowed_models: ['openai/gpt-5.4-nano'] }),
    });
    const { key } = await created.json();
    const lookups = store.lookups;
    const refused = await chat(key, 'allow-list', 'openai/gpt-5.4');
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.metadata).toMatchObject({ reason: 'model_not_allowed' });
    expect(store.lookups).toBe(lookups);
    expect(upstream.requests).toHaveLength(0);
  });

  it("a pass/ model needs a subscription before the lookup; a subscriber's miss and hit leave no quota held", async () => {
    const user = await funded();
    const lookups = store.lookups;
    const refused = await chat(user.key, 'pass', 'pass/glm-5.2');
    expect(refused.status).toBe(403);
    await refused.text();
    expect(store.lookups).toBe(lookups);
    await grantPass(gw.db, user.userId, 1, new Date());
    const miss = await chat(user.key, 'pass', 'pass/glm-5.2');
    const hit = await chat(user.key, 'pass', 'pass/glm-5.2');
    expect([await miss.text(), await hit.text()].map((text) => JSON.parse(text).choices[0].message.content)).toEqual([
      'Hello! How can I assist you today?',
      'Hello! How can I assist you today?',
    ]);
    expect([miss.headers.get('x-modelgate-cache'), hit.headers.get('x-modelgate-cache')]).toEqual(['miss', 'hit']);
    const rows = await gw.db.selectFrom('pass_usage').select(['status']).where('user_id', '=', user.userId).execute();
    expect(rows.filter((row) => row.status === 'reserved')).toEqual([]);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('warnings', () => {
  it('a hit repeats the x-modelgate-warning its miss carried', async () => {
    const user = await funded();
    const send = () =>
      gw.fetch('/api/v1/responses', {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json', 'x-modelgate-cache': 'on' },
        body: JSON.stringify({ model: 'openai/gpt-5.4-nano', input: 'keep it', tools: [{ type: 'image_generation' }] }),
      });
    const miss = await send();
    await miss.text();
    const warning = miss.headers.get('x-modelgate-warning');
    expect(warning).toMatch(/image_generation/);
    const hit = await send();
    await hit.text();
    expect(hit.headers.get('x-modelgate-cache')).toBe('hit');
    expect(hit.headers.get('x-modelgate-warning')).toBe(warning);
    expect(upstream.requests).toHaveLength(1);
  });
});
