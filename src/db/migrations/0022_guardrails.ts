import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Guardrails: an organization's list (organizations.guardrails) and a key's own (api_keys.guardrails), each a JSON
// array of {name, stage, action, detector, pattern?}; null: none. Cached principals carry both, and both tables
// already ask every gateway to forget cached principals on a change (migrations 0003 and 0016).
// generations.guardrails: the names of the guardrails that fired on the request or its answer (null: none).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table organizations add column guardrails jsonb`.execute(db);
  await sql`alter table api_keys add column guardrails jsonb`.execute(db);
  await sql`alter table generations add column guardrails jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table generations drop column guardrails`.execute(db);
  await sql`alter table api_keys drop column guardrails`.execute(db);
  await sql`alter table organizations drop column guardrails`.execute(db);
}
