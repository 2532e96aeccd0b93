// Stored responses (migration 0018): one row per turn, read by id within an organization, listed and purged by
// organization or member, and deleted once expired.
import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { NewStoredResponse, StoredResponseRow } from '../db/tables/stored-responses.js';

export async function insertStoredResponse(db: DbOrTrx, row: NewStoredResponse): Promise<void> {
  await insertStoredResponses(db, [row]);
}

/** Writes turns in one statement. */
export async function insertStoredResponses(db: DbOrTrx, rows: NewStoredResponse[]): Promise<void> {
  // A turn is written once; a retried write of the same turn changes nothing.
  await db
    .insertInto('stored_responses')
    .values(rows)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** The turn, when it belongs to the organization and has not expired. */
export async function findStoredResponse(
  db: DbOrTrx,
  input: { id: string; organizationId: string; now: Date },
): Promise<StoredResponseRow | undefined> {
  return db
    .selectFrom('stored_responses')
    .selectAll()
    .where('id', '=', input.id)
    .where('organization_id', '=', input.organizationId)
    .where('expires_at', '>', input.now)
    .executeTakeFirst();
}

/** Deletes one turn of the organization; whether it existed. */
export async function deleteStoredResponse(
  db: DbOrTrx,
  input: { id: string; organizationId: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom('stored_responses')
    .where('id', '=', input.id)
    .where('organization_id', '=', input.organizationId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Deletes every turn of an organization, or of one member in it; how many. */
export async function deleteStoredResponsesOf(
  db: DbOrTrx,
  input: { organizationId: string; memberUserId?: string },
): Promise<number> {
  let query = db.deleteFrom('stored_responses').where('organization_id', '=', input.organizationId);
  if (input.memberUserId !== undefined) query = query.where('member_user_id', '=', input.memberUserId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes every turn of a user in every organization; how many. */
export async function deleteStoredResponsesOfUser(db: DbOrTrx, memberUserId: string): Promise<number> {
  const result = await db.deleteFrom('stored_responses').where('member_user_id', '=', memberUserId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes up to `limit` turns expired at `now`; how many. Rows another purger is deleting are skipped, so instances
 * purging at once neither wait for nor repeat each other.
 */
export async function deleteExpiredStoredResponses(db: DbOrTrx, now: Date, limit: number): Promise<number> {
  const { rows } = await sql<{ deleted: bigint }>`
    with doomed as (
      select id from stored_responses where expires_at <= ${now} order by expires_at limit ${limit} for update skip locked
    ), deleted as (
      delete from stored_responses s using doomed where s.id = doomed.id returning 1
    )
    select count(*) as deleted from deleted`.execute(db);
  return Number(rows[0]?.deleted ?? 0n);
}
