// Catalog entry → the /models wire shape. Prices follow OpenRouter's convention: decimal strings of
// USD per single token, without exponent ("0.0000025"), so clients that already parse OpenRouter's
// list read ours unchanged. Tiered models show their base (shortest-prompt) prices, as OpenRouter does.
import type { components } from '../../generated/openapi-types.js';
import { formatScaledDecimal } from '../core/money.js';
import { HOSTED_TOOL_FEES } from '../core/tool-uses.js';
import { PRICE_OPTIONS } from '../core/served-options.js';
import type { CatalogEntry, CatalogEndpoint, PriceMultipliers } from './types.js';

type Schemas = components['schemas'];
/** The /models listing's entry, as spec/models emits it. */
export type Model = Schemas['Model'];
export type ModelEndpoint = Schemas['ModelEndpoint'];

// Stored prices are nano-dollars per 1M tokens: USD per token = value × 1e-9 × 1e-6.
const PER_TOKEN_USD_SCALE = 15;
// Per-call fees are nano-dollars per call: USD = value × 1e-9; price multipliers are billionths, likewise.
const NANOS_PER_USD_SCALE = 9;

export function usdPerTokenString(nanosPerMillion: bigint): string {
  return formatScaledDecimal(nanosPerMillion, PER_TOKEN_USD_SCALE);
}

function wirePricing(entry: CatalogEntry): Model['pricing'] {
  const base = entry.pricing.base;
  const pricing: Model['pricing'] = {
    prompt: usdPerTokenString(base.input),
    completion: usdPerTokenString(base.output),
    input_cache_read: usdPerTokenString(base.cachedRead),
    input_cache_write: usdPerTokenString(base.cachedWrite),
  };
  // Only models that price a 1-hour cache write apart (Anthropic) show it; elsewhere it is input_cache_write.
  if (base.cachedWrite1h !== base.cachedWrite) pricing.input_cache_write_1h = usdPerTokenString(base.cachedWrite1h);
  // OpenRouter's `web_search`: USD per search request, shown only where the gateway charges one.
  if (base.webSearch > 0n) pricing.web_search = formatScaledDecimal(base.webSearch, NANOS_PER_USD_SCALE);
  // The other hosted tools' fees, under the catalog's keys and units, likewise only where charged.
  for (const tool of HOSTED_TOOL_FEES) {
    if (base.toolFees[tool] > 0n) pricing[tool] = formatScaledDecimal(base.toolFees[tool], NANOS_PER_USD_SCALE);
  }
  const multipliers = wireMultipliers(entry.pricing.multipliers);
  if (multipliers) pricing.multipliers = multipliers;
  return pricing;
}

/** The factors on the token prices of an option's served values, as decimal strings (held in billionths). */
function wireMultipliers(multipliers: PriceMultipliers | undefined): Model['pricing']['multipliers'] {
  if (!multipliers) return undefined;
  const out: NonNullable<Model['pricing']['multipliers']> = {};
  for (const option of PRICE_OPTIONS) {
    const factors = multipliers[option];
    if (!factors) continue;
    out[option] = Object.fromEntries(
      Object.entries(factors).map(([value, factor]) => [value, formatScaledDecimal(factor, NANOS_PER_USD_SCALE)]),
    );
  }
  return out;
}

/** One endpoint of a model: its provider, prices, context and capabilities. */
export function toWireEndpoint(endpoint: CatalogEndpoint, providerName: string): ModelEndpoint {
  const { entry } = endpoint;
  const wire: ModelEndpoint = {
    provider: endpoint.provider,
    provider_name: providerName,
    context_length: entry.contextLength,
    pricing: wirePricing(entry),
    supports_images: entry.supportsImages,
    supports_tools: entry.supportsTools,
    supports_reasoning: entry.supportsReasoning,
  };
  if (entry.maxOutputTokens !== undefined && entry.maxOutputTokens < entry.contextLength)
    wire.max_completion_tokens = entry.maxOutputTokens;
  return wire;
}

/** What a model produces, as OpenRouter names it: `text` for chat models, `embeddings` for embedding models. */
export function outputModalities(entry: CatalogEntry): string[] {
  return entry.embedding ? ['embeddings'] : ['text'];
}

export function toWireModel(entry: CatalogEntry, providerName: (id: string) => string = (id) => id): Model {
  const model: Model = {
    id: entry.id,
    name: entry.name,
    created: entry.created,
    context_length: entry.contextLength,
    // The effective prices the gateway charges (cache fallbacks applied; see read-pricing.ts).
    pricing: wirePricing(entry),
    supports_reasoning: entry.supportsReasoning,
    supports_images: entry.supportsImages,
    supports_tools: entry.supportsTools,
    access_mode: entry.accessMode,
    architecture: {
      input_modalities: entry.supportsImages ? ['text', 'image'] : ['text'],
      output_modalities: outputModalities(entry),
    },
  };
  if (entry.embedding) {
    model.embedding = {
      default_dimensions: entry.embedding.defaultDimensions,
      min_dimensions: entry.embedding.minDimensions,
      max_dimensions: entry.embedding.maxDimensions,
    };
  }
  if (entry.description !== undefined) model.description = entry.description;
  if (entry.aliasOf !== undefined) model.alias_for = entry.aliasOf;
  // The spec lists max_completion_tokens only when it is below the context window.
  if (entry.maxOutputTokens !== undefined && entry.maxOutputTokens < entry.contextLength) {
    model.max_completion_tokens = entry.maxOutputTokens;
  }
  if (entry.endpoints) model.endpoints = entry.endpoints.map((e) => toWireEndpoint(e, providerName(e.provider)));
  return model;
}
