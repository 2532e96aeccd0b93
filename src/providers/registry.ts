// Provider endpoints and credentials, built once at startup from the catalog's defaults and the
// environment:
//   <PROVIDER>_API_KEY   credential (absent → provider unconfigured; requests answer 503)
//   <PROVIDER>_BASE_URL  endpoint override (e.g. a proxy or a self-hosted compatible server)
// PROVIDER is the catalog provider id upper-cased with every non-alphanumeric turned into "_"
// (openai → OPENAI_API_KEY, x-ai → X_AI_API_KEY, openrouter → OPENROUTER_API_KEY).
// Vendor-customary aliases are accepted for the key, the canonical name winning when both are set:
//   x-ai:   XAI_API_KEY     (xAI's SDKs and docs use it)
//   google: GEMINI_API_KEY  (Google's Gemini SDKs and docs use it)
import type { Catalog } from '../catalog/catalog.js';
import type { ProviderConfig } from './adapter.js';
import type { WireProtocol } from '../core/wire-protocol.js';
import { bundleOf, PROVIDER_BUNDLES } from './bundles.js';
import type { ProviderBundle } from './provider-bundle.js';
import { ProviderConfigError } from './provider-config-error.js';

const API_KEY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'x-ai': ['XAI_API_KEY'],
  google: ['GEMINI_API_KEY'],
};

export { ProviderConfigError };

/** "x-ai" → "X_AI": the prefix of a provider's environment variables. */
export function providerEnvPrefix(providerId: string): string {
  return providerId.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

function nonEmpty(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

/** Validates an http(s) base URL from `variable`; the value itself is not echoed (it may embed
 *  credentials), only what is wrong with it. Trailing slashes are dropped so paths join cleanly. */
function checkBaseUrl(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProviderConfigError(
      variable,
      `${variable} must be an absolute http(s) URL; the value could not be parsed as a URL`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderConfigError(variable, `${variable} must be an http(s) URL, got protocol "${url.protocol}"`);
  }
  return value.replace(/\/+$/, '');
}

export class ProviderRegistry {
  private readonly byId: ReadonlyMap<string, ProviderConfig>;

  constructor(configs: readonly ProviderConfig[]) {
    this.byId = new Map(configs.map((c) => [c.id, c]));
  }

  /** The provider's endpoint and credential, or undefined for a provider the catalog does not name. */
  getProvider(id: string): ProviderConfig | undefined {
    return this.byId.get(id);
  }

  /** True when the operator supplied an API key for the provider. */
  isConfigured(id: string): boolean {
    return this.byId.get(id)?.apiKey !== undefined;
  }

  list(): ProviderConfig[] {
    return [...this.byId.values()];
  }
}

/** The upstream protocols a provider speaks, as its kind's bundle says (OpenAI-compatible vendors: vendors.ts). */
export function upstreamProtocols(
  provider: Pick<ProviderConfig, 'id' | 'kind' | 'quirks' | 'protocols'>,
  bundles: readonly ProviderBundle[] = PROVIDER_BUNDLES,
): readonly WireProtocol[] {
  return provider.protocols ?? bundleOf(provider.kind, bundles)?.upstreamProtocols(provider) ?? [];
}

/** Builds a ProviderConfig per upstream the catalog names (its providers and the subscription upstream, configured
 *  alike: PASS_API_KEY / PASS_BASE_URL) from the environment. Throws ProviderConfigError on an invalid
 *  <PROVIDER>_BASE_URL, at startup rather than on the first request. */
export function loadProviderConfigs(
  env: NodeJS.ProcessEnv,
  catalog: Pick<Catalog, 'upstreams'>,
  bundles: readonly ProviderBundle[] = PROVIDER_BUNDLES,
): ProviderRegistry {
  const configs = catalog.upstreams().map((p): ProviderConfig => {
    const prefix = providerEnvPrefix(p.id);
    const keyNames = [`${prefix}_API_KEY`, ...(API_KEY_ALIASES[p.id] ?? [])];
    const apiKey = keyNames.map((n) => nonEmpty(env, n)).find((v) => v !== undefined);
    const baseUrlVar = `${prefix}_BASE_URL`;
    const override = nonEmpty(env, baseUrlVar);
    const config: ProviderConfig = {
      id: p.id,
      kind: p.kind,
      baseUrl: override ? checkBaseUrl(baseUrlVar, override) : p.baseUrl,
    };
    if (apiKey !== undefined) config.apiKey = apiKey;
    config.protocols = upstreamProtocols(config, bundles);
    return config;
  });
  return new ProviderRegistry(configs);
}
