import type { DbOrTrx } from '../db/database.js';
import type { GenerationRow, NewGeneration } from '../db/tables/generations.js';

/** Writes one generation record. Idempotent on `id`: `false` when it was already recorded. */
export async function insertGeneration(db: DbOrTrx, row: NewGeneration): Promise<boolean> {
  const inserted = await db
    .insertInto('generations')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Writes many records in one statement (for batched writers); returns how many were new. */
export async function insertGenerations(db: DbOrTrx, rows: readonly NewGeneration[]): Promise<number> {
  return (await insertNewGenerations(db, rows)).size;
}

/** Writes many records in one statement; returns the ids that were new (the others were already recorded). */
export async function insertNewGenerations(db: DbOrTrx, rows: readonly NewGeneration[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await db
    .insertInto('generations')
    .values([...rows])
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .execute();
  return new Set(inserted.map((row) => row.id));
}

/** A generation only if it belongs to this user, so ids cannot be probed across accounts. */
export async function findGenerationForUser(
  db: DbOrTrx,
  input: { userId: string; id: string },
): Promise<GenerationRow | undefined> {
  return db
    .selectFrom('generations')
    .selectAll()
    .where('id', '=', input.id)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
}

/** Total recorded cost and request count of one API key, over its whole life. */
export async function sumUsageForKey(db: DbOrTrx, keyId: string): Promise<{ costNanos: bigint; requests: number }> {
  const row = await db
    .selectFrom('generations')
    // sum(bigint) is numeric in PostgreSQL; cast back so it parses as bigint like every other money column.
    .select((eb) => [
      eb.cast<bigint>(eb.fn.coalesce(eb.fn.sum('cost_nanos'), eb.lit(0)), 'bigint').as('cost_nanos'),
      eb.fn.countAll<bigint>().as('requests'),
    ])
    .where('api_key_id', '=', keyId)
    .executeTakeFirstOrThrow();
  return { costNanos: row.cost_nanos, requests: Number(row.requests) };
}

/** Requests of one key to free models since `since`: the seed of the daily free allowance after a restart. */
export async function countFreeGenerationsSince(db: DbOrTrx, keyId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('generations')
    .select((eb) => eb.fn.countAll<string | number | bigint>().as('count'))
    .where('api_key_id', '=', keyId)
    .where('access_mode', '=', 'free')
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
