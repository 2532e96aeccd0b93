// Organizations' own provider keys kept in memory, opened, by organization: routing reads them on every request with
// no database round trip. An organization's keys are loaded on its first request (its having none is kept too) and
// dropped when they change: by invalidate() in this process, by the database's notification (migration 0019) from
// any other, and, as a backstop for a missed one, after `ttlMs`. While notifications cannot be heard, every request
// loads (the credential cache's rule, auth/credential-cache.ts).
import { openSecret, type MasterKeys } from '../auth/secret-box.js';
import type { ProviderKeyMode, ProviderKeyRow } from '../db/tables/provider-keys.js';
import { credentialRedactor, type Redact } from '../providers/redact-credentials.js';

export interface OwnProviderKey {
  mode: ProviderKeyMode;
  /** The key in clear; undefined when no master key configured here opens it. */
  key?: string;
}

/** An organization's own keys by provider id, with the redactor that removes each of them from vendor text. */
export interface OrganizationKeys {
  organizationId: string;
  byProvider: ReadonlyMap<string, OwnProviderKey>;
  redact: Redact;
}

export interface ProviderKeyCacheOptions {
  load: (organizationId: string) => Promise<Pick<ProviderKeyRow, 'provider' | 'mode' | 'key_ciphertext'>[]>;
  /** The master keys that open sealed keys (current and previous). */
  keys: MasterKeys;
  /** How long an organization's keys may be served without loading them again; 0: every request loads. */
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  keys: OrganizationKeys;
  expiresAt: number;
}

export class ProviderKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a load that started before one must not store what it read. */
  private epoch = 0;
  private enabled = true;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: ProviderKeyCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get active(): boolean {
    return this.enabled && this.options.ttlMs > 0;
  }

  /** The organization's own keys: from memory while fresh, else loaded (and kept). */
  keysOf(organizationId: string): OrganizationKeys | Promise<OrganizationKeys> {
    const entry = this.entries.get(organizationId);
    if (entry !== undefined && this.active) {
      if (entry.expiresAt > this.now()) return entry.keys;
      this.entries.delete(organizationId);
    }
    return this.load(organizationId);
  }

  invalidate(organizationId: string): void {
    this.epoch += 1;
    this.entries.delete(organizationId);
  }

  invalidateAll(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  setEnabled(enabled: boolean): void {
    this.invalidateAll();
    this.enabled = enabled;
  }

  private async load(organizationId: string): Promise<OrganizationKeys> {
    const epoch = this.epoch;
    const rows = await this.options.load(organizationId);
    const byProvider = new Map<string, OwnProviderKey>();
    for (const row of rows) byProvider.set(row.provider, { mode: row.mode, key: this.open(row.key_ciphertext) });
    const keys: OrganizationKeys = {
      organizationId,
      byProvider,
      redact: credentialRedactor([...byProvider.values()].flatMap((k) => (k.key === undefined ? [] : [k.key]))),
    };
    if (this.active && epoch === this.epoch) {
      while (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next();
        if (oldest.done === true) break;
        this.entries.delete(oldest.value);
      }
      this.entries.set(organizationId, { keys, expiresAt: this.now() + this.options.ttlMs });
    }
    return keys;
  }

  private open(sealed: string): string | undefined {
    try {
      return openSecret(sealed, this.options.keys);
    } catch {
      return undefined;
    }
  }
}
