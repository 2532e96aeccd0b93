// The circuit breaker shared by every instance through Redis (MODELGATE_REDIS_URL): what one instance sees fail opens
// the endpoint for all of them. Shared per endpoint: the open-since time, the consecutive-failure count and the
// failure-rate window, updated atomically by one Lua script (limits/redis-breaker-script.ts, beside the other scripts
// of the shared store); the half-open trial is owned by one instance at a time (SET NX PX). Each instance keeps a
// mirror of the shared state, so the common request (a closed endpoint checked less than SYNC_MS ago) asks Redis
// nothing before its attempt; outcomes are written without the request waiting for them, and each reply refreshes the
// mirror.
// Redis unreachable: decisions fall back to this instance's own breaker, which sees every outcome all along, so it
// has a history to decide on (logged once by the store, counted as redisFallback('breaker')). Never an error.
import { randomBytes } from 'node:crypto';
import type { BreakerReply, RedisLimitStore } from '../limits/redis-store.js';
import {
  InMemoryCircuitBreaker,
  type BreakerOptions,
  type BreakerState,
  type CircuitBreaker,
} from './circuit-breaker.js';
import { bucketMsOf, WINDOW_BUCKETS } from './outcome-window.js';

/** How long a closed endpoint's mirrored state is trusted before the next request asks Redis again. */
export const SYNC_MS = 1000;

interface Known {
  /** When the shared breaker opened (undefined: closed). */
  openedAt?: number;
  /** When Redis last told us (this instance's clock). */
  readAt: number;
}

export interface RedisBreakerOptions extends BreakerOptions {
  /** Overrides SYNC_MS (tests). */
  syncMs?: number;
  /** Names this instance as the owner of a half-open trial (defaults to a random id). */
  instanceId?: string;
}

export class RedisCircuitBreaker implements CircuitBreaker {
  /** Decides while Redis does not answer; fed every outcome meanwhile too. */
  readonly local: InMemoryCircuitBreaker;
  private readonly known = new Map<string, Known>();
  private readonly clock: () => number;
  private readonly syncMs: number;
  private readonly fixedArgs: (string | number)[];
  private readonly owner: string;

  constructor(
    private readonly store: RedisLimitStore,
    private readonly options: RedisBreakerOptions,
  ) {
    this.local = new InMemoryCircuitBreaker(options);
    this.clock = options.clock ?? Date.now;
    this.syncMs = options.syncMs ?? SYNC_MS;
    this.owner = options.instanceId ?? randomBytes(8).toString('hex');
    const rate = options.failureRate;
    // ARGV[3..8] of the script: threshold, rate percent, window buckets, min requests, cooldown, bucket ms.
    this.fixedArgs = [
      options.failureThreshold,
      rate?.percent ?? 0,
      WINDOW_BUCKETS,
      rate?.minRequests ?? 0,
      options.cooldownMs,
      rate ? bucketMsOf(rate.windowMs) : 1,
    ];
  }

  state(key: string): BreakerState {
    if (this.store.isDown) return this.local.state(key);
    const openedAt = this.known.get(key)?.openedAt;
    if (openedAt === undefined) return 'closed';
    return this.clock() - openedAt < this.options.cooldownMs ? 'open' : 'half_open';
  }

  allowRequest(key: string): boolean | Promise<boolean> {
    if (this.store.isDown) return this.local.allowRequest(key);
    const known = this.known.get(key);
    const now = this.clock();
    if (known && now - known.readAt < this.syncMs) {
      if (known.openedAt === undefined) return true;
      if (now - known.openedAt < this.options.cooldownMs) return false;
    }
    // Not known lately, or half-open (the trial must be claimed in Redis, where only one instance gets it).
    return this.ask(key, 'allow', now).then((reply) => (reply ? reply[1] === 1 : this.local.allowRequest(key)));
  }

  async recordSuccess(key: string): Promise<void> {
    this.local.recordSuccess(key);
    await this.ask(key, 'success', this.clock());
  }

  async recordFailure(key: string): Promise<void> {
    this.local.recordFailure(key);
    await this.ask(key, 'failure', this.clock());
  }

  async refresh(keys: readonly string[]): Promise<void> {
    const now = this.clock();
    await Promise.all(keys.map((key) => this.ask(key, 'read', now)));
  }

  /** Runs the script for one endpoint and mirrors its answer; undefined when Redis did not answer. */
  private async ask(
    key: string,
    mode: 'read' | 'allow' | 'success' | 'failure',
    now: number,
  ): Promise<BreakerReply | undefined> {
    const hash = `${this.store.prefix}breaker:${key}`;
    const reply = await this.store.run('breaker', (redis) =>
      redis.mgBreaker(hash, `${hash}:trial`, mode, now, ...this.fixedArgs, this.owner),
    );
    if (reply) this.known.set(key, { openedAt: reply[0] < 0 ? undefined : Number(reply[0]), readAt: now });
    return reply;
  }
}
