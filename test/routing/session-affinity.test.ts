// Session affinity, unit level: the ordering step in planRoute (the affine endpoint first while its breaker is
// closed, never against an explicit provider.order), when a lookup is needed at all, the in-process store's TTL and
// bound, the hashed key, and each front door's session key.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { loadProviderConfigs } from '../../src/providers/registry.js';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import { hasEndpointChoice, planRoute, type RoutingDeps } from '../../src/routing/plan-route.js';
import { InMemoryCircuitBreaker } from '../../src/routing/circuit-breaker.js';
import { EndpointStats } from '../../src/routing/endpoint-stats.js';
import { affinityKey, InMemoryAffinityStore } from '../../src/routing/session-affinity.js';
import { chatSessionKey } from '../../src/formats/chat-completions/session-key.js';
import { responsesSessionKey } from '../../src/formats/responses/session-key.js';
import { messagesSessionKey } from '../../src/formats/messages/session-key.js';
import type { ChatCompletionRequest } from '../../src/formats/chat-completions/wire-types.js';
import { chatRequestFacts } from '../../src/formats/chat-completions/request-facts.js';

// alpha/chat: endpoints beta ($2/$4), gamma ($3/$6), alpha ($4/$8) — test/fixtures/catalog/routing-catalog.json.
const catalog = loadCatalog({ MODELGATE_CATALOG: 'test/fixtures/catalog/routing-catalog.json' });

function deps(): RoutingDeps {
  return {
    catalog,
    providers: loadProviderConfigs({ ALPHA_API_KEY: 'a', BETA_API_KEY: 'b', GAMMA_API_KEY: 'g' }, catalog),
    adapters: { 'openai-compatible': createOpenAICompatibleAdapter() },
    breaker: new InMemoryCircuitBreaker({ failureThreshold: 1, cooldownMs: 60_000 }),
    endpointStats: new EndpointStats(),
  };
}

const request = (extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest =>
  ({ model: 'alpha/chat', messages: [{ role: 'user', content: 'hi' }], ...extra }) as ChatCompletionRequest;
/** The chat door's request as the pipeline plans it: its facts (routing fields included). */
const plan = (d: RoutingDeps, req: ChatCompletionRequest, affine?: string) =>
  planRoute(d, chatRequestFacts(req), { affineEndpoint: affine });
const choice = (c: Parameters<typeof hasEndpointChoice>[0], req: ChatCompletionRequest) =>
  hasEndpointChoice(c, req.model, { models: req.models, provider: req.provider });
const order = (d: RoutingDeps, req: ChatCompletionRequest, affine?: string) =>
  plan(d, req, affine).targets.map((t) => t.provider.id);

describe('planRoute with an affine endpoint', () => {
  it('puts it first, ahead of price and of what provider.sort would choose; the rest keep their order', () => {
    const d = deps();
    expect(order(d, request())).toEqual(['beta', 'gamma', 'alpha']);
    expect(order(d, request(), 'alpha/chat@alpha')).toEqual(['alpha', 'beta', 'gamma']);
    d.endpointStats.observeLatency('alpha/chat@gamma', 5);
    d.endpointStats.observeLatency('alpha/chat@beta', 50);
    d.endpointStats.observeLatency('alpha/chat@alpha', 500);
    const latency = request({ provider: { sort: 'latency' } });
    expect(order(d, latency)).toEqual(['gamma', 'beta', 'alpha']);
    expect(order(d, latency, 'alpha/chat@beta')).toEqual(['beta', 'gamma', 'alpha']);
  });

  it('with allow_fallbacks false the one endpoint kept is the affine one', () => {
    expect(order(deps(), request({ provider: { sort: 'price', allow_fallbacks: false } }), 'alpha/chat@gamma')).toEqual(
      ['gamma'],
    );
  });

  it('an open or half-open affine endpoint gets no preference; open ones stay skipped', () => {
    let now = 0;
    const d = {
      ...deps(),
      breaker: new InMemoryCircuitBreaker({ failureThreshold: 1, cooldownMs: 1000, clock: () => now }),
    };
    d.breaker.recordFailure('alpha/chat@alpha');
    expect(order(d, request(), 'alpha/chat@alpha')).toEqual(['beta', 'gamma']);
    now = 1000; // half-open: back among the candidates, after the healthy ones
    expect(order(d, request(), 'alpha/chat@alpha')).toEqual(['beta', 'gamma', 'alpha']);
  });

  it("an endpoint the request's filters exclude stays excluded", () => {
    expect(order(deps(), request({ provider: { ignore: ['alpha'] } }), 'alpha/chat@alpha')).toEqual(['beta', 'gamma']);
    const image = request({
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] },
      ] as never,
    });
    expect(order(deps(), image, 'alpha/chat@gamma')).toEqual(['beta', 'alpha']);
  });

  it('an explicit provider.order wins over affinity', () => {
    expect(order(deps(), request({ provider: { order: ['gamma', 'beta'] } }), 'alpha/chat@alpha')).toEqual([
      'gamma',
      'beta',
      'alpha',
    ]);
  });

  it('an endpoint of a `models` fallback orders only its own model: the requested model still comes first', () => {
    const req = request({ models: ['alpha/backup'] });
    expect(order(deps(), req, 'alpha/backup@alpha')).toEqual(['beta', 'gamma', 'alpha', 'alpha']);
    const targets = plan(deps(), req, 'alpha/chat@gamma').targets;
    expect(targets.map((t) => `${t.entry.id}@${t.provider.id}`)).toEqual([
      'alpha/chat@gamma',
      'alpha/chat@beta',
      'alpha/chat@alpha',
      'alpha/backup@alpha',
    ]);
  });

  it('property: the affine endpoint, when a closed candidate, is tried first and the candidate set never changes', () => {
    const keys = ['alpha/chat@alpha', 'alpha/chat@beta', 'alpha/chat@gamma'];
    fc.assert(
      fc.property(
        fc.constantFrom(...keys, 'alpha/chat@nowhere', undefined),
        fc.subarray(keys),
        fc.constantFrom(undefined, 'price', 'latency', 'throughput'),
        (affine, open, sort) => {
          const d = deps();
          for (const key of open) d.breaker.recordFailure(key);
          const req = request({ provider: sort ? { sort: sort as 'price' } : {} });
          let without: string[];
          try {
            without = plan(d, req).targets.map((t) => t.entry.endpointKey!);
          } catch {
            return; // every endpoint open: planning refuses either way
          }
          const withAffinity = plan(d, req, affine).targets.map((t) => t.entry.endpointKey!);
          expect([...withAffinity].sort()).toEqual([...without].sort());
          if (affine && without.includes(affine)) expect(withAffinity[0]).toBe(affine);
          else expect(withAffinity).toEqual(without);
        },
      ),
    );
  });
});

describe('hasEndpointChoice: when a conversation is looked up at all', () => {
  it('only for a model (or a `models` fallback) with several endpoints, and never with provider.order', () => {
    expect(choice(catalog, request())).toBe(true);
    expect(choice(catalog, request({ model: 'beta/solo' }))).toBe(false);
    expect(choice(catalog, request({ model: 'beta/solo', models: ['alpha/backup'] }))).toBe(false);
    expect(choice(catalog, request({ model: 'beta/solo', models: ['alpha/chat'] }))).toBe(true);
    expect(choice(catalog, request({ provider: { order: ['gamma'] } }))).toBe(false);
    expect(choice(catalog, request({ model: 'nobody/knows' }))).toBe(false);
  });
});

describe('InMemoryAffinityStore', () => {
  it('forgets a conversation its TTL after the last served turn; each turn starts the TTL again', () => {
    let now = 0;
    const store = new InMemoryAffinityStore({ ttlMs: 1000, maxEntries: 10, clock: () => now });
    store.set('k', 'm@a');
    now = 900;
    expect(store.get('k')).toBe('m@a');
    store.set('k', 'm@a'); // a served turn refreshes
    now = 1800;
    expect(store.get('k')).toBe('m@a');
    now = 1900;
    expect(store.get('k')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('is bounded: past maxEntries the least recently served conversation goes first', () => {
    const store = new InMemoryAffinityStore({ ttlMs: 60_000, maxEntries: 2 });
    store.set('a', 'm@1');
    store.set('b', 'm@2');
    store.set('a', 'm@3'); // served again: now the most recent
    store.set('c', 'm@4');
    expect([store.get('a'), store.get('b'), store.get('c')]).toEqual(['m@3', undefined, 'm@4']);
    expect(store.size).toBe(2);
  });
});

describe('affinityKey', () => {
  it('scopes by account, model and session, and holds none of them in clear', () => {
    const key = affinityKey('usr_1', 'alpha/chat', 'thread-secret-42');
    expect(key).not.toContain('thread-secret-42');
    expect(key).not.toContain('usr_1');
    expect(affinityKey('usr_1', 'alpha/chat', 'thread-secret-42')).toBe(key);
    expect(
      new Set([
        key,
        affinityKey('usr_2', 'alpha/chat', 'thread-secret-42'),
        affinityKey('usr_1', 'alpha/backup', 'thread-secret-42'),
        affinityKey('usr_1', 'alpha/chat', 'other'),
      ]).size,
    ).toBe(4);
  });
});

describe('session keys per front door (first present wins)', () => {
  it("chat and responses: prompt_cache_key, then X-Task-ID, then Codex's session-id", () => {
    for (const sessionKey of [chatSessionKey, responsesSessionKey]) {
      const headers = { 'x-task-id': 'task-1', 'session-id': 'codex-thread' };
      expect(sessionKey({ prompt_cache_key: 'pck' }, headers)).toBe('pck');
      expect(sessionKey({}, headers)).toBe('task-1');
      expect(sessionKey({ prompt_cache_key: '  ' }, { 'session-id': 'codex-thread' })).toBe('codex-thread');
      expect(sessionKey({ prompt_cache_key: 42 }, {})).toBeUndefined();
    }
  });

  it("messages: the session_id inside Claude Code's JSON user_id, else the whole user_id, then the headers", () => {
    const claudeCode = JSON.stringify({
      device_id: 'dev',
      account_uuid: '',
      session_id: '09035bd0-c545-480c-8247-5944915fef70',
    });
    expect(messagesSessionKey({ metadata: { user_id: claudeCode } }, { 'x-task-id': 't' })).toBe(
      '09035bd0-c545-480c-8247-5944915fef70',
    );
    expect(messagesSessionKey({ metadata: { user_id: 'end-user-7' } }, {})).toBe('end-user-7');
    expect(messagesSessionKey({ metadata: { user_id: '{not json' } }, {})).toBe('{not json');
    expect(messagesSessionKey({ metadata: { user_id: '{"device_id":"d"}' } }, {})).toBe('{"device_id":"d"}');
    expect(messagesSessionKey({}, { 'x-task-id': 'task-2', 'session-id': 's' })).toBe('task-2');
    expect(messagesSessionKey({ metadata: null }, {})).toBeUndefined();
  });
});
