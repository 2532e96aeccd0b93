import type { Transaction } from 'kysely';
import type { Database, DbOrTrx } from './database.js';

/**
 * Runs `fn` in the caller's transaction when given one, otherwise in a new transaction. Lets a
 * repository function that needs atomicity also compose into a larger unit of work.
 */
export async function inTransaction<T>(db: DbOrTrx, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<Database>);
  return db.transaction().execute(fn);
}
