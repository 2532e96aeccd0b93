// The in-process store's bound (MODELGATE_RESPONSE_CACHE_MB) against what the process actually retains, measured after
// a full garbage collection: the heap and the Buffers' backing stores. Answers with one character above U+00FF (which
// V8 would hold at two bytes a character as a string), and many small answers (whose per-entry objects count too).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MemoryCacheStore } from '../../src/pipeline/response-cache/memory-store.js';
import { ResponseCache } from '../../src/pipeline/response-cache/response-cache.js';
import type { CachedAnswer } from '../../src/pipeline/response-cache/cached-answer.js';
import { createLogger } from '../../src/logger.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;

function retained(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function answer(i: number, text: string): CachedAnswer {
  return {
    generationId: `gen-${i}`,
    model: 'openai/gpt-test',
    provider: 'openai',
    upstreamModel: 'gpt-test',
    headers: {},
    accessMode: 'credits',
    costNanos: 1n,
    finishReason: 'stop',
    json: JSON.stringify({ id: `gen-${i}`, content: text }),
  };
}

/** Keeps `count` answers made by `text` in a store of `capacity` bytes; what the process holds more afterwards. */
async function growth(
  capacity: number,
  count: number,
  text: (i: number) => string,
): Promise<{ grown: number; store: MemoryCacheStore }> {
  const store = new MemoryCacheStore(capacity, MB);
  const cache = new ResponseCache(store, { maxEntryBytes: MB, priceFractionPpm: 0 }, createLogger('silent'));
  const before = retained();
  for (let i = 0; i < count; i++) await cache.keep(`${i}`.padStart(64, '0'), answer(i, text(i)), 60);
  return { grown: retained() - before, store };
}

describe('the in-process store holds what its bound says', () => {
  it('answers of 900 KB with one € in a 64 MB store', async () => {
    const { grown, store } = await growth(64 * MB, 80, (i) => `${'x'.repeat(900 * 1024)}€${i}`);
    expect(store.bytes()).toBeLessThanOrEqual(64 * MB);
    expect(store.size).toBeGreaterThan(60);
    // The bound plus an eighth for what the test itself leaves behind.
    expect(grown).toBeLessThan(64 * MB * 1.125);
  });

  it('many small answers in an 8 MB store', async () => {
    const { grown, store } = await growth(8 * MB, 40_000, (i) => `short answer ${i} ${'y'.repeat(200)}`);
    expect(store.bytes()).toBeLessThanOrEqual(8 * MB);
    expect(grown).toBeLessThan(8 * MB * 1.125);
  });
});
