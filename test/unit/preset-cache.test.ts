// The presets cache (presets/preset-cache.ts): an organization's latest versions are loaded once and served from
// memory; a pinned older version is read once and kept; invalidation drops the organization, and a load that raced an
// invalidation is not kept; with the cache off, every request loads.
import { describe, expect, it } from 'vitest';
import { PresetCache } from '../../src/presets/preset-cache.js';
import type { PresetVersion } from '../../src/core/preset.js';

function version(n: number): PresetVersion {
  return { slug: 'coder', version: n, settings: { model: 'openai/gpt-test', system: `v${n}` } };
}

function counting(options: { ttlMs?: number; latest?: number } = {}) {
  const loads = { latest: 0, version: 0 };
  let latest = options.latest ?? 3;
  let gate: Promise<void> | undefined;
  const cache = new PresetCache({
    loadLatest: async () => {
      loads.latest++;
      const seen = latest;
      await gate;
      return [version(seen)];
    },
    loadVersion: async (_org, reference) => {
      loads.version++;
      return reference.version <= latest ? version(reference.version) : undefined;
    },
    ttlMs: options.ttlMs ?? 60_000,
  });
  return {
    cache,
    loads,
    save: () => {
      latest++;
    },
    hold: () => {
      let release = () => {};
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('PresetCache', () => {
  it('serves the latest versions and a pinned one from memory after one load each', async () => {
    const { cache, loads } = counting();
    expect((await cache.find('org', { slug: 'coder' }))?.version).toBe(3);
    expect((await cache.find('org', { slug: 'coder' }))?.version).toBe(3);
    expect((await cache.find('org', { slug: 'coder', version: 3 }))?.version).toBe(3);
    expect((await cache.find('org', { slug: 'coder', version: 1 }))?.settings.system).toBe('v1');
    expect((await cache.find('org', { slug: 'coder', version: 1 }))?.settings.system).toBe('v1');
    expect(await cache.find('org', { slug: 'coder', version: 9 })).toBeUndefined();
    expect(await cache.find('org', { slug: 'other' })).toBeUndefined();
    expect(loads).toEqual({ latest: 1, version: 1 });
  });

  it('invalidation drops the organization; a load that started before it is not kept', async () => {
    const { cache, loads, save, hold } = counting();
    expect((await cache.find('org', { slug: 'coder' }))?.version).toBe(3);
    save();
    cache.invalidate('org');
    expect((await cache.find('org', { slug: 'coder' }))?.version).toBe(4);

    // A load reads version 4, the preset changes to 5 and is announced before that load finishes: not kept.
    cache.invalidate('org');
    const release = hold();
    const racing = cache.find('org', { slug: 'coder' });
    await Promise.resolve();
    save();
    cache.invalidate('org');
    release();
    expect((await racing)?.version).toBe(4);
    expect((await cache.find('org', { slug: 'coder' }))?.version).toBe(5);
    expect(loads.latest).toBe(4);
  });

  it('off (ttl 0, or while changes cannot be heard): every request loads', async () => {
    const { cache, loads } = counting({ ttlMs: 0 });
    await cache.find('org', { slug: 'coder' });
    await cache.find('org', { slug: 'coder' });
    expect(loads.latest).toBe(2);
    const heard = counting();
    heard.cache.setEnabled(false);
    await heard.cache.presetsOf('org');
    await heard.cache.presetsOf('org');
    expect(heard.loads.latest).toBe(2);
  });
});
