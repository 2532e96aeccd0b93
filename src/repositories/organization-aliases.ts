import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { OrganizationAliasRow } from '../db/tables/organizations.js';

/** An organization's aliases, by name. */
export async function listOrganizationAliases(db: DbOrTrx, organizationId: string): Promise<OrganizationAliasRow[]> {
  return db
    .selectFrom('organization_aliases')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('name')
    .execute();
}

export async function findOrganizationAlias(
  db: DbOrTrx,
  key: { organizationId: string; name: string },
): Promise<OrganizationAliasRow | undefined> {
  return db
    .selectFrom('organization_aliases')
    .selectAll()
    .where('organization_id', '=', key.organizationId)
    .where('name', '=', key.name)
    .executeTakeFirst();
}

/** Creates the alias or points it at another model; returns the row as stored. */
export async function upsertOrganizationAlias(
  db: DbOrTrx,
  row: { organizationId: string; name: string; model: string; description: string | null },
): Promise<OrganizationAliasRow> {
  const values = {
    organization_id: row.organizationId,
    name: row.name,
    model: row.model,
    description: row.description,
  };
  return db
    .insertInto('organization_aliases')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'name'])
        .doUpdateSet({ model: row.model, description: row.description, updated_at: new Date() }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteOrganizationAlias(
  db: DbOrTrx,
  key: { organizationId: string; name: string },
): Promise<OrganizationAliasRow | undefined> {
  return db
    .deleteFrom('organization_aliases')
    .where('organization_id', '=', key.organizationId)
    .where('name', '=', key.name)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The aliases of the organization in column `organizationIdColumn`, as one JSON object of name to model id (null
 * without any): read in the credential's own query, so a principal carries them at no extra round trip.
 */
export function aliasesColumn(organizationIdColumn: string): RawBuilder<Record<string, string> | null> {
  return sql<Record<string, string> | null>`(select jsonb_object_agg(name, model) from organization_aliases
    where organization_id = ${sql.ref(organizationIdColumn)})`;
}

/** The column's value as a principal holds it. */
export function aliasMapOf(column: Record<string, string> | null | undefined): ReadonlyMap<string, string> {
  return new Map(Object.entries(column ?? {}));
}
