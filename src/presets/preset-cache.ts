// Organizations' presets kept in memory, by organization: a request naming `@preset/<slug>` reads them with no
// database round trip. An organization's latest versions are loaded on its first such request (having none is kept
// too); a pinned older version is loaded once and kept beside them (versions never change). Everything of an
// organization is dropped when its presets change: by invalidate() in this process, by the database's notification
// (migration 0021) from any other, and, as a backstop for a missed one, after `ttlMs`. While notifications cannot be
// heard, every request loads (the rule of the provider-key cache, routing/provider-key-cache.ts).
import type { PresetReference, PresetVersion } from '../core/preset.js';

export interface PresetCacheOptions {
  /** The latest version of each of the organization's presets. */
  loadLatest: (organizationId: string) => Promise<PresetVersion[]>;
  /** One version of one preset, or undefined when it has none by that number. */
  loadVersion: (organizationId: string, reference: Required<PresetReference>) => Promise<PresetVersion | undefined>;
  /** How long an organization's presets may be served without loading them again; 0: every request loads. */
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

/** An organization's presets as one request sees them. */
export interface OrganizationPresets {
  /** The latest version of each preset, by slug. */
  readonly latest: ReadonlyMap<string, PresetVersion>;
}

interface Entry {
  presets: OrganizationPresets;
  /** Pinned versions other than the latest, by `slug@version` (absent ones too: null). */
  pinned: Map<string, PresetVersion | null>;
  expiresAt: number;
}

/** At most this many pinned versions are kept per organization: a client walking every version cannot grow memory. */
const MAX_PINNED = 64;

export class PresetCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a load that started before one must not store what it read. */
  private epoch = 0;
  private enabled = true;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: PresetCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get active(): boolean {
    return this.enabled && this.options.ttlMs > 0;
  }

  /** The organization's presets: from memory while fresh, else loaded (and kept). */
  presetsOf(organizationId: string): OrganizationPresets | Promise<OrganizationPresets> {
    const entry = this.fresh(organizationId);
    return entry ? entry.presets : this.load(organizationId).then((loaded) => loaded.presets);
  }

  /** The version a reference names (the latest when it pins none), or undefined when there is none. */
  async find(organizationId: string, reference: PresetReference): Promise<PresetVersion | undefined> {
    const entry = this.fresh(organizationId) ?? (await this.load(organizationId));
    const latest = entry.presets.latest.get(reference.slug);
    if (reference.version === undefined || latest === undefined) return latest;
    // A version above the latest cannot exist; the latest itself is already here.
    if (reference.version >= latest.version) return reference.version === latest.version ? latest : undefined;
    const key = `${reference.slug}@${reference.version}`;
    const kept = entry.pinned.get(key);
    if (kept !== undefined) return kept ?? undefined;
    const epoch = this.epoch;
    const loaded = await this.options.loadVersion(organizationId, { slug: reference.slug, version: reference.version });
    if (epoch === this.epoch && this.entries.get(organizationId) === entry && entry.pinned.size < MAX_PINNED)
      entry.pinned.set(key, loaded ?? null);
    return loaded;
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

  private fresh(organizationId: string): Entry | undefined {
    const entry = this.entries.get(organizationId);
    if (entry === undefined || !this.active) return undefined;
    if (entry.expiresAt > this.now()) return entry;
    this.entries.delete(organizationId);
    return undefined;
  }

  private async load(organizationId: string): Promise<Entry> {
    const epoch = this.epoch;
    const versions = await this.options.loadLatest(organizationId);
    const entry: Entry = {
      presets: { latest: new Map(versions.map((v) => [v.slug, v])) },
      pinned: new Map(),
      expiresAt: this.now() + this.options.ttlMs,
    };
    if (this.active && epoch === this.epoch) {
      while (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next();
        if (oldest.done === true) break;
        this.entries.delete(oldest.value);
      }
      this.entries.set(organizationId, entry);
    }
    return entry;
  }
}
