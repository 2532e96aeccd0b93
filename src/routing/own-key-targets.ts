// How one endpoint is called for an organization with its own key for the endpoint's provider: `prefer` its key, then
// the operator's; `only` its key; `fallback` the operator's, then its key (tried when the operator's attempt failed in
// a way another endpoint may not: down, rate-limited; or skipped: circuit open, not configured).
import { byokEntry } from '../billing/byok-pricing.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { ProviderAdapters, ProviderConfig } from '../providers/adapter.js';
import { redactingAdapter } from '../providers/redact-credentials.js';
import type { OrganizationKeys, OwnProviderKey } from './provider-key-cache.js';
import { targetFor, type Target } from './resolve-target.js';

/** The organization's keys as planning reads them, with the fee an own-key request is charged (ppm of the price). */
export interface OwnKeyRouting {
  keys: OrganizationKeys;
  feePpm: number;
}

export type KeyChoice = 'own' | 'operator';

const OWN_FIRST: readonly KeyChoice[] = ['own', 'operator'];
const OWN_ONLY: readonly KeyChoice[] = ['own'];
const OPERATOR_FIRST: readonly KeyChoice[] = ['operator', 'own'];
const OPERATOR_ONLY: readonly KeyChoice[] = ['operator'];

/** The keys to call an endpoint of `provider` with, in order. */
export function keyChoices(own: OwnProviderKey | undefined): readonly KeyChoice[] {
  if (own === undefined) return OPERATOR_ONLY;
  if (own.mode === 'only') return OWN_ONLY;
  // A key this gateway cannot open is left out, but for `only`, whose refusal must say why.
  if (own.key === undefined) return OPERATOR_ONLY;
  return own.mode === 'prefer' ? OWN_FIRST : OPERATOR_FIRST;
}

/** The target for an endpoint called with the organization's own key. */
export function ownKeyTarget(input: {
  entry: CatalogEntry;
  provider: ProviderConfig;
  adapters: ProviderAdapters;
  own: OwnKeyRouting;
  key: OwnProviderKey;
}): Target {
  const { entry, provider, adapters, own, key } = input;
  const target = targetFor(byokEntry(entry, own.feePpm), { ...provider, apiKey: key.key }, adapters);
  target.adapter = redactingAdapter(target.adapter, own.keys.redact);
  target.byok = { organizationId: own.keys.organizationId, mode: key.mode, redact: own.keys.redact };
  return target;
}
