// A provider kind is one bundle in the list the gateway is composed from (providers/bundles.ts): a fake kind, listed
// instead of Anthropic's bundle and serving the catalog's anthropic provider, is what the native lane (Messages door),
// the translated lane (chat door) and count_tokens call, with no other change to the gateway.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/catalog.js';
import { loadCatalogData } from '../../src/catalog/load-catalog.js';
import type { ProviderKind } from '../../src/core/provider-kind.js';
import { buildCountTokensRequest, readCountTokens } from '../../src/providers/anthropic/count-tokens.js';
import { createAnthropicAdapter } from '../../src/providers/anthropic/index.js';
import { nativeMessages } from '../../src/providers/anthropic/native-messages.js';
import { PROVIDER_BUNDLES } from '../../src/providers/bundles.js';
import type { ProviderBundle } from '../../src/providers/provider-bundle.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

const FAKE = 'fake-kind' as ProviderKind;
const MODEL = 'anthropic/claude-sonnet-5-5';
const TEXT = readFileSync(new URL('../fixtures/anthropic/text.json', import.meta.url), 'utf8');

const calls = { translated: 0, native: 0, counted: 0 };
const adapter = createAnthropicAdapter();
const fake: ProviderBundle = {
  kind: FAKE,
  upstreamProtocols: () => ['messages'],
  adapter: {
    ...adapter,
    buildRequest: (request, ctx) => {
      calls.translated++;
      return adapter.buildRequest(request, ctx);
    },
  },
  natives: {
    messages: {
      ...nativeMessages,
      buildRequest: (input) => {
        calls.native++;
        return nativeMessages.buildRequest(input);
      },
    },
  },
  countTokens: {
    buildRequest: (request, ctx) => {
      calls.counted++;
      return buildCountTokensRequest(request, ctx);
    },
    readCount: readCountTokens,
  },
};

let gw: TestGateway;
let upstream: MockUpstream;
let key: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  const data = loadCatalogData({});
  const catalog = new Catalog({
    ...data,
    providers: data.providers.map((p) => (p.id === 'anthropic' ? { ...p, kind: FAKE } : p)),
  });
  gw = await startTestGateway({
    env: { ANTHROPIC_API_KEY: 'sk-ant-operator', ANTHROPIC_BASE_URL: upstream.url },
    overrides: { catalog },
    bundles: [...PROVIDER_BUNDLES.filter((bundle) => bundle.kind !== 'anthropic'), fake],
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 10);
  key = user.key;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  Object.assign(calls, { translated: 0, native: 0, counted: 0 });
});

const post = (path: string, body: unknown) =>
  gw.fetch(path, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
const messages = [{ role: 'user', content: 'Hello' }];

describe('a provider kind composed from its bundle alone', () => {
  it("the Messages door takes the bundle's native back door to a provider of its kind", async () => {
    upstream.reply({ kind: 'text', status: 200, body: TEXT, headers: { 'content-type': 'application/json' } });
    const res = await post('/api/v1/messages', { model: MODEL, max_tokens: 50, messages, stream: false });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: 'message', model: MODEL, content: [{ type: 'text' }] });
    expect(calls).toEqual({ translated: 0, native: 1, counted: 0 });
    expect(upstream.last.path).toBe('/v1/messages');
  });

  it("the chat door takes the bundle's adapter (the translated lane)", async () => {
    upstream.reply({ kind: 'text', status: 200, body: TEXT, headers: { 'content-type': 'application/json' } });
    const res = await post('/api/v1/chat/completions', { model: MODEL, max_tokens: 50, messages, stream: false });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant' } }],
    });
    expect(calls).toEqual({ translated: 1, native: 0, counted: 0 });
    expect(upstream.last.path).toBe('/v1/messages');
  });

  it("count_tokens asks the bundle's token counter", async () => {
    upstream.reply({ kind: 'json', body: { input_tokens: 4321 } });
    const res = await post('/api/v1/messages/count_tokens', { model: MODEL, messages });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ input_tokens: 4321 });
    expect(calls).toEqual({ translated: 0, native: 0, counted: 1 });
    expect(upstream.last.path).toBe('/v1/messages/count_tokens');
  });
});
