// Validates catalog JSON (the shipped file or a MODELGATE_CATALOG override) and converts it to the
// in-memory CatalogData. Hand-written rather than a JSON Schema so every error can name the entry
// by id and index, and so price conversion happens in the same pass.
import type { AccessMode } from '../core/access-mode.js';
import { PROVIDER_KINDS, type ProviderKind } from '../core/provider-kind.js';
import { parseModelId } from './model-id.js';
import { isZeroPricing, readModelPricing } from './read-pricing.js';
import { attachEndpoints, readParameterList } from './parse-endpoints.js';
import { parseAliases } from './parse-aliases.js';
import { checkEmbeddingPricing, readEmbedding } from './read-embedding.js';
import {
  fail,
  readBoolean,
  readHttpUrl,
  readInteger,
  readObject,
  readOptionalInteger,
  readOptionalString,
  readString,
  rejectUnknownKeys,
  type JsonObject,
} from './read-fields.js';
import { PASS_NAMESPACE, type CatalogData, type CatalogEntry, type CatalogProvider } from './types.js';

const TOP_KEYS = ['$schema', 'version', 'as_of', 'notes', 'sources', 'providers', 'models', 'aliases'];
const PROVIDER_KEYS = ['name', 'kind', 'base_url', 'native_base_url', 'docs'];
const MODEL_KEYS = [
  'id',
  'upstream_model',
  'upstream_provider',
  'name',
  'description',
  'created',
  'context_length',
  'max_output_tokens',
  'supports_reasoning',
  'supports_images',
  'supports_tools',
  'access_mode',
  'pricing',
  'reference',
  'tiers',
  'notes',
  'endpoints',
  'unsupported_parameters',
  'embedding',
];
const ACCESS_MODES: readonly AccessMode[] = ['credits', 'free', 'pass'];
/** Unix seconds before this are fine; a value above is almost surely milliseconds. */
const MAX_UNIX_SECONDS = 10_000_000_000;

function parseProvider(id: string, raw: unknown, source: string): CatalogProvider {
  const where = `${source}: providers.${id}`;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) fail(where, 'provider id must be lower-case letters, digits and "-"');
  if (id === PASS_NAMESPACE) fail(where, `"${PASS_NAMESPACE}" is reserved for subscription models`);
  const obj = readObject(raw, where);
  rejectUnknownKeys(obj, PROVIDER_KEYS, where);
  const kind = obj.kind;
  if (!PROVIDER_KINDS.includes(kind as ProviderKind)) fail(where, `kind must be one of ${PROVIDER_KINDS.join(', ')}`);
  return {
    id,
    name: readOptionalString(obj, 'name', where) ?? id,
    kind: kind as ProviderKind,
    baseUrl: readHttpUrl(obj, 'base_url', where),
    nativeBaseUrl: obj.native_base_url === undefined ? undefined : readHttpUrl(obj, 'native_base_url', where),
  };
}

function parseModel(
  raw: unknown,
  index: number,
  providers: Map<string, CatalogProvider>,
  source: string,
): CatalogEntry {
  const label = typeof (raw as JsonObject | null)?.id === 'string' ? ` ("${(raw as JsonObject).id as string}")` : '';
  const where = `${source}: models[${index}]${label}`;
  const obj = readObject(raw, where);
  rejectUnknownKeys(obj, MODEL_KEYS, where);

  const id = readString(obj, 'id', where);
  const parts = parseModelId(id);
  if (!parts) fail(where, 'id must have the form "<provider>/<model-name>"');
  const declaredMode = obj.access_mode;
  if (declaredMode !== undefined && !ACCESS_MODES.includes(declaredMode as AccessMode)) {
    fail(where, `access_mode must be one of ${ACCESS_MODES.join(', ')}`);
  }
  const isPass = parts.provider === PASS_NAMESPACE;
  if (isPass !== (declaredMode === 'pass')) {
    fail(where, `ids under "${PASS_NAMESPACE}/" and access_mode "pass" go together`);
  }
  if (!isPass && !providers.has(parts.provider)) {
    fail(where, `provider "${parts.provider}" is not listed under "providers"`);
  }
  const upstreamProvider = readOptionalString(obj, 'upstream_provider', where) ?? parts.provider;
  if (!isPass && upstreamProvider !== parts.provider) fail(where, 'upstream_provider is only for pass/ models');
  if (isPass && upstreamProvider !== PASS_NAMESPACE && !providers.has(upstreamProvider)) {
    fail(where, `upstream_provider "${upstreamProvider}" is not listed under "providers"`);
  }

  const embedding = obj.embedding === undefined ? undefined : readEmbedding(obj, where);
  if (embedding && isPass) fail(where, `embedding models cannot be ${PASS_NAMESPACE}/ models`);
  const contextLength = readInteger(obj, 'context_length', where, 1);
  const maxOutputTokens = readOptionalInteger(obj, 'max_output_tokens', where, 1);
  if (maxOutputTokens !== undefined && maxOutputTokens > contextLength) {
    fail(where, `max_output_tokens ${maxOutputTokens} exceeds context_length ${contextLength}`);
  }
  const created = readInteger(obj, 'created', where, 0);
  if (created >= MAX_UNIX_SECONDS) fail(where, 'created must be unix seconds (looks like milliseconds)');

  // Pass models publish reference rates (usage value against quotas); everything else lists prices.
  const priceKey = isPass ? 'reference' : 'pricing';
  const otherKey = isPass ? 'pricing' : 'reference';
  if (obj[otherKey] !== undefined)
    fail(where, `${otherKey} is not allowed here; ${isPass ? 'pass' : 'credits and free'} models use ${priceKey}`);
  if (obj[priceKey] === undefined) fail(where, `${priceKey} is required`);
  const pricing = readModelPricing(obj[priceKey], obj.tiers, contextLength, `${where} ${priceKey}`);
  if (embedding) checkEmbeddingPricing(pricing, where);

  const accessMode: AccessMode = isPass ? 'pass' : isZeroPricing(pricing) ? 'free' : 'credits';
  if (declaredMode !== undefined && declaredMode !== accessMode) {
    fail(where, `access_mode "${String(declaredMode)}" contradicts the prices (they make it "${accessMode}")`);
  }

  const entry: CatalogEntry = {
    id,
    provider: parts.provider,
    upstreamProvider,
    upstreamModel: readString(obj, 'upstream_model', where),
    name: readString(obj, 'name', where),
    description: readOptionalString(obj, 'description', where),
    created,
    contextLength,
    maxOutputTokens,
    // An embedding model has none of the generation capabilities (read-embedding.ts refuses them).
    supportsReasoning: embedding ? false : readBoolean(obj, 'supports_reasoning', where),
    supportsImages: embedding ? false : readBoolean(obj, 'supports_images', where),
    supportsTools: embedding ? false : readBoolean(obj, 'supports_tools', where),
    accessMode,
    pricing,
    unsupportedParameters: readParameterList(obj.unsupported_parameters, where),
  };
  if (embedding) entry.embedding = embedding;
  attachEndpoints(entry, obj.endpoints, providers, where);
  return entry;
}

/** Validates and converts catalog JSON. `source` names the origin in error messages. */
export function parseCatalog(raw: unknown, source: string): CatalogData {
  const top = readObject(raw, source);
  rejectUnknownKeys(top, TOP_KEYS, source);
  const rawProviders = readObject(top.providers, `${source}: providers`);
  const providers = new Map<string, CatalogProvider>();
  for (const [id, value] of Object.entries(rawProviders)) providers.set(id, parseProvider(id, value, source));
  if (providers.size === 0) fail(`${source}: providers`, 'must list at least one provider');

  if (!Array.isArray(top.models)) fail(`${source}: models`, 'must be an array');
  const seen = new Map<string, number>();
  const models = top.models.map((m, i) => {
    const entry = parseModel(m, i, providers, source);
    const previous = seen.get(entry.id);
    if (previous !== undefined)
      fail(`${source}: models[${i}] ("${entry.id}")`, `duplicate id (also models[${previous}])`);
    seen.set(entry.id, i);
    return entry;
  });
  const aliases = parseAliases(top.aliases, models, source);
  return { providers: [...providers.values()], models, aliases, source };
}
