// The models a request can name: the catalog's, and the aliases of the organization its credential acts in; for the
// listings and model routes, that organization's presets too (from memory once loaded).
import type { Context } from 'koa';
import type { Catalog } from '../catalog/catalog.js';
import { OrganizationModels, organizationModels } from '../catalog/organization-models.js';
import { principalOf } from '../http/authenticate.js';
import type { PresetCache } from '../presets/preset-cache.js';

export function requestModels(
  catalog: Pick<Catalog, 'get' | 'listed' | 'listedEntry'>,
  ctx: Context,
): OrganizationModels {
  return organizationModels(catalog, principalOf(ctx).aliases);
}

/** The request's models with its organization's presets (`@preset/<slug>`): made per request when it has any. */
export async function requestModelsWithPresets(
  parts: { catalog: Pick<Catalog, 'get' | 'listed' | 'listedEntry'>; presets?: Pick<PresetCache, 'presetsOf'> },
  ctx: Context,
): Promise<OrganizationModels> {
  const principal = principalOf(ctx);
  const loaded = parts.presets?.presetsOf(principal.organizationId);
  const presets = loaded instanceof Promise ? await loaded : loaded;
  if (presets === undefined || presets.latest.size === 0) return organizationModels(parts.catalog, principal.aliases);
  return new OrganizationModels(parts.catalog, principal.aliases, presets.latest);
}
