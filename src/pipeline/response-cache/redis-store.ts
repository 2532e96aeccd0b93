// The shared store: one Redis (MODELGATE_REDIS_URL) for every instance, so an answer one instance stored is a hit on
// all of them. Its own connection, apart from the limits' (a 1 MB value must not queue in front of the small rate
// scripts), with the same fail-open manners: no offline queue, no retries, MODELGATE_REDIS_TIMEOUT_MS per command. A
// Redis that does not answer makes every lookup a miss and every store a no-op, never a failed request. Entries
// expire with their TTL (SET ... EX) and are bounded in size here, before they are sent.
import { Redis } from 'ioredis';
import type { Logger } from '../../logger.js';
import { entryBytes, type ResponseCacheStore } from './cache-store.js';

const MINUTE_MS = 60_000;

/**
 * Bytes of the entries this instance wrote, by the minute they expire in: what `bytes()` reports without asking
 * Redis (at most 1,441 minutes are ever held). A refreshed key counts twice until its first value would have expired.
 */
class ExpiringBytes {
  private readonly byMinute = new Map<number, number>();

  add(bytes: number, expiresAt: number): void {
    const minute = Math.ceil(expiresAt / MINUTE_MS);
    this.byMinute.set(minute, (this.byMinute.get(minute) ?? 0) + bytes);
  }

  live(now: number): number {
    let total = 0;
    for (const [minute, bytes] of this.byMinute) {
      if (minute * MINUTE_MS <= now) this.byMinute.delete(minute);
      else total += bytes;
    }
    return total;
  }
}

export class RedisCacheStore implements ResponseCacheStore {
  readonly kind = 'redis';
  private readonly redis: Redis;
  private readonly written = new ExpiringBytes();
  private warned = false;

  constructor(
    private readonly options: { url: string; prefix: string; timeoutMs: number; maxEntryBytes: number; logger: Logger },
  ) {
    this.redis = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeoutMs,
      connectTimeout: Math.max(options.timeoutMs, 1000),
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    this.redis.on('error', () => undefined);
    this.redis.on('ready', () => (this.warned = false));
  }

  /** Connects in the background: the first requests may miss until it is up, as with any Redis outage. */
  connect(): void {
    this.redis.connect().catch((err: unknown) => this.unavailable(err));
  }

  async get(key: string): Promise<string | undefined> {
    try {
      return (await this.redis.get(this.options.prefix + key)) ?? undefined;
    } catch (err) {
      this.unavailable(err);
      return undefined;
    }
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const bytes = entryBytes(key, value);
    if (bytes > this.options.maxEntryBytes) return;
    try {
      await this.redis.set(this.options.prefix + key, value, 'EX', ttlSeconds);
      this.written.add(bytes, Date.now() + ttlSeconds * 1000);
    } catch (err) {
      this.unavailable(err);
    }
  }

  bytes(): number {
    return this.written.live(Date.now());
  }

  async close(): Promise<void> {
    try {
      if (this.redis.status === 'ready') await this.redis.quit();
      else this.redis.disconnect();
    } catch {
      this.redis.disconnect();
    }
  }

  private unavailable(err: unknown): void {
    if (this.warned) return;
    this.warned = true;
    this.options.logger.warn(
      { err: (err as Error)?.message ?? String(err) },
      'Redis unreachable: the response cache answers misses and stores nothing until it answers again',
    );
  }
}
