import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// Subscription admission reserves quota before calling upstream, like credits: a `reserved` row holds the
// request's upper-bound reference cost and counts against the windows until settlement turns it into the
// real cost (`settled`). Rows written before this migration are settled usage, hence the default.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('pass_usage')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('settled').check(sql`status in ('reserved', 'settled')`))
    .execute();
  await db.schema
    .alterTable('pass_usage')
    .addCheckConstraint('pass_usage_cost_ck', sql`reference_cost_nanos >= 0`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pass_usage').dropConstraint('pass_usage_cost_ck').execute();
  await db.schema.alterTable('pass_usage').dropColumn('status').execute();
}
