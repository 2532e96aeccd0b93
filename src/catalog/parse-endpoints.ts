// A model entry's further endpoints (`endpoints: [...]` in catalog JSON). The entry's own fields describe its primary
// endpoint; each further one names a provider and may override the upstream model name, prices, context and
// capabilities (anything not given is the primary's). Each becomes a CatalogEntry view of the model as it serves it.
import { readModelPricing } from './read-pricing.js';
import {
  fail,
  readBoolean,
  readInteger,
  readObject,
  readOptionalInteger,
  readString,
  rejectUnknownKeys,
} from './read-fields.js';
import {
  PASS_NAMESPACE,
  type CatalogEndpoint,
  type CatalogEntry,
  type CatalogProvider,
  type ModelPricing,
} from './types.js';

const ENDPOINT_KEYS = [
  'provider',
  'upstream_model',
  'context_length',
  'max_output_tokens',
  'supports_reasoning',
  'supports_images',
  'supports_tools',
  'pricing',
  'reference',
  'tiers',
  'unsupported_parameters',
  'notes',
];

export function readParameterList(raw: unknown, where: string): readonly string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string' || v === '')) {
    fail(where, 'unsupported_parameters must be an array of parameter names');
  }
  return Object.freeze([...raw] as string[]);
}

function withoutMultipliers(pricing: ModelPricing): ModelPricing {
  if (!pricing.multipliers) return pricing;
  const { multipliers: _dropped, ...rest } = pricing;
  return rest;
}

export function endpointKey(modelId: string, provider: string): string {
  return `${modelId}@${provider}`;
}

/** Fills `primary.endpoints`: the primary itself, then the further endpoints listed in `raw`. */
export function attachEndpoints(
  primary: CatalogEntry,
  raw: unknown,
  providers: Map<string, CatalogProvider>,
  where: string,
): void {
  const endpoints: CatalogEndpoint[] = [
    { key: endpointKey(primary.id, primary.upstreamProvider), provider: primary.upstreamProvider, entry: primary },
  ];
  if (raw !== undefined) {
    if (!Array.isArray(raw)) fail(where, 'endpoints must be an array');
    raw.forEach((value, i) => {
      const at = `${where} endpoints[${i}]`;
      const obj = readObject(value, at);
      rejectUnknownKeys(obj, ENDPOINT_KEYS, at);
      const provider = readString(obj, 'provider', at);
      if (!providers.has(provider) && !(primary.accessMode === 'pass' && provider === PASS_NAMESPACE)) {
        fail(at, `provider "${provider}" is not listed under "providers"`);
      }
      if (endpoints.some((e) => e.provider === provider)) fail(at, `provider "${provider}" already serves this model`);
      const contextLength =
        obj.context_length === undefined ? primary.contextLength : readInteger(obj, 'context_length', at, 1);
      const maxOutputTokens =
        obj.max_output_tokens === undefined
          ? primary.maxOutputTokens !== undefined
            ? Math.min(primary.maxOutputTokens, contextLength)
            : undefined
          : readOptionalInteger(obj, 'max_output_tokens', at, 1);
      if (maxOutputTokens !== undefined && maxOutputTokens > contextLength)
        fail(at, `max_output_tokens ${maxOutputTokens} exceeds context_length ${contextLength}`);
      const priceKey = primary.accessMode === 'pass' ? 'reference' : 'pricing';
      const otherKey = primary.accessMode === 'pass' ? 'pricing' : 'reference';
      if (obj[otherKey] !== undefined) fail(at, `${otherKey} is not allowed here; this model uses ${priceKey}`);
      // The primary's multipliers price its own vendor's options (service_tier, speed): another provider names its own.
      const pricing =
        obj[priceKey] === undefined
          ? withoutMultipliers(primary.pricing)
          : readModelPricing(obj[priceKey], obj.tiers, contextLength, `${at} ${priceKey}`);
      const flag = (key: string, fallback: boolean) => (obj[key] === undefined ? fallback : readBoolean(obj, key, at));
      const entry: CatalogEntry = {
        ...primary,
        upstreamProvider: provider,
        upstreamModel: obj.upstream_model === undefined ? primary.upstreamModel : readString(obj, 'upstream_model', at),
        contextLength,
        maxOutputTokens,
        supportsReasoning: flag('supports_reasoning', primary.supportsReasoning),
        supportsImages: flag('supports_images', primary.supportsImages),
        supportsTools: flag('supports_tools', primary.supportsTools),
        pricing,
        unsupportedParameters:
          obj.unsupported_parameters === undefined
            ? primary.unsupportedParameters
            : readParameterList(obj.unsupported_parameters, at),
      };
      endpoints.push({ key: endpointKey(primary.id, provider), provider, entry });
    });
  }
  Object.freeze(endpoints);
  for (const endpoint of endpoints) {
    endpoint.entry.endpoints = endpoints;
    endpoint.entry.endpointKey = endpoint.key;
  }
}
