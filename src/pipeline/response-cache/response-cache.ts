// The response cache of this process: its store (memory or Redis), the answers being recorded until their
// generation records say whether they succeeded, the price of a hit, and the hit and miss counts (metrics).
import type { NewGeneration } from '../../db/tables/generations.js';
import type { Logger } from '../../logger.js';
import type { ResponseCacheStore } from './cache-store.js';
import { decodeAnswer, encodeAnswer, type CachedAnswer } from './cached-answer.js';

export interface ResponseCacheObserver {
  responseCacheHit(apiFormat: string): void;
  responseCacheMiss(apiFormat: string): void;
}

/** Told of the generation record of the answer it records (AnswerRecorder). */
export interface RecordWatcher {
  settled(record: NewGeneration): void;
}

const PPM = 1_000_000n;

export class ResponseCache {
  /** Counts hits and misses (Prometheus), when metrics are on. */
  observer?: ResponseCacheObserver;
  /** Answers being recorded, by generation id, until their record is settled. */
  private readonly watching = new Map<string, RecordWatcher>();

  constructor(
    readonly store: ResponseCacheStore,
    private readonly settings: {
      /** Entries above this many bytes are not kept (MODELGATE_RESPONSE_CACHE_MAX_ENTRY_KB). */
      maxEntryBytes: number;
      /** What a hit costs, parts per million of the original's charge (MODELGATE_RESPONSE_CACHE_PRICE_FRACTION). */
      priceFractionPpm: number;
    },
    private readonly logger: Logger,
  ) {}

  get maxEntryBytes(): number {
    return this.settings.maxEntryBytes;
  }

  async lookup(key: string): Promise<CachedAnswer | undefined> {
    const text = await this.store.get(key);
    return text === undefined ? undefined : decodeAnswer(text);
  }

  /** Keeps a complete, successful answer; never throws (a store that fails leaves the next request a miss). */
  async keep(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    try {
      await this.store.set(key, encodeAnswer(answer), ttlSeconds);
    } catch (err) {
      this.logger.warn({ err }, 'could not store a response-cache entry');
    }
  }

  /**
   * What a hit on `answer` is charged: the operator's fraction of the original charge, rounded half up. Only credits
   * are charged: a hit on a free or pass/ answer costs nothing and uses no quota.
   */
  chargeFor(answer: Pick<CachedAnswer, 'accessMode' | 'costNanos'>): bigint {
    if (answer.accessMode !== 'credits' || answer.costNanos <= 0n) return 0n;
    return (answer.costNanos * BigInt(this.settings.priceFractionPpm) + PPM / 2n) / PPM;
  }

  watch(generationId: string, watcher: RecordWatcher): void {
    this.watching.set(generationId, watcher);
  }

  unwatch(generationId: string): void {
    this.watching.delete(generationId);
  }

  /** Every settled generation record (SettlementQueue.observer): the recording it finishes, if any. */
  observe(record: Pick<NewGeneration, 'id'> & NewGeneration): void {
    if (this.watching.size === 0) return;
    const watcher = this.watching.get(record.id);
    if (!watcher) return;
    this.watching.delete(record.id);
    watcher.settled(record);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
