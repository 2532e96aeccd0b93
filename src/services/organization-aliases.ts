// An organization's aliases: its own names for catalog models ("our coding model"), usable wherever a model id is
// (every door, listings, token counts, embeddings). Members read them; owners and admins change them. An alias never
// takes the name of a catalog model or catalog alias, and names a catalog model, never another alias.
import type { Catalog } from '../catalog/catalog.js';
import type { Principal } from '../auth/principal.js';
import type { Db, DbOrTrx } from '../db/database.js';
import type { OrganizationAliasRow } from '../db/tables/organizations.js';
import { GatewayError } from '../core/gateway-error.js';
import { inTransaction } from '../db/in-transaction.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import { requireManager, type OrganizationActor } from '../auth/member-roles.js';
import {
  deleteOrganizationAlias,
  findOrganizationAlias,
  listOrganizationAliases,
  upsertOrganizationAlias,
} from '../repositories/organization-aliases.js';
import { actorOf, recordAudit, type AuditActor } from './audit-log.js';

/** Letters, digits and `. _ : + -`, no `/`: an alias can never be read as a `<provider>/<model>` id. */
export const ALIAS_NAME = /^[A-Za-z0-9][A-Za-z0-9._:+-]{0,63}$/;
/** Principals carry every alias of their organization: a bound keeps that small. */
export const MAX_ALIASES_PER_ORGANIZATION = 100;
const MAX_DESCRIPTION_CHARS = 500;

export type { OrganizationAliasRow } from '../db/tables/organizations.js';

/** Who changes an organization's aliases: a member with its role, or the operator; and whom the audit log names. */
export interface AliasEditor {
  organizationId: string;
  actor: OrganizationActor;
  by: AuditActor;
}

/** The member behind a credential, editing the organization it acts in (never an inference key). */
export function aliasEditorOf(principal: Principal): AliasEditor {
  authorizeMemberManagement(principal);
  return {
    organizationId: principal.organizationId,
    actor: { kind: 'member', userId: principal.memberUserId, role: principal.role },
    by: actorOf(principal),
  };
}

export interface AliasChange {
  name: string;
  model: string;
  description?: string | null;
}

function invalid(field: string, message: string, reason: string): GatewayError {
  return new GatewayError(400, `Invalid request: ${message}`, { field, reason });
}

function notFound(name: string): GatewayError {
  return new GatewayError(404, `Alias "${name}" not found`, { alias: name, reason: 'alias_not_found' });
}

/** The aliases of an organization (any member reads those of the organization it acts in). */
export function organizationAliases(db: DbOrTrx, organizationId: string): Promise<OrganizationAliasRow[]> {
  return listOrganizationAliases(db, organizationId);
}

/** One alias of that organization; 404 when it has none by that name. */
export async function organizationAlias(
  db: DbOrTrx,
  alias: { organizationId: string; name: string },
): Promise<OrganizationAliasRow> {
  const { name } = alias;
  // No stored name is invalid (PostgreSQL text cannot even hold a NUL): nothing to look up.
  if (!ALIAS_NAME.test(name)) throw notFound(name);
  const row = await findOrganizationAlias(db, alias);
  if (!row) throw notFound(name);
  return row;
}

/** The catalog id the alias will name, or a 400 saying why the change cannot be made. */
function checkedModel(catalog: Pick<Catalog, 'get'>, change: AliasChange): string {
  if (!ALIAS_NAME.test(change.name))
    throw invalid(
      'name',
      `alias name "${change.name}" must be 1 to 64 letters, digits and . _ : + - (starting with a letter or digit)`,
      'invalid_alias_name',
    );
  if (catalog.get(change.name))
    throw invalid(
      'name',
      `"${change.name}" is a catalog model or alias: an alias never hides one`,
      'alias_hides_model',
    );
  const entry = catalog.get(change.model);
  if (!entry) throw invalid('model', `"${change.model}" is not a catalog model id`, 'unknown_model');
  if ((change.description?.length ?? 0) > MAX_DESCRIPTION_CHARS)
    throw invalid('description', `description must be at most ${MAX_DESCRIPTION_CHARS} characters`, 'too_long');
  // A catalog alias as the target is stored as the model it stands for: an alias never names an alias.
  return entry.id;
}

/** Creates or repoints an alias (owner or admin); audited. Every gateway forgets cached principals at commit. */
export async function putOrganizationAlias(
  db: Db,
  editor: AliasEditor,
  input: { catalog: Pick<Catalog, 'get'>; change: AliasChange },
): Promise<OrganizationAliasRow> {
  requireManager(editor.actor, 'Changing aliases');
  const model = checkedModel(input.catalog, input.change);
  const { organizationId } = editor;
  const { name } = input.change;
  return inTransaction(db, async (trx) => {
    const before = await findOrganizationAlias(trx, { organizationId, name });
    if (!before) {
      const count = (await listOrganizationAliases(trx, organizationId)).length;
      if (count >= MAX_ALIASES_PER_ORGANIZATION)
        throw new GatewayError(409, `An organization has at most ${MAX_ALIASES_PER_ORGANIZATION} aliases`, {
          reason: 'too_many_aliases',
          limit: MAX_ALIASES_PER_ORGANIZATION,
        });
    }
    const row = await upsertOrganizationAlias(trx, {
      organizationId,
      name,
      model,
      description: input.change.description ?? null,
    });
    await recordAudit(trx, {
      actor: editor.by,
      organizationId,
      action: 'alias.changed',
      target: { type: 'alias', id: name },
      before: before ? { model: before.model, description: before.description } : null,
      after: { model: row.model, description: row.description },
    });
    return row;
  });
}

/** Removes an alias (owner or admin); audited. */
export async function removeOrganizationAlias(db: Db, editor: AliasEditor, name: string): Promise<void> {
  requireManager(editor.actor, 'Changing aliases');
  if (!ALIAS_NAME.test(name)) throw notFound(name);
  const { organizationId } = editor;
  await inTransaction(db, async (trx) => {
    const removed = await deleteOrganizationAlias(trx, { organizationId, name });
    if (!removed) throw notFound(name);
    await recordAudit(trx, {
      actor: editor.by,
      organizationId,
      action: 'alias.deleted',
      target: { type: 'alias', id: name },
      before: { model: removed.model, description: removed.description },
      after: null,
    });
  });
}
