// Session affinity: which endpoint served a conversation's last turn, so the next turn goes there again while it is
// healthy. A provider's prompt cache lives on the endpoint that wrote it; a conversation that alternates endpoints
// (provider.sort = latency re-ranks them after every turn) pays a cache write on every turn instead of a read.
// Entries are keyed by a hash of (account, requested model, the client's session key): the session key itself
// (a client's thread id, Claude Code's session id) is never stored. Each served turn refreshes the entry's TTL.
// Kept in this process (bounded LRU) or, with MODELGATE_REDIS_URL, in Redis so that every instance shares it.
import { createHash } from 'node:crypto';
import type { RedisLimitStore } from '../limits/redis-store.js';

/** Where the endpoint of each conversation is remembered. Values are endpoint keys (`<model id>@<provider>`). */
export interface AffinityStore {
  /** The endpoint that served this conversation last, if still remembered. A shared store may have to ask Redis. */
  get(key: string): string | undefined | Promise<string | undefined>;
  /** Remembers (or refreshes) the serving endpoint; a shared store writes in the background and never rejects. */
  set(key: string, endpoint: string): void | Promise<void>;
}

export interface AffinityOptions {
  /** How long a conversation stays affine after its last served turn, ms. */
  ttlMs: number;
  /** Most conversations remembered by the in-process store (least recently served dropped first). */
  maxEntries: number;
  /** Milliseconds; injectable for tests. */
  clock?: () => number;
}

/** The store key: account, requested model and session together, hashed (the session key is a client's identifier). */
export function affinityKey(userId: string, model: string, session: string): string {
  return createHash('sha256').update(`${userId}\n${model}\n${session}`).digest('base64url');
}

export class InMemoryAffinityStore implements AffinityStore {
  /** Insertion order is recency: every set re-inserts, so the first entry is the least recently served. */
  private readonly entries = new Map<string, { endpoint: string; expiresAt: number }>();
  private readonly clock: () => number;

  constructor(private readonly options: AffinityOptions) {
    this.clock = options.clock ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.endpoint;
  }

  set(key: string, endpoint: string): void {
    this.entries.delete(key);
    this.entries.set(key, { endpoint, expiresAt: this.clock() + this.options.ttlMs });
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

/**
 * Shared by every instance: `GET`, and `SET … PX ttl` on each served turn. While Redis does not answer, this
 * instance's own store decides (it sees every turn all along), as the shared circuit breaker does.
 */
export class RedisAffinityStore implements AffinityStore {
  readonly local: InMemoryAffinityStore;

  constructor(
    private readonly store: RedisLimitStore,
    private readonly options: AffinityOptions,
  ) {
    this.local = new InMemoryAffinityStore(options);
  }

  async get(key: string): Promise<string | undefined> {
    const reply = await this.store.run('affinity', (redis) => redis.get(this.redisKey(key)));
    // null: Redis answered that it has none; undefined: Redis did not answer.
    return reply === undefined ? this.local.get(key) : (reply ?? undefined);
  }

  async set(key: string, endpoint: string): Promise<void> {
    this.local.set(key, endpoint);
    await this.store.run('affinity', (redis) => redis.set(this.redisKey(key), endpoint, 'PX', this.options.ttlMs));
  }

  private redisKey(key: string): string {
    return `${this.store.prefix}affinity:${key}`;
  }
}

/** This process's store, or the one shared through Redis when MODELGATE_REDIS_URL is set. */
export function createAffinityStore(options: AffinityOptions, redis: RedisLimitStore | undefined): AffinityStore {
  return redis ? new RedisAffinityStore(redis, options) : new InMemoryAffinityStore(options);
}
