// Lookup over the validated catalog: step 2 of a request ("resolve model") and the /models listing.
import { MODEL_ID_FORM, parseModelId } from './model-id.js';
import { PASS_NAMESPACE, type CatalogData, type CatalogEntry, type CatalogProvider } from './types.js';
import { toWireModel, type Model } from './wire-model.js';
import { PASS_UPSTREAM } from './pass-upstream.js';

export type ResolveFailureReason = 'malformed' | 'unknown_provider' | 'unknown_model';

export type ResolveResult =
  | { ok: true; entry: CatalogEntry }
  | { ok: false; reason: ResolveFailureReason; message: string };

/** Free: all four list prices are zero, so no credits are consumed (pass models are never free:
 *  their reference rates measure quota use). */
export function isFree(entry: CatalogEntry): boolean {
  return entry.accessMode === 'free';
}

/** How many ids of the right provider an unknown-model message suggests. */
const SUGGESTIONS = 5;

export class Catalog {
  readonly source: string;
  private readonly byId = new Map<string, CatalogEntry>();
  private readonly byProvider = new Map<string, CatalogEntry[]>();
  private readonly providerById = new Map<string, CatalogProvider>();
  private readonly entries: readonly CatalogEntry[];
  /** Alias name → the entry it stands for. */
  private readonly byAlias = new Map<string, CatalogEntry>();
  /** Alias name → its listing entry. */
  private readonly aliasListing = new Map<string, CatalogEntry>();
  private readonly listedEntries: readonly CatalogEntry[];

  constructor(data: CatalogData) {
    this.source = data.source;
    this.entries = Object.freeze([...data.models]);
    for (const p of data.providers) this.providerById.set(p.id, p);
    for (const e of data.models) {
      this.byId.set(e.id, e);
      const list = this.byProvider.get(e.provider) ?? [];
      list.push(e);
      this.byProvider.set(e.provider, list);
    }
    const aliasEntries: CatalogEntry[] = [];
    for (const alias of data.aliases ?? []) {
      const entry = this.byId.get(alias.model);
      if (!entry) continue;
      this.byAlias.set(alias.name, entry);
      const listed = {
        ...entry,
        id: alias.name,
        name: `${entry.name} (alias)`,
        aliasOf: entry.id,
        description: alias.description ?? `Another name for ${entry.id}`,
      };
      this.aliasListing.set(alias.name, listed);
      aliasEntries.push(listed);
    }
    this.listedEntries = Object.freeze([...this.entries, ...aliasEntries]);
  }

  /** Maps a client's model id to its entry, or says precisely why not (the message is client-facing). */
  resolve(modelId: unknown): ResolveResult {
    const entry = typeof modelId === 'string' ? this.get(modelId) : undefined;
    if (entry) return { ok: true, entry };
    const parts = parseModelId(modelId);
    if (!parts) {
      const shown = typeof modelId === 'string' ? JSON.stringify(modelId) : `of type ${typeof modelId}`;
      return {
        ok: false,
        reason: 'malformed',
        message: `Model id ${shown} is malformed: expected the form "${MODEL_ID_FORM}", for example "${this.example()}".`,
      };
    }

    if (parts.provider !== PASS_NAMESPACE && !this.providerById.has(parts.provider)) {
      return {
        ok: false,
        reason: 'unknown_provider',
        message:
          `Unknown provider "${parts.provider}" in model id "${modelId as string}": expected "${MODEL_ID_FORM}" ` +
          `with one of these providers: ${this.providerIds().join(', ')}.`,
      };
    }
    const known = (this.byProvider.get(parts.provider) ?? []).slice(0, SUGGESTIONS).map((e) => e.id);
    const hint = known.length > 0 ? ` Available ${parts.provider} models include: ${known.join(', ')}.` : '';
    return {
      ok: false,
      reason: 'unknown_model',
      message: `Unknown model "${modelId as string}": no model named "${parts.name}" for provider "${parts.provider}" (form "${MODEL_ID_FORM}").${hint}`,
    };
  }

  /** Exact-id lookup; an alias gives the entry it stands for (whose id is the catalog's). */
  get(modelId: string): CatalogEntry | undefined {
    return this.byId.get(modelId) ?? this.byAlias.get(modelId);
  }

  /** Every model, in catalog order. */
  list(): readonly CatalogEntry[] {
    return this.entries;
  }

  /** How a listing shows `modelId`: an alias as its own listing entry, a catalog id as its entry. */
  listedEntry(modelId: string): CatalogEntry | undefined {
    return this.byId.get(modelId) ?? this.aliasListing.get(modelId);
  }

  /** What model listings show: every model, then each alias as its model under the alias's id (`aliasOf` set). */
  listed(): readonly CatalogEntry[] {
    return this.listedEntries;
  }

  /** Providers named in the catalog, with their default endpoints. */
  providers(): CatalogProvider[] {
    return [...this.providerById.values()];
  }

  /** Every upstream a model may be served by: the catalog's providers, then the subscription upstream of pass/. */
  upstreams(): CatalogProvider[] {
    return [...this.providerById.values(), PASS_UPSTREAM];
  }

  provider(id: string): CatalogProvider | undefined {
    return this.providerById.get(id);
  }

  toWireModel(entry: CatalogEntry): Model {
    return toWireModel(entry);
  }

  isFree(entry: CatalogEntry): boolean {
    return isFree(entry);
  }

  private providerIds(): string[] {
    return [...this.providerById.keys()];
  }

  private example(): string {
    return this.entries.find((e) => e.accessMode !== 'pass')?.id ?? 'openai/gpt-5.4-mini';
  }
}
