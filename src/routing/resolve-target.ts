// Step 2: model id → catalog entry, provider configuration and the adapter that speaks its API.
import type { Catalog } from '../catalog/catalog.js';
import type { CatalogEntry } from '../catalog/types.js';
import type {
  AdapterModel,
  PricedOptions,
  ProviderAdapter,
  ProviderAdapters,
  ProviderConfig,
} from '../providers/adapter.js';
import { PRICE_OPTIONS, type PriceOption } from '../core/served-options.js';
import type { ProviderRegistry } from '../providers/registry.js';
import { providerEnvPrefix } from '../providers/registry.js';
import { GatewayError } from '../core/gateway-error.js';
import type { ProviderKeyMode } from '../db/tables/provider-keys.js';
import type { Redact } from '../providers/redact-credentials.js';

export interface Target {
  /** The model as the chosen endpoint serves it (its upstream provider and model, prices, context). */
  entry: CatalogEntry;
  provider: ProviderConfig;
  adapter: ProviderAdapter;
  model: AdapterModel;
  /**
   * Set when the endpoint is called with the organization's own key (`provider.apiKey` is then that key, `entry` is
   * priced at the BYOK fee and `adapter` removes the key from vendor text): such attempts never touch the shared
   * circuit breaker, and their refusals name the organization's key.
   */
  byok?: { organizationId: string; mode: ProviderKeyMode; redact: Redact };
}

/** Where targets come from: the catalog, the providers configured here and the adapters of this build. */
export interface TargetSources {
  catalog: Catalog;
  providers: ProviderRegistry;
  adapters: ProviderAdapters;
}

export function resolveTarget(
  catalog: Catalog,
  providers: ProviderRegistry,
  adapters: ProviderAdapters,
  modelId: string,
): Target {
  const resolved = catalog.resolve(modelId);
  if (!resolved.ok) {
    throw new GatewayError(resolved.reason === 'malformed' ? 400 : 404, resolved.message, {
      model: modelId,
      reason: resolved.reason,
    });
  }
  return targetForEntry(resolved.entry, providers, adapters);
}

/** The target of a resolved entry's own (primary) endpoint; 503 when its provider is not configured here. */
export function targetForEntry(entry: CatalogEntry, providers: ProviderRegistry, adapters: ProviderAdapters): Target {
  const provider = providers.getProvider(entry.upstreamProvider);
  if (!provider?.apiKey) {
    throw new GatewayError(
      503,
      `Provider ${entry.upstreamProvider} is not configured on this gateway (the operator has not set ${providerEnvPrefix(entry.upstreamProvider)}_API_KEY)`,
      {
        provider: entry.upstreamProvider,
        model: entry.id,
        reason: 'provider_not_configured',
      },
    );
  }
  const adapter = adapters[provider.kind];
  if (!adapter) {
    throw new GatewayError(
      503,
      `Provider ${provider.id} needs the ${provider.kind} adapter, which this gateway build does not include`,
      {
        provider: provider.id,
        reason: 'provider_not_configured',
      },
    );
  }
  return targetFor(entry, provider, adapters);
}

/** The target for one endpoint (entry as that endpoint serves it) whose provider is configured. */
export function targetFor(entry: CatalogEntry, provider: ProviderConfig, adapters: ProviderAdapters): Target {
  const model: AdapterModel = {
    id: entry.id,
    upstreamModel: entry.upstreamModel,
    supportsReasoning: entry.supportsReasoning,
    maxOutputTokens: entry.maxOutputTokens,
  };
  const priced = pricedOptionsOf(entry);
  if (priced) model.pricedOptions = priced;
  return { entry, provider, adapter: adapters[provider.kind]!, model };
}

/** The served values the entry's multipliers price, by option; undefined when none. */
function pricedOptionsOf(entry: CatalogEntry): PricedOptions | undefined {
  const multipliers = entry.pricing.multipliers;
  if (!multipliers) return undefined;
  const out: Partial<Record<PriceOption, readonly string[]>> = {};
  for (const option of PRICE_OPTIONS) {
    const factors = multipliers[option];
    if (factors) out[option] = Object.keys(factors);
  }
  return out;
}
