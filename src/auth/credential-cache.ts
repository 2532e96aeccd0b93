// Resolved principals kept in memory by credential hash, so an authenticated request needs no database round trip.
//
// Keys are the SHA-256 hex of the secret (never the secret itself). A deleted key or a changed limit must take
// effect at once, so entries are dropped by invalidate(hash) (in-process deletes, database notifications) and, as a
// backstop for missed notifications, expire after `ttlMs`. Only successful resolutions are cached: an unknown key
// is asked for again next time, so a key created a moment ago (maybe on another instance) works at once.
import type { Principal } from './principal.js';

export interface CredentialCacheOptions {
  /** How long an entry may be served without asking the database again; 0 disables the cache. */
  ttlMs: number;
  /** Oldest entries are evicted beyond this many. */
  maxEntries?: number;
  /** Milliseconds clock (injected in tests). */
  now?: () => number;
}

interface Entry {
  principal: Principal;
  expiresAt: number;
}

interface Flight {
  promise: Promise<Principal | undefined>;
  /** The cache epoch when the lookup started: a different epoch at the end means an invalidation happened meanwhile. */
  epoch: number;
  /** Set when this very hash was invalidated while the lookup ran. */
  invalidated: boolean;
}

export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly flights = new Map<string, Flight>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Bumped by invalidateAll(): lookups that started before it must not store what they read. */
  private epoch = 0;
  /** Off while cross-process invalidation is unavailable (listener disconnected): every lookup asks the database. */
  private enabled = true;

  constructor(options: CredentialCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Whether lookups may be served from memory right now. */
  get active(): boolean {
    return this.enabled && this.ttlMs > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The principal for `hash`: from memory while fresh, else from `load` (one query shared by concurrent callers
   * of the same hash). `load` returns `undefined` for an unknown or deleted credential, which is not cached.
   *
   * The cache hit is a plain Map lookup by hash. That is not a timing side channel worth a constant-time
   * comparison: the attacker controls the secret, not its SHA-256, so learning which hash prefixes exist gives
   * no way to construct a secret that matches one. The database path keeps its constant-time check (authenticate.ts).
   */
  async lookup(hash: string, load: () => Promise<Principal | undefined>): Promise<Principal | undefined> {
    if (!this.active) return load();
    const entry = this.entries.get(hash);
    if (entry !== undefined) {
      if (entry.expiresAt > this.now()) return entry.principal;
      this.entries.delete(hash);
    }
    const running = this.flights.get(hash);
    if (running !== undefined) return running.promise;

    const flight: Flight = { promise: load(), epoch: this.epoch, invalidated: false };
    this.flights.set(hash, flight);
    try {
      const principal = await flight.promise;
      if (principal !== undefined && this.active && flight.epoch === this.epoch && !flight.invalidated) {
        this.store(hash, principal);
      }
      return principal;
    } finally {
      if (this.flights.get(hash) === flight) this.flights.delete(hash);
    }
  }

  /** Forget one credential; a lookup of it already running will not store its (possibly stale) result. */
  invalidate(hash: string): void {
    this.entries.delete(hash);
    const flight = this.flights.get(hash);
    if (flight !== undefined) {
      flight.invalidated = true;
      // Later callers start a fresh query instead of joining one that may have read the old row.
      this.flights.delete(hash);
    }
  }

  /** Forget everything (a user changed, notifications may have been missed, ...). */
  invalidateAll(): void {
    this.epoch += 1;
    this.entries.clear();
    this.flights.clear();
  }

  /** Turn memory serving off (forgetting everything) or back on; see `enabled`. */
  setEnabled(enabled: boolean): void {
    this.invalidateAll();
    this.enabled = enabled;
  }

  private store(hash: string, principal: Principal): void {
    // Re-inserting moves the hash to the end, so the Map's insertion order stays oldest-first.
    this.entries.delete(hash);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(hash, { principal, expiresAt: this.now() + this.ttlMs });
  }
}
