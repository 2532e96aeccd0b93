// The in-process store: least recently used entries go first once the entries' bytes would pass the bound
// (MODELGATE_RESPONSE_CACHE_MB), and an entry past its TTL is never served (it goes when next looked up or evicted).
import { entryBytes, type ResponseCacheStore } from './cache-store.js';

interface Entry {
  value: string;
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
    return entry.value;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const bytes = entryBytes(key, value);
    this.remove(key);
    if (bytes > this.maxEntryBytes || bytes > this.capacityBytes) return;
    this.entries.set(key, { value, bytes, expiresAt: this.now() + ttlSeconds * 1000 });
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
