import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { Guardrail } from '../core/guardrail.js';

/** The organization's guardrails; undefined when there is no such organization. */
export async function findOrganizationGuardrails(
  db: DbOrTrx,
  organizationId: string,
): Promise<Guardrail[] | undefined> {
  const row = await db
    .selectFrom('organizations')
    .select('guardrails')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return row === undefined ? undefined : (row.guardrails ?? []);
}

/** Replaces them (an empty list is stored as none); the row's change tells every gateway to re-read principals. */
export async function setOrganizationGuardrails(
  db: DbOrTrx,
  change: { organizationId: string; guardrails: readonly Guardrail[] },
): Promise<void> {
  // jsonb written as text so both dialects (pg, PGlite) send the same parameter.
  const value = change.guardrails.length === 0 ? null : sql`${JSON.stringify(change.guardrails)}::jsonb`;
  await db
    .updateTable('organizations')
    .set({ guardrails: value as never })
    .where('id', '=', change.organizationId)
    .execute();
}
