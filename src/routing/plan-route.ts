// Step 2 with routing: the request's model (and `models` fallbacks) → the endpoints that may serve it, in the order
// to try them, filtered by the `provider` preferences and by what each endpoint can do. The common request (one
// endpoint, no routing fields) takes the single-target path: no extra allocation beyond the one-element list.
import type { Catalog } from '../catalog/catalog.js';
import type { CatalogEndpoint, CatalogEntry } from '../catalog/types.js';
import { GatewayError } from '../core/gateway-error.js';
import { usdToNanos } from '../core/money.js';
import { targetFor, targetForEntry, type Target, type TargetSources } from './resolve-target.js';
import { checkRequest, requireChatModel, requireUserMessage, type CheckedRequest } from './check-request.js';
import type { ProviderPreferences, RequestFacts } from '../core/request-facts.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import type { EndpointStats } from './endpoint-stats.js';
import { exclusionError, type Exclusion, type ExclusionReason } from './exclusion-error.js';
import { keyChoices, ownKeyTarget, type KeyChoice, type OwnKeyRouting } from './own-key-targets.js';

/** What planning reads: where targets come from, and how each endpoint has been doing. */
export interface RoutingDeps extends TargetSources {
  breaker: CircuitBreaker;
  endpointStats: EndpointStats;
}

export interface RoutePlan {
  /** Candidates in the order to try them; never empty. Admission reserves for the one whose worst case costs most. */
  targets: Target[];
  checked: CheckedRequest;
}

type Preferences = ProviderPreferences;

/** The routing fields of a request (OpenRouter's), the same on every front door (RequestFacts carries them). */
export interface RoutingFields {
  /** Fallback models, tried after `model`'s endpoints. */
  models?: readonly string[];
  provider?: Preferences;
}

/**
 * `affineEndpoint`: the endpoint key (`<model id>@<provider>`) that served this conversation's previous turn (session
 * affinity, session-affinity.ts); it goes first among its model's endpoints while its breaker is closed. `own`: the
 * organization's own provider keys, which add (or replace) attempts with them per their mode (own-key-targets.ts).
 */
export function planRoute(
  deps: RoutingDeps,
  facts: RequestFacts,
  { affineEndpoint, own }: { affineEndpoint?: string; own?: OwnKeyRouting } = {},
): RoutePlan {
  if (facts.models === undefined && facts.provider === undefined) {
    const resolved = deps.catalog.resolve(facts.model);
    if (
      resolved.ok &&
      (resolved.entry.endpoints?.length ?? 1) === 1 &&
      !own?.keys.byProvider.has(resolved.entry.upstreamProvider)
    ) {
      const target = targetForEntry(resolved.entry, deps.providers, deps.adapters);
      return { targets: [target], checked: checkRequest(facts, target.entry) };
    }
  }
  return planRoutedRequest(deps, facts, { affineEndpoint, own });
}

/**
 * Whether session affinity can change this request's route: one of its models has several endpoints to choose
 * from, and no explicit `provider.order` decides (the client's order wins over affinity, as on OpenRouter). When
 * not, the pipeline neither looks the conversation up nor remembers it.
 */
export function hasEndpointChoice(catalog: Catalog, model: string, routing: RoutingFields = {}): boolean {
  if (routing.provider?.order?.length) return false;
  if ((catalog.get(model)?.endpoints?.length ?? 1) > 1) return true;
  return routing.models?.some((id) => (catalog.get(id)?.endpoints?.length ?? 1) > 1) ?? false;
}

function planRoutedRequest(
  deps: RoutingDeps,
  facts: RequestFacts,
  { affineEndpoint, own }: { affineEndpoint: string | undefined; own: OwnKeyRouting | undefined },
): RoutePlan {
  const models = resolveModels(deps.catalog, facts.model, facts.models);
  requireUserMessage(facts);
  const { estimatedPromptTokens } = facts;
  const prefs: Preferences = facts.provider ?? {};
  const needs = {
    images: facts.hasImages,
    files: facts.hasFiles,
    tools: facts.hasTools,
    sent: facts.sentParameters,
    tokens: estimatedPromptTokens,
  };
  const filter: EndpointFilter = {
    prefs,
    needs,
    maxPrompt: prefs.max_price?.prompt === undefined ? undefined : usdToNanos(prefs.max_price.prompt),
    maxCompletion: prefs.max_price?.completion === undefined ? undefined : usdToNanos(prefs.max_price.completion),
  };

  const exclusions: Exclusion[] = [];
  const targets: Target[] = [];
  for (const model of models) {
    const kept: CatalogEndpoint[] = [];
    const keysOf = new Map<CatalogEndpoint, KeyChoice[]>();
    for (const endpoint of model.endpoints ?? [
      { key: `${model.id}@${model.upstreamProvider}`, provider: model.upstreamProvider, entry: model },
    ]) {
      const ownKey = own?.keys.byProvider.get(endpoint.provider);
      const usable: KeyChoice[] = [];
      let reason: ExclusionReason | undefined;
      for (const choice of keyChoices(ownKey)) {
        const excluded = exclusionOf(
          deps,
          { endpoint, ownKey: choice === 'own' ? (ownKey?.key ?? null) : undefined },
          filter,
        );
        if (excluded === undefined) usable.push(choice);
        // The organization's own key says most about why it cannot be served.
        else if (reason === undefined || choice === 'own') reason = excluded;
      }
      if (usable.length === 0) {
        exclusions.push({ model: model.id, provider: endpoint.provider, reason: reason!, entry: endpoint.entry });
        continue;
      }
      kept.push(endpoint);
      keysOf.set(endpoint, usable);
    }
    const ordered = orderEndpoints(deps, kept, { prefs, affineEndpoint });
    const chosen = prefs.allow_fallbacks === false && !prefs.order?.length ? ordered.slice(0, 1) : ordered;
    for (const endpoint of chosen) {
      const provider = deps.providers.getProvider(endpoint.provider)!;
      for (const choice of keysOf.get(endpoint)!) {
        const key = own?.keys.byProvider.get(endpoint.provider);
        targets.push(
          choice === 'own' && own && key
            ? ownKeyTarget({ entry: endpoint.entry, provider, adapters: deps.adapters, own, key })
            : targetFor(endpoint.entry, provider, deps.adapters),
        );
      }
    }
  }
  if (targets.length === 0) throw exclusionError(exclusions, facts, deps);

  return { targets, checked: { estimatedPromptTokens } };
}

function resolveModels(catalog: Catalog, model: string, fallbacks: readonly string[] = []): CatalogEntry[] {
  const ids = [model];
  for (const id of fallbacks) if (!ids.includes(id)) ids.push(id);
  const entries = ids.map((id, i) => {
    const resolved = catalog.resolve(id);
    if (!resolved.ok) {
      throw new GatewayError(resolved.reason === 'malformed' ? 400 : 404, resolved.message, {
        model: id,
        reason: resolved.reason,
        ...(i > 0 ? { field: 'models' } : {}),
      });
    }
    requireChatModel(resolved.entry);
    return resolved.entry;
  });
  // One admission per request: its access mode (pass quota or credits) must hold for whichever model serves.
  const pass = entries[0].accessMode === 'pass';
  const mixed = entries.find((e) => (e.accessMode === 'pass') !== pass);
  if (mixed) {
    throw new GatewayError(
      400,
      `models cannot mix pass/ subscription models and pay-as-you-go models (${entries[0].id} and ${mixed.id})`,
      {
        reason: 'models_mixed_access',
        field: 'models',
      },
    );
  }
  return entries;
}

interface Needs {
  images: boolean;
  files: boolean;
  tools: boolean;
  sent: readonly string[];
  tokens: number;
}

/** What an endpoint must meet: the client's provider preferences, the request's needs and its price caps. */
interface EndpointFilter {
  prefs: Preferences;
  needs: Needs;
  maxPrompt?: bigint;
  maxCompletion?: bigint;
}

/**
 * Why the endpoint cannot serve, called with the operator's key (`ownKey` undefined) or the organization's own one
 * (its text; null when this gateway cannot open it). An own key needs no operator key and is not judged by the
 * shared circuit breaker.
 */
function exclusionOf(
  deps: RoutingDeps,
  { endpoint, ownKey }: { endpoint: CatalogEndpoint; ownKey?: string | null },
  { prefs, needs, maxPrompt, maxCompletion }: EndpointFilter,
): ExclusionReason | undefined {
  const { provider, entry } = endpoint;
  if (prefs.only && !prefs.only.includes(provider)) return 'provider_excluded';
  if (prefs.ignore?.includes(provider)) return 'provider_excluded';
  if (prefs.allow_fallbacks === false && prefs.order?.length && !prefs.order.includes(provider))
    return 'provider_excluded';
  const config = deps.providers.getProvider(provider);
  if (!config || !deps.adapters[config.kind]) return 'provider_not_configured';
  if (ownKey === null) return 'provider_key_unusable';
  if (ownKey === undefined && !config.apiKey) return 'provider_not_configured';
  if (needs.images && !entry.supportsImages) return 'image_input_not_supported';
  // PDFs need a vision model (check-request.ts) and a provider that takes file parts (vendors.ts `fileParts`).
  if (needs.files && (!entry.supportsImages || deps.adapters[config.kind]?.acceptsFileParts?.(config) === false))
    return 'file_input_not_supported';
  if (needs.tools && !entry.supportsTools) return 'tools_not_supported';
  if (needs.tokens > entry.contextLength) return 'context_length_exceeded';
  if (maxPrompt !== undefined && entry.pricing.base.input > maxPrompt) return 'max_price_exceeded';
  if (maxCompletion !== undefined && entry.pricing.base.output > maxCompletion) return 'max_price_exceeded';
  if (prefs.require_parameters === true) {
    if (needs.sent.includes('reasoning') && !entry.supportsReasoning) return 'parameters_not_supported';
    if (entry.unsupportedParameters?.some((name) => needs.sent.includes(name))) return 'parameters_not_supported';
  }
  if (ownKey === undefined && deps.breaker.state(endpoint.key) === 'open') return 'endpoint_unavailable';
  return undefined;
}

/**
 * `order` first (in its order), then the conversation's affine endpoint when its breaker is closed (it holds the
 * conversation's prompt cache; never with `order`, see hasEndpointChoice), then healthy before half-open, then the
 * `sort` metric (default price), then catalog order.
 */
function orderEndpoints(
  deps: RoutingDeps,
  endpoints: CatalogEndpoint[],
  { prefs, affineEndpoint }: { prefs: Preferences; affineEndpoint: string | undefined },
): CatalogEndpoint[] {
  if (endpoints.length < 2) return endpoints;
  const order = prefs.order ?? [];
  const rank = (e: CatalogEndpoint) => {
    const at = order.indexOf(e.provider);
    return at < 0 ? order.length : at;
  };
  const sort = prefs.sort;
  const metric = (e: CatalogEndpoint): number | undefined =>
    sort === 'latency'
      ? deps.endpointStats.latencyMs(e.key)
      : sort === 'throughput'
        ? negate(deps.endpointStats.tokensPerSecond(e.key))
        : undefined;
  const affine = (e: CatalogEndpoint) =>
    e.key === affineEndpoint && !order.length && deps.breaker.state(e.key) === 'closed' ? 0 : 1;
  const decorated = endpoints.map((endpoint, index) => ({
    endpoint,
    index,
    rank: rank(endpoint),
    affine: affine(endpoint),
    half: deps.breaker.state(endpoint.key) === 'half_open' ? 1 : 0,
    metric: metric(endpoint),
  }));
  decorated.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.affine - b.affine ||
      a.half - b.half ||
      compareMetric(a.metric, b.metric) ||
      comparePrice(a.endpoint.entry, b.endpoint.entry) ||
      a.index - b.index,
  );
  return decorated.map((d) => d.endpoint);
}

function negate(value: number | undefined): number | undefined {
  return value === undefined ? undefined : -value;
}

/** Measured before unmeasured; lower first. */
function compareMetric(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  return a - b;
}

function comparePrice(a: CatalogEntry, b: CatalogEntry): number {
  const pa = a.pricing.base;
  const pb = b.pricing.base;
  if (pa.input !== pb.input) return pa.input < pb.input ? -1 : 1;
  if (pa.output !== pb.output) return pa.output < pb.output ? -1 : 1;
  return 0;
}
