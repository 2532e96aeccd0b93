// The organization's model aliases (services/organization-aliases.ts checks the role). A change drops this process's
// cached principals at once, since they carry the aliases; other processes hear it from the database's notification.
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import {
  type OrganizationAliasRow,
  aliasEditorOf,
  organizationAlias,
  organizationAliases,
  putOrganizationAlias,
  removeOrganizationAlias,
} from '../services/organization-aliases.js';

type AliasParts = Pick<HandlerParts, 'catalog' | 'credentials' | 'db'>;

export function toWireAlias(row: OrganizationAliasRow) {
  return {
    name: row.name,
    model: row.model,
    description: row.description,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function nameOf(params: unknown): string {
  const raw = String((params as { name: string }).name);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function listModelAliases(parts: AliasParts): Handler {
  return async (_api, ctx) => {
    ctx.body = { data: (await organizationAliases(parts.db, principalOf(ctx).organizationId)).map(toWireAlias) };
  };
}

export function getModelAlias(parts: AliasParts): Handler {
  return async (api, ctx) => {
    const alias = { organizationId: principalOf(ctx).organizationId, name: nameOf(api.request.params) };
    ctx.body = toWireAlias(await organizationAlias(parts.db, alias));
  };
}

export function putModelAlias(parts: AliasParts): Handler {
  return async (api, ctx) => {
    const body = api.request.requestBody as { model: string; description?: string | null };
    const row = await putOrganizationAlias(parts.db, aliasEditorOf(principalOf(ctx)), {
      catalog: parts.catalog,
      change: { name: nameOf(api.request.params), model: body.model, description: body.description },
    });
    parts.credentials.invalidateAll();
    ctx.body = toWireAlias(row);
  };
}

export function deleteModelAlias(parts: AliasParts): Handler {
  return async (api, ctx) => {
    const name = nameOf(api.request.params);
    await removeOrganizationAlias(parts.db, aliasEditorOf(principalOf(ctx)), name);
    parts.credentials.invalidateAll();
    ctx.body = { name, deleted: true };
  };
}
