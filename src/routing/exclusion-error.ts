// The 4xx (or 503) that says why no endpoint can serve a request: one reason per endpoint, in metadata.endpoints.
import type { CatalogEntry } from '../catalog/types.js';
import type { RequestFacts } from '../core/request-facts.js';
import { GatewayError } from '../core/gateway-error.js';
import { checkRequest } from './check-request.js';
import { resolveTarget, type TargetSources } from './resolve-target.js';
import { providerEnvPrefix } from '../providers/registry.js';

export type ExclusionReason =
  | 'provider_excluded'
  | 'provider_not_configured'
  | 'image_input_not_supported'
  | 'file_input_not_supported'
  | 'tools_not_supported'
  | 'context_length_exceeded'
  | 'max_price_exceeded'
  | 'parameters_not_supported'
  | 'endpoint_unavailable'
  | 'provider_key_unusable';

export interface Exclusion {
  model: string;
  provider: string;
  reason: ExclusionReason;
  entry: CatalogEntry;
}

const DESCRIPTIONS: Record<ExclusionReason, string> = {
  provider_excluded: 'excluded by provider.only, provider.ignore or provider.order with allow_fallbacks false',
  provider_not_configured: 'provider not configured on this gateway',
  image_input_not_supported: 'does not accept image input',
  file_input_not_supported: 'does not accept PDF documents',
  tools_not_supported: 'does not support tool calling',
  context_length_exceeded: 'prompt exceeds its context window',
  max_price_exceeded: 'priced above provider.max_price',
  parameters_not_supported: 'does not support every parameter sent (provider.require_parameters)',
  endpoint_unavailable: 'circuit breaker open after repeated failures',
  provider_key_unusable:
    "the organization's own key for this provider cannot be decrypted by this gateway (its master key is not configured here)",
};

/** Temporary or operator-side obstacles: the request itself is fine. */
const UNAVAILABLE: readonly ExclusionReason[] = [
  'provider_not_configured',
  'endpoint_unavailable',
  'provider_key_unusable',
];
/** Reasons checkRequest and resolveTarget already word for a single endpoint. */
const SINGLE_MESSAGES: readonly ExclusionReason[] = [
  'provider_not_configured',
  'image_input_not_supported',
  'tools_not_supported',
  'context_length_exceeded',
];

export function exclusionError(exclusions: Exclusion[], facts: RequestFacts, sources: TargetSources): GatewayError {
  const reasons = [...new Set(exclusions.map((e) => e.reason))];
  if (exclusions.length === 1 && SINGLE_MESSAGES.includes(exclusions[0].reason)) {
    // The same answer as without routing (resolveTarget / checkRequest throw it).
    try {
      if (exclusions[0].reason === 'provider_not_configured')
        resolveTarget(sources.catalog, sources.providers, sources.adapters, exclusions[0].model);
      else checkRequest(facts, exclusions[0].entry);
    } catch (err) {
      if (err instanceof GatewayError) return err;
      throw err;
    }
  }
  const status = reasons.every((r) => UNAVAILABLE.includes(r)) ? 503 : 400;
  const reason = reasons.length === 1 ? reasons[0] : 'no_endpoint_available';
  const list = exclusions.map((e) => `${e.model} via ${e.provider}: ${describe(e)}`).join('; ');
  // A fresh gateway without provider keys lands here for every model with fallbacks: say what to set first.
  const message =
    reason === 'provider_not_configured'
      ? `No provider of ${[...new Set(exclusions.map((e) => e.model))].join(', ')} is configured on this gateway: the operator sets ${[
          ...new Set(exclusions.map((e) => `${keyVariable(e.provider)} (${e.provider})`)),
        ].join(' or ')}`
      : `No endpoint can serve this request: ${list}`;
  return new GatewayError(status, message, {
    reason,
    endpoints: exclusions.map((e) => ({ model: e.model, provider: e.provider, reason: e.reason })),
  });
}

/** The variable that configures a provider (the registry reads `<PROVIDER>_API_KEY`, aliases aside). */
function keyVariable(provider: string): string {
  return `${providerEnvPrefix(provider)}_API_KEY`;
}

function describe(exclusion: Exclusion): string {
  const text = DESCRIPTIONS[exclusion.reason];
  return exclusion.reason === 'provider_not_configured' ? `${text} (set ${keyVariable(exclusion.provider)})` : text;
}
