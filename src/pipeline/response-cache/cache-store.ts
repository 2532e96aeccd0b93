// Where cached answers live: this process's memory (memory-store.ts) or a Redis that every instance shares
// (redis-store.ts). Values are the entries' JSON text; a store never fails a request (an unreadable store is a miss).
export interface ResponseCacheStore {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | undefined>;
  /** Keeps `value` for `ttlSeconds`; a value above the store's entry bound is not kept. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Bytes of live entries (memory: held here, with each entry's overhead; Redis: written by this instance and not yet expired). */
  bytes(): number;
  close(): Promise<void>;
}

/** Bytes an entry takes in Redis: its key and its text as UTF-8. */
export function entryBytes(key: string, value: string): number {
  return key.length + Buffer.byteLength(value, 'utf8');
}
