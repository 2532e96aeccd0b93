// The models a request can name: the catalog's, and the aliases of the organization its credential acts in.
import type { Context } from 'koa';
import type { Catalog } from '../catalog/catalog.js';
import { organizationModels, type OrganizationModels } from '../catalog/organization-models.js';
import { principalOf } from '../http/authenticate.js';

export function requestModels(
  catalog: Pick<Catalog, 'get' | 'listed' | 'listedEntry'>,
  ctx: Context,
): OrganizationModels {
  return organizationModels(catalog, principalOf(ctx).aliases);
}
