// The response cache's pure parts: the header's grammar, keys that ignore key order and nothing else, the in-process
// store's byte bound and TTL, the price of a hit, and a replay's id and cost.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCacheDirective } from '../../src/pipeline/response-cache/cache-directive.js';
import { cacheKey, canonicalJson } from '../../src/pipeline/response-cache/cache-key.js';
import type { CacheableRequest } from '../../src/pipeline/response-cache/cacheable-request.js';
import { ENTRY_OVERHEAD_BYTES, MemoryCacheStore } from '../../src/pipeline/response-cache/memory-store.js';
import {
  decodeAnswer,
  encodeAnswer,
  replayFrames,
  replayJson,
  type CachedAnswer,
} from '../../src/pipeline/response-cache/cached-answer.js';
import { ResponseCache } from '../../src/pipeline/response-cache/response-cache.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { createLogger } from '../../src/logger.js';

describe('X-Modelgate-Cache', () => {
  it('reads on, ttl=, refresh (with ttl=) and off', () => {
    expect(parseCacheDirective(undefined)).toBeUndefined();
    expect(parseCacheDirective('off')).toBeUndefined();
    expect(parseCacheDirective('on')).toEqual({ read: true, ttlSeconds: 3600 });
    expect(parseCacheDirective('TTL=600')).toEqual({ read: true, ttlSeconds: 600 });
    expect(parseCacheDirective('refresh')).toEqual({ read: false, ttlSeconds: 3600 });
    expect(parseCacheDirective(' refresh , ttl=86400 ')).toEqual({ read: false, ttlSeconds: 86_400 });
  });

  it('refuses anything else with a 400 that says what is allowed', () => {
    for (const bad of ['ttl=0', 'ttl=86401', 'ttl=1.5', 'ttl=', 'yes', 'on,,', 'ttl=5,ttl=6', 'off,refresh']) {
      const thrown = (() => {
        try {
          parseCacheDirective(bad);
        } catch (err) {
          return err;
        }
      })();
      expect(thrown, bad).toBeInstanceOf(GatewayError);
      expect((thrown as GatewayError).status).toBe(400);
      expect((thrown as GatewayError).message).toContain('Send "on", "ttl=SECONDS"');
    }
  });
});

describe('cache keys', () => {
  const shuffle = (value: unknown, seed: number): unknown => {
    if (Array.isArray(value)) return value.map((v) => shuffle(v, seed));
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>);
    entries.sort((a, b) => ((a[0].charCodeAt(0) * seed) % 7) - ((b[0].charCodeAt(0) * seed) % 7));
    return Object.fromEntries(entries.map(([k, v]) => [k, shuffle(v, seed)]));
  };

  const request = (body: unknown, changes: Partial<CacheableRequest> = {}): CacheableRequest => ({
    apiFormat: 'chat_completions',
    model: 'm/a',
    wire: { body: body as Record<string, unknown>, clientHeaders: {} },
    stream: false,
    estimatedTokens: 1,
    ...changes,
  });

  it('are the same whatever the key order of the body', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 1000 }), (body, seed) => {
        const a = cacheKey('u', request(body), {});
        expect(cacheKey('u', request(shuffle(body, seed)), {})).toBe(a);
      }),
    );
  });

  it('differ by account, door, model, facts, form, framing, forwarded and option headers, array order and any value', () => {
    const body = {
      model: 'm',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
      temperature: 0,
    };
    const base = request(body);
    const keys = new Set([
      cacheKey('u1', base, {}),
      cacheKey('u2', base, {}),
      cacheKey('u1', { ...base, apiFormat: 'messages' }, {}),
      cacheKey('u1', { ...base, model: 'm/b' }, {}),
      cacheKey('u1', { ...base, facts: { model: 'm/a', hasTools: true } }, {}),
      cacheKey('u1', { ...base, stream: true }, {}),
      cacheKey('u1', { ...base, stream: true, framing: 'json-array' }, {}),
      cacheKey('u1', { ...base, wire: { body, clientHeaders: { 'anthropic-beta': 'x' } } }, {}),
      cacheKey('u1', base, { 'x-modelgate-auto-cache': 'off' }),
      cacheKey('u1', request({ ...body, messages: [...body.messages].reverse() }), {}),
      cacheKey('u1', request({ ...body, temperature: 0.1 }), {}),
    ]);
    expect(keys.size).toBe(11);
    expect([...keys].every((k) => /^[0-9a-f]{64}$/.test(k))).toBe(true);
    // The directive, tracking and session headers do not change the answer; a JSON answer has no framing.
    expect(cacheKey('u1', base, { 'x-modelgate-cache': 'refresh', 'x-title': 'app', 'session-id': 's' })).toBe(
      cacheKey('u1', base, {}),
    );
    expect(cacheKey('u1', { ...base, framing: 'sse' }, {})).toBe(cacheKey('u1', base, {}));
    expect(canonicalJson({ b: 1, a: [{ d: undefined, c: 2 }] })).toBe('{"a":[{"c":2}],"b":1}');
  });
});

describe('the in-process store', () => {
  it('evicts the least recently used entries past its byte bound, skips entries above the entry bound', async () => {
    const entry = 1 + 99 + ENTRY_OVERHEAD_BYTES;
    const store = new MemoryCacheStore(2 * entry + 50, 150);
    await store.set('a', 'x'.repeat(99), 60);
    await store.set('b', 'y'.repeat(99), 60);
    await store.get('a');
    await store.set('c', 'z'.repeat(99), 60);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe('x'.repeat(99));
    expect(store.bytes()).toBe(2 * entry);
    await store.set('d', 'w'.repeat(200), 60);
    expect(await store.get('d')).toBeUndefined();
    expect(store.bytes()).toBe(2 * entry);
    // Counted in UTF-8 bytes, as held: '€' is three.
    await store.set('e', '€'.repeat(33), 60);
    expect(await store.get('e')).toBe('€'.repeat(33));
    expect(store.bytes()).toBe(2 * entry);
  });

  it('never serves an entry past its TTL', async () => {
    let now = 0;
    const store = new MemoryCacheStore(2000, 1000, () => now);
    await store.set('k', 'v', 10);
    now = 9_999;
    expect(await store.get('k')).toBe('v');
    now = 10_000;
    expect(await store.get('k')).toBeUndefined();
    expect(store.bytes()).toBe(0);
  });
});

describe('hits', () => {
  const cache = (ppm: number) =>
    new ResponseCache(
      new MemoryCacheStore(2000, 1000),
      { maxEntryBytes: 1000, priceFractionPpm: ppm },
      createLogger('silent'),
    );

  it("cost the operator's fraction of a credits answer, rounded half up; nothing for free and pass answers", () => {
    expect(cache(0).chargeFor({ accessMode: 'credits', costNanos: 6_000_000n })).toBe(0n);
    expect(cache(500_000).chargeFor({ accessMode: 'credits', costNanos: 6_000_001n })).toBe(3_000_001n);
    expect(cache(1_000_000).chargeFor({ accessMode: 'credits', costNanos: 7n })).toBe(7n);
    expect(cache(1_000_000).chargeFor({ accessMode: 'pass', costNanos: 7n })).toBe(0n);
  });

  it('replay with the new id everywhere and their own cost in usage', () => {
    const original = 'gen-1-AAAAAAAAAAAAAA';
    const replay = { generationId: 'gen-2-BBBBBBBBBBBBBB', costNanos: 0n, accessMode: 'credits' as const };
    const json = JSON.stringify({
      id: original,
      output: [{ id: `msg_${original}_0` }],
      usage: { cost: 0.006, cost_details: { access_mode: 'credits', charged: true } },
    });
    expect(JSON.parse(replayJson(json, original, replay))).toEqual({
      id: replay.generationId,
      output: [{ id: `msg_${replay.generationId}_0` }],
      usage: { cost: 0, cost_details: { access_mode: 'credits', charged: false } },
    });
    const frames = [
      { data: `{"id":"${original}","choices":[{"delta":{"content":"a cost of 1"}}]}` },
      { event: 'done', data: '[DONE]' },
    ];
    expect(replayFrames(frames, original, replay)).toEqual([
      { data: `{"id":"${replay.generationId}","choices":[{"delta":{"content":"a cost of 1"}}]}` },
      { event: 'done', data: '[DONE]' },
    ]);
  });

  it('are stored as versioned text; anything else reads as a miss', () => {
    const answer: CachedAnswer = {
      generationId: 'gen-1',
      model: 'm',
      provider: 'p',
      upstreamModel: 'u',
      headers: {},
      accessMode: 'credits',
      costNanos: 12n,
      finishReason: 'stop',
      json: '{}',
    };
    expect(decodeAnswer(encodeAnswer(answer))).toEqual(answer);
    expect(decodeAnswer('{"v":2}')).toBeUndefined();
    expect(decodeAnswer('not json')).toBeUndefined();
  });
});
