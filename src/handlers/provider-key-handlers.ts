// The member API of an organization's own provider keys: the organization the credential acts in; owners and admins
// write (services/provider-keys.ts checks the role), every member reads them masked. A change is dropped from this
// process's key cache at once (other instances hear the database's notification).
import type { Context } from 'koa';
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import type { OrganizationActor } from '../auth/member-roles.js';
import { actorOf } from '../services/audit-log.js';
import {
  deleteProviderKey as remove,
  providerKeysOf,
  setProviderKey,
  type ProviderKeyRow,
} from '../services/provider-keys.js';

type ProviderKeyParts = Pick<HandlerParts, 'config' | 'db' | 'catalog' | 'providerKeys'>;

function toWireProviderKey(row: ProviderKeyRow) {
  return {
    provider: row.provider,
    key_hint: row.key_hint,
    mode: row.mode,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The caller as a member of the organization it acts in, for a change (an API key changes nothing). */
function changer(ctx: Context) {
  const principal = principalOf(ctx);
  authorizeMemberManagement(principal);
  const actor: OrganizationActor = { kind: 'member', userId: principal.memberUserId, role: principal.role };
  return { organizationId: principal.organizationId, actor, by: actorOf(principal) };
}

function knownProviders(parts: ProviderKeyParts): string[] {
  return parts.catalog.providers().map((p) => p.id);
}

export function listProviderKeys(parts: ProviderKeyParts): Handler {
  return async (_api, ctx) => {
    const principal = principalOf(ctx);
    ctx.body = { data: (await providerKeysOf(parts.db, principal.organizationId)).map(toWireProviderKey) };
  };
}

export function putProviderKey(parts: ProviderKeyParts): Handler {
  return async (api, ctx) => {
    const { organizationId, actor, by } = changer(ctx);
    const body = api.request.requestBody as { key?: unknown; mode?: unknown };
    const row = await setProviderKey(parts.db, actor, {
      organizationId,
      provider: String(api.request.params.provider),
      key: body.key,
      mode: body.mode,
      knownProviders: knownProviders(parts),
      masterKey: parts.config.encryptionKey,
      by,
    });
    parts.providerKeys?.invalidate(organizationId);
    ctx.body = toWireProviderKey(row);
  };
}

export function deleteProviderKey(parts: ProviderKeyParts): Handler {
  return async (api, ctx) => {
    const { organizationId, actor, by } = changer(ctx);
    const provider = String(api.request.params.provider);
    await remove(parts.db, actor, { organizationId, provider, knownProviders: knownProviders(parts), by });
    parts.providerKeys?.invalidate(organizationId);
    ctx.body = { deleted: true, provider };
  };
}
