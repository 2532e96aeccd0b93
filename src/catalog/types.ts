// In-memory shape of the model catalog after validation. Prices are already converted to integer
// nano-dollars per 1M tokens, and cache prices already have the fallback rule applied (see
// read-pricing.ts), so billing never touches floating point or re-derives anything.
import type { AccessMode } from '../core/access-mode.js';
import type { ProviderKind } from '../core/provider-kind.js';
import type { HostedToolFee } from '../core/tool-uses.js';
import type { PriceOption } from '../core/served-options.js';

/** One column set of prices: token prices in nano-dollars per 1M tokens, the per-call fee in nano-dollars per call. */
export interface PriceSet {
  /** Uncached prompt tokens. */
  input: bigint;
  /** Completion tokens, reasoning included. */
  output: bigint;
  /** Prompt tokens read from the vendor's cache. */
  cachedRead: bigint;
  /** Prompt tokens written to the vendor's cache (with its default, 5-minute, lifetime). */
  cachedWrite: bigint;
  /** Prompt tokens written to the cache with a 1-hour lifetime (Anthropic: 2× input, against 1.25× for 5 minutes). */
  cachedWrite1h: bigint;
  /**
   * One web search request the vendor runs for a hosted search tool (Anthropic's and OpenAI's web search, Gemini's
   * Google Search grounding), in nano-dollars per request, on top of the tokens; 0: not charged (no such tool).
   */
  webSearch: bigint;
  /**
   * The other hosted tools' fees, nano-dollars per unit the vendor bills (core/tool-uses.ts): per file search call, per
   * 1 GB code interpreter container, per container-hour of Anthropic's code execution (billed 5 minutes a container),
   * per Google Maps grounded prompt; 0: not charged.
   */
  toolFees: ToolFeePrices;
}

export type ToolFeePrices = Readonly<Record<HostedToolFee, bigint>>;

/** Long-prompt tier: applies to the WHOLE request when promptTokens > abovePromptTokens. */
export interface PriceTier extends PriceSet {
  abovePromptTokens: number;
}

/**
 * Factors on every token price for a served option's value (core/served-options.ts), in billionths (2.5× is
 * 2_500_000_000n): `service_tier: { priority: 2.5×, flex: 0.5× }`. A value absent here is not priced: the native lanes
 * leave a request's option with it out, and a served one costs the standard price.
 */
export type PriceMultipliers = Readonly<Partial<Record<PriceOption, Readonly<Record<string, bigint>>>>>;

/** A price multiplier of 1, in the billionths PriceMultipliers holds. */
export const MULTIPLIER_ONE = 1_000_000_000n;

export interface ModelPricing {
  /** Prices for prompts at or below the first tier's threshold (or all prompts without tiers). */
  base: PriceSet;
  /** Strictly ascending by abovePromptTokens. */
  tiers: PriceTier[];
  /** Factors on the token prices (of every tier) for the options the vendor serves at another price; absent: none. */
  multipliers?: PriceMultipliers;
}

export interface CatalogEntry {
  /** Gateway id: "<provider>/<model-name>" or "pass/<slug>". */
  id: string;
  /** Set only on a listing's entry for an alias (`id` is then the alias): the catalog id it stands for. */
  aliasOf?: string;
  /** First path segment of the id ("openai", "x-ai", "pass"). */
  provider: string;
  /** Provider that serves the request. Equals `provider` except for pass/ models. */
  upstreamProvider: string;
  /** Name the vendor knows the model by. */
  upstreamModel: string;
  name: string;
  description?: string;
  /** Unix seconds, approximate release date. */
  created: number;
  contextLength: number;
  maxOutputTokens?: number;
  supportsReasoning: boolean;
  supportsImages: boolean;
  supportsTools: boolean;
  accessMode: AccessMode;
  /** Credits/free models: list prices charged. Pass models: the published reference rates (the
   *  value of usage measured against the quota; not charged). */
  pricing: ModelPricing;
  /** Request parameters this (primary) endpoint does not support; `provider.require_parameters` avoids it then. */
  unsupportedParameters?: readonly string[];
  /**
   * Every endpoint that can serve the model, primary first (endpoints[0].entry is this entry). Optional so code
   * that builds entries by hand keeps working; the parser always fills it.
   */
  endpoints?: readonly CatalogEndpoint[];
  /** The circuit-breaker key of the endpoint this entry describes (set with `endpoints`). */
  endpointKey?: string;
  /**
   * Set on embedding models (POST /embeddings), which no chat door serves. Their `contextLength` is the most tokens
   * one input may have, and their prices have no output side.
   */
  embedding?: EmbeddingSpec;
}

/** What an embedding model returns and accepts. */
export interface EmbeddingSpec {
  /** Vector length without `dimensions`. */
  defaultDimensions: number;
  /** The `dimensions` a request may ask for, inclusive; both equal `defaultDimensions` when the model takes none. */
  minDimensions: number;
  maxDimensions: number;
}

/**
 * One way to serve a model: a provider and its upstream model name. `entry` is the model as this endpoint serves
 * it (upstream provider and model, prices, context, capabilities), so pricing and records need no routing logic.
 */
export interface CatalogEndpoint {
  /** "<model id>@<provider>": the endpoint's circuit-breaker key. */
  key: string;
  provider: string;
  entry: CatalogEntry;
}

/** Provider defaults from the catalog; credentials never live here. */
export interface CatalogProvider {
  id: string;
  name: string;
  kind: ProviderKind;
  /** Default base URL of the endpoint the current adapter speaks to. */
  baseUrl: string;
  /** Vendor's native API base, for the native adapters (anthropic, gemini) when they land. */
  nativeBaseUrl?: string;
}

/** Another name for a catalog model (catalog.json `aliases`). */
export interface CatalogAlias {
  name: string;
  /** The catalog id it stands for. */
  model: string;
  description?: string;
}

export interface CatalogData {
  providers: CatalogProvider[];
  models: CatalogEntry[];
  /** Other names for catalog models; none when the catalog lists none. */
  aliases?: CatalogAlias[];
  /** Where the data came from, for error messages and logs. */
  source: string;
}

/** Reserved id namespace for subscription models ("pass/<slug>"). */
export const PASS_NAMESPACE = 'pass';
