import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here or change this file once released.
//
// A gateway process takes a lease on a user's credits (a slice of the unreserved balance, counted in
// credit_accounts.reserved_nanos) and admits that user's requests against it in memory, so the hot path makes no
// database round trip. One row per (process, user); the process renews `renewed_at`, and a lease whose holder
// stopped renewing (crashed) is reclaimed by any other process.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('credit_leases')
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('amount_nanos', 'bigint', (c) => c.notNull().check(sql`amount_nanos >= 0`))
    .addColumn('renewed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('credit_leases_pk', ['holder', 'user_id'])
    .execute();
  await db.schema.createIndex('credit_leases_renewed_at_idx').on('credit_leases').column('renewed_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('credit_leases').execute();
}
