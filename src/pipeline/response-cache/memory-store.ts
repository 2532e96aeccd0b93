// The in-process store: least recently used entries go first once the bytes held would pass the bound
// (MODELGATE_RESPONSE_CACHE_MB), and an entry past its TTL is never served (it goes when next looked up or evicted).
// Entries are held as UTF-8 Buffers of their own, so the bound counts what is held: a string with any character above
// U+00FF would take two bytes per character in V8's heap (twice its UTF-8 size for mostly-ASCII text), and a small
// Buffer from Node's shared pool would keep its whole pool slab alive.
import type { ResponseCacheStore } from './cache-store.js';

/**
 * What an entry holds beyond its bytes and key: the map slot, the entry, the Buffer object and its backing store's
 * header. Counted so that many small entries cannot hold much more than the bound.
 */
export const ENTRY_OVERHEAD_BYTES = 512;

interface Entry {
  value: Buffer;
  bytes: number;
  expiresAt: number;
}

export class MemoryCacheStore implements ResponseCacheStore {
  readonly kind = 'memory';
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(
    private readonly capacityBytes: number,
    private readonly maxEntryBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.held -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value.toString('utf8');
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.remove(key);
    const size = Buffer.byteLength(value, 'utf8');
    // The key is a hex digest: one byte a character.
    if (key.length + size > this.maxEntryBytes) return;
    const bytes = key.length + size + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.capacityBytes) return;
    const buffer = Buffer.allocUnsafeSlow(size);
    buffer.write(value, 'utf8');
    this.entries.set(key, { value: buffer, bytes, expiresAt: this.now() + ttlSeconds * 1000 });
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.capacityBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }

  bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.held = 0;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }
}
