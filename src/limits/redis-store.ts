// The connection to the Redis that carries shared limits, and the fail-open policy: a command that fails or takes
// longer than MODELGATE_REDIS_TIMEOUT_MS yields `undefined` and the caller decides with this instance's own
// limiter. Requests never wait on a Redis that is down (no offline queue, no per-command retries) and never fail
// because of it; the switch is logged once each way and counted, and ioredis keeps reconnecting in the background.
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { FREE_SCRIPT, RATE_SCRIPT } from './redis-scripts.js';
import { BREAKER_SCRIPT } from './redis-breaker-script.js';

/** RATE_SCRIPT's answer: status, ms to wait, the refusing budget (1-based), then per budget: requests left, ms until full, token level. */
export type RateReply = (number | string)[];
export type FreeReply = [status: number, accountUsed: number, keyUsed: number];
export type BreakerReply = [openedAt: number, granted: number];
/**
 * What a fallback decision was about: a rate limit, a free allowance, an endpoint's circuit breaker, or a
 * conversation's endpoint (session affinity).
 */
export type SharedOperation = 'rate' | 'free' | 'breaker' | 'affinity';

/** What the store reports to metrics. */
export interface SharedLimitsObserver {
  /** A limit decision was taken by this instance alone because Redis did not answer. */
  redisFallback(operation: SharedOperation): void;
  redisUp(up: boolean): void;
}

interface LimitCommands {
  /** src/limits/redis-scripts.ts documents the arguments; the first is the number of keys that follow. */
  mgRate(keyCount: number, ...keysAndArgs: (string | number)[]): Promise<RateReply>;
  mgFree(keyCount: number, ...keysAndArgs: (string | number)[]): Promise<FreeReply>;
  /** src/limits/redis-breaker-script.ts documents the arguments. */
  mgBreaker(key: string, trialKey: string, ...args: (string | number)[]): Promise<BreakerReply>;
}

/** What a caller of `run` may send: the scripts above, and plain reads and writes (session affinity). */
type StoreCommands = LimitCommands & Pick<Redis, 'get' | 'set'>;

export interface RedisStoreOptions {
  url: string;
  prefix: string;
  timeoutMs: number;
  logger: Logger;
  observer?: SharedLimitsObserver;
}

/** How long start-up waits for the first connection before serving on per-instance limits. */
const CONNECT_WAIT_MS = 2000;
/**
 * After a command failed on an open connection (a stalled or overloaded Redis answers nothing until the command
 * timeout), only one request per this interval tries Redis again; the others decide locally at once instead of
 * each waiting out the timeout.
 */
const PROBE_INTERVAL_MS = 1000;

export class RedisLimitStore {
  readonly prefix: string;
  private readonly redis: Redis & LimitCommands;
  private down = false;
  /** While down on an open connection: when the next request may try Redis again. */
  private nextProbeAt = 0;
  private readonly recoveries: (() => void)[] = [];

  constructor(private readonly options: RedisStoreOptions) {
    this.prefix = options.prefix;
    this.redis = new Redis(options.url, {
      lazyConnect: true,
      // Fail at once while disconnected instead of queueing: a request must not wait for Redis to come back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.timeoutMs,
      connectTimeout: Math.max(options.timeoutMs, 1000),
      // Keep reconnecting for as long as the process lives; the limits recover with the connection.
      retryStrategy: (times) => Math.min(times * 200, 2000),
      // Concurrent requests' scripts leave in one write.
      enableAutoPipelining: true,
    }) as Redis & LimitCommands;
    // Without numberOfKeys, each call says how many keys it passes (one budget or two).
    this.redis.defineCommand('mgRate', { lua: RATE_SCRIPT });
    this.redis.defineCommand('mgFree', { lua: FREE_SCRIPT });
    this.redis.defineCommand('mgBreaker', { numberOfKeys: 2, lua: BREAKER_SCRIPT });
    // Without a listener ioredis prints every connection error; the state changes are logged below instead.
    this.redis.on('error', () => undefined);
    this.redis.on('ready', () => this.markUp());
    this.redis.on('close', () => this.markDown(new Error('connection closed')));
  }

  get commands(): LimitCommands {
    return this.redis;
  }

  /** True while decisions fall back to this instance (the last command failed, or the connection is gone). */
  get isDown(): boolean {
    return this.down;
  }

  /** Connects, waiting up to two seconds; an unreachable Redis is logged and the gateway starts on its own limits. */
  async connect(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CONNECT_WAIT_MS)));
    await Promise.race([this.redis.connect().catch((err: unknown) => this.markDown(err)), waited]);
    clearTimeout(timer);
    if (this.redis.status !== 'ready') this.markDown(new Error(`no connection within ${CONNECT_WAIT_MS} ms`));
    else this.options.observer?.redisUp(true);
  }

  /** Called when Redis answers again after an outage (fallback state is dropped: it described the outage). */
  onRecover(fn: () => void): void {
    this.recoveries.push(fn);
  }

  /** Runs a command; `undefined` means "decide without Redis" (and is counted). */
  async run<T>(operation: SharedOperation, command: (redis: StoreCommands) => Promise<T>): Promise<T | undefined> {
    if (this.redis.status !== 'ready') {
      this.markDown(new Error(`connection ${this.redis.status}`));
      this.options.observer?.redisFallback(operation);
      return undefined;
    }
    if (this.down && Date.now() < this.nextProbeAt) {
      this.options.observer?.redisFallback(operation);
      return undefined;
    }
    try {
      const reply = await command(this.redis);
      this.markUp();
      return reply;
    } catch (err) {
      this.nextProbeAt = Date.now() + PROBE_INTERVAL_MS;
      this.markDown(err);
      this.options.observer?.redisFallback(operation);
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.redis.removeAllListeners('close');
    this.redis.removeAllListeners('ready');
    try {
      if (this.redis.status === 'ready') await this.redis.quit();
      else this.redis.disconnect();
    } catch {
      this.redis.disconnect();
    }
  }

  private markDown(err: unknown): void {
    if (this.down) return;
    this.down = true;
    this.options.observer?.redisUp(false);
    this.options.logger.warn(
      { err: (err as Error)?.message ?? String(err) },
      'Redis unreachable: rate limits, free allowances and circuit breakers fall back to this instance alone until it answers again',
    );
  }

  private markUp(): void {
    this.nextProbeAt = 0;
    if (!this.down) return;
    this.down = false;
    this.options.observer?.redisUp(true);
    this.options.logger.info('Redis answers again: rate limits and free allowances are shared again');
    for (const fn of this.recoveries) fn();
  }
}
