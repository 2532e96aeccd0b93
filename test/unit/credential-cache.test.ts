// CredentialCache: hits, TTL, single flight, invalidation racing a lookup, size bound, disabled modes.
import { describe, expect, it, vi } from 'vitest';
import { CredentialCache } from '../../src/auth/credential-cache.js';
import type { Principal } from '../../src/auth/principal.js';
import { loadConfig } from '../../src/config.js';

function principal(id: string, rateLimitRpm: number | null = null): Principal {
  return {
    kind: 'api_key',
    organizationId: `usr_${id}`,
    memberUserId: `usr_${id}`,
    role: 'owner',
    email: `${id}@example.com`,
    credentialId: `key_${id}`,
    limits: { rateLimitRpm, rateLimitTpm: null, freeRequestsPerDay: null, creditLimitNanos: null },
  };
}

/** A loader whose answers the test releases by hand, to hold lookups in flight. */
function gatedLoader() {
  const pending: Array<(value: Principal | undefined) => void> = [];
  const load = vi.fn(() => new Promise<Principal | undefined>((resolve) => pending.push(resolve)));
  return {
    load,
    release: (value: Principal | undefined) => pending.shift()!(value),
    get waiting() {
      return pending.length;
    },
  };
}

function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('CredentialCache', () => {
  it('loads once, then answers from memory until the TTL passes', async () => {
    const time = clock();
    const cache = new CredentialCache({ ttlMs: 30_000, now: time.now });
    const load = vi.fn(async () => principal('a'));
    expect(await cache.lookup('h-a', load)).toEqual(principal('a'));
    time.advance(29_999);
    expect(await cache.lookup('h-a', load)).toEqual(principal('a'));
    expect(load).toHaveBeenCalledTimes(1);
    time.advance(1);
    expect(await cache.lookup('h-a', load)).toEqual(principal('a'));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not cache an unknown credential, so a key created a moment later works at once', async () => {
    const cache = new CredentialCache({ ttlMs: 30_000 });
    const load = vi
      .fn<() => Promise<Principal | undefined>>()
      .mockResolvedValueOnce(undefined)
      .mockResolvedValueOnce(principal('b'));
    expect(await cache.lookup('h-b', load)).toBeUndefined();
    expect(await cache.lookup('h-b', load)).toEqual(principal('b'));
    expect(cache.size).toBe(1);
  });

  it('shares one database query between concurrent lookups of the same hash', async () => {
    const cache = new CredentialCache({ ttlMs: 30_000 });
    const gate = gatedLoader();
    const first = cache.lookup('h-c', gate.load);
    const second = cache.lookup('h-c', gate.load);
    const other = cache.lookup('h-other', gate.load);
    expect(gate.load).toHaveBeenCalledTimes(2); // one for h-c, one for h-other
    gate.release(principal('c'));
    gate.release(principal('other'));
    expect(await first).toEqual(principal('c'));
    expect(await second).toBe(await first);
    expect(await other).toEqual(principal('other'));
  });

  it('does not let a lookup that started before invalidate(hash) store its stale result', async () => {
    const cache = new CredentialCache({ ttlMs: 30_000 });
    const gate = gatedLoader();
    const stale = cache.lookup('h-d', gate.load);
    cache.invalidate('h-d'); // e.g. the key was deleted while its row was being read
    // A lookup after the invalidation must not join the stale query: it starts its own.
    const fresh = cache.lookup('h-d', gate.load);
    expect(gate.load).toHaveBeenCalledTimes(2);
    gate.release(principal('d', 60)); // the stale read, finishing last-but-one
    expect(await stale).toEqual(principal('d', 60));
    expect(cache.size).toBe(0);
    gate.release(undefined); // the fresh read sees the key deleted
    expect(await fresh).toBeUndefined();
    const after = vi.fn(async () => undefined);
    expect(await cache.lookup('h-d', after)).toBeUndefined();
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('does not let a lookup that started before invalidateAll() store its result', async () => {
    const cache = new CredentialCache({ ttlMs: 30_000 });
    const gate = gatedLoader();
    const inFlight = cache.lookup('h-e', gate.load);
    cache.invalidateAll();
    gate.release(principal('e'));
    await inFlight;
    expect(cache.size).toBe(0);
  });

  it('drops an entry on invalidate(hash), and every entry on invalidateAll()', async () => {
    const cache = new CredentialCache({ ttlMs: 30_000 });
    const load = vi.fn(async () => principal('f'));
    await cache.lookup('h-f', load);
    await cache.lookup('h-g', load);
    cache.invalidate('h-f');
    await cache.lookup('h-f', load);
    await cache.lookup('h-g', load);
    expect(load).toHaveBeenCalledTimes(3);
    cache.invalidateAll();
    await cache.lookup('h-f', load);
    await cache.lookup('h-g', load);
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('keeps at most maxEntries, evicting the least recently stored', async () => {
    const cache = new CredentialCache({ ttlMs: 30_000, maxEntries: 3 });
    const load = vi.fn(async () => principal('x'));
    for (const hash of ['1', '2', '3', '4']) await cache.lookup(hash, load);
    expect(cache.size).toBe(3);
    expect(load).toHaveBeenCalledTimes(4);
    await cache.lookup('2', load); // still cached
    await cache.lookup('3', load);
    await cache.lookup('4', load);
    expect(load).toHaveBeenCalledTimes(4);
    await cache.lookup('1', load); // was evicted
    expect(load).toHaveBeenCalledTimes(5);
    expect(cache.size).toBe(3);
  });

  it('asks the database every time with a TTL of 0', async () => {
    const cache = new CredentialCache({ ttlMs: 0 });
    const load = vi.fn(async () => principal('h'));
    await cache.lookup('h-h', load);
    await cache.lookup('h-h', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
    expect(cache.active).toBe(false);
  });

  it('asks the database every time while disabled, and starts empty when enabled again', async () => {
    const cache = new CredentialCache({ ttlMs: 30_000 });
    const load = vi.fn(async () => principal('i'));
    await cache.lookup('h-i', load);
    cache.setEnabled(false); // e.g. the notification connection dropped
    expect(cache.size).toBe(0);
    await cache.lookup('h-i', load);
    await cache.lookup('h-i', load);
    expect(load).toHaveBeenCalledTimes(3);
    cache.setEnabled(true);
    await cache.lookup('h-i', load);
    await cache.lookup('h-i', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('does not store a result whose lookup straddled a disable/enable', async () => {
    const cache = new CredentialCache({ ttlMs: 30_000 });
    const gate = gatedLoader();
    const inFlight = cache.lookup('h-j', gate.load);
    cache.setEnabled(false);
    cache.setEnabled(true);
    gate.release(principal('j'));
    await inFlight;
    expect(cache.size).toBe(0);
  });

  it('shares a failing query with every waiter and caches nothing', async () => {
    const cache = new CredentialCache({ ttlMs: 30_000 });
    const load = vi.fn(async () => {
      throw new Error('database down');
    });
    const results = await Promise.allSettled([cache.lookup('h-k', load), cache.lookup('h-k', load)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(load).toHaveBeenCalledTimes(1);
    expect(cache.size).toBe(0);
  });
});

describe('MODELGATE_CREDENTIAL_CACHE_SECONDS', () => {
  it('defaults to 30 s, accepts 0 (off) and rejects nonsense', () => {
    expect(loadConfig({}).credentialCacheTtlMs).toBe(30_000);
    expect(loadConfig({ MODELGATE_CREDENTIAL_CACHE_SECONDS: '0' }).credentialCacheTtlMs).toBe(0);
    expect(() => loadConfig({ MODELGATE_CREDENTIAL_CACHE_SECONDS: '-1' })).toThrow(
      'MODELGATE_CREDENTIAL_CACHE_SECONDS',
    );
  });
});
