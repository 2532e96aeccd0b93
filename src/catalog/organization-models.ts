// An organization's view of the catalog: the catalog's models and aliases, and the organization's own aliases (names
// its members chose for catalog models, carried by the principal) and, for its listings, its presets (`@preset/<slug>`,
// shown as the model their latest version serves). A catalog id or catalog alias always means what the catalog says,
// even when the catalog gains a name an organization had taken first.
import type { Catalog } from './catalog.js';
import type { CatalogEntry } from './types.js';
import { PRESET_PREFIX, presetModelOf, type PresetVersion } from '../core/preset.js';

const NONE: ReadonlyMap<string, string> = new Map();
const NO_PRESETS: ReadonlyMap<string, PresetVersion> = new Map();

export class OrganizationModels {
  private readonly aliasEntries: readonly CatalogEntry[];

  constructor(
    private readonly catalog: Pick<Catalog, 'get' | 'listed' | 'listedEntry'>,
    private readonly aliases: ReadonlyMap<string, string> = NONE,
    /** The latest version of each of the organization's presets, by slug. */
    private readonly presets: ReadonlyMap<string, PresetVersion> = NO_PRESETS,
  ) {
    const entries: CatalogEntry[] = [];
    for (const name of aliases.keys()) {
      const entry = this.ownAlias(name);
      if (entry) entries.push(entry);
    }
    for (const slug of presets.keys()) {
      const entry = this.preset(`${PRESET_PREFIX}${slug}`);
      if (entry) entries.push(entry);
    }
    this.aliasEntries = entries;
  }

  /** Whether the organization has aliases of its own (else requests name catalog ids as they are). */
  get hasOwnAliases(): boolean {
    return this.aliases.size > 0;
  }

  /** Whether the organization's listings show names of its own (aliases or presets), else the catalog's listing. */
  get hasOwnEntries(): boolean {
    return this.aliasEntries.length > 0;
  }

  /** The catalog model id an organization alias (or a preset's latest version) names; any other id as asked. */
  canonical(modelId: string): string {
    if (this.presets.size > 0 && modelId.startsWith(PRESET_PREFIX)) {
      const preset = this.presets.get(modelId.slice(PRESET_PREFIX.length));
      return preset === undefined ? modelId : presetModelOf(preset.settings);
    }
    if (this.aliases.size === 0 || this.catalog.get(modelId)) return modelId;
    return this.aliases.get(modelId) ?? modelId;
  }

  /** The entry `modelId` names here: a catalog id or alias, or one of the organization's aliases. */
  get(modelId: string): CatalogEntry | undefined {
    return this.catalog.get(this.canonical(modelId));
  }

  /** What the organization's model listings show: the catalog's, then its own aliases, each under its name. */
  listed(): readonly CatalogEntry[] {
    return this.aliasEntries.length === 0 ? this.catalog.listed() : [...this.catalog.listed(), ...this.aliasEntries];
  }

  /** How a listing shows `modelId`: the catalog's listing entry, else the organization's alias as listed. */
  listedEntry(modelId: string): CatalogEntry | undefined {
    return this.catalog.listedEntry(modelId) ?? this.ownAlias(modelId) ?? this.preset(modelId);
  }

  /** A preset as listed: the entry of the model its latest version serves, under `@preset/<slug>`. */
  private preset(id: string): CatalogEntry | undefined {
    if (!id.startsWith(PRESET_PREFIX)) return undefined;
    const preset = this.presets.get(id.slice(PRESET_PREFIX.length));
    const entry = preset === undefined ? undefined : this.catalog.get(presetModelOf(preset.settings));
    if (preset === undefined || !entry) return undefined;
    return {
      ...entry,
      id,
      name: `${entry.name} (preset ${preset.slug})`,
      aliasOf: entry.id,
      description: `The organization's preset ${preset.slug}, version ${preset.version}: ${entry.id} with its settings`,
    };
  }

  private ownAlias(name: string): CatalogEntry | undefined {
    if (this.catalog.get(name)) return undefined;
    const target = this.aliases.get(name);
    const entry = target === undefined ? undefined : this.catalog.get(target);
    if (!entry) return undefined;
    return {
      ...entry,
      id: name,
      name: `${entry.name} (alias)`,
      aliasOf: entry.id,
      description: `The organization's name for ${entry.id}`,
    };
  }
}

const views = new WeakMap<object, OrganizationModels>();

/** The view for aliases a principal carries, made once per principal (cached principals share theirs). */
export function organizationModels(
  catalog: Pick<Catalog, 'get' | 'listed' | 'listedEntry'>,
  aliases: ReadonlyMap<string, string> | undefined,
): OrganizationModels {
  const own = aliases !== undefined && aliases.size > 0 ? aliases : undefined;
  // Keyed by the aliases object, or by the catalog for the organizations without aliases (most of them).
  const key = own ?? catalog;
  let view = views.get(key);
  if (view === undefined) {
    view = new OrganizationModels(catalog, own);
    views.set(key, view);
  }
  return view;
}
