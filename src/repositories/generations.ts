import { madeByMember } from './member-keys.js';
import type { DbOrTrx } from '../db/database.js';
import type { GenerationRow } from '../db/tables/generations.js';

/** A generation only if it belongs to this user, so ids cannot be probed across accounts. */
export async function findGenerationForUser(
  db: DbOrTrx,
  input: { userId: string; id: string; memberUserId?: string },
): Promise<GenerationRow | undefined> {
  return db
    .selectFrom('generations')
    .selectAll()
    .where('id', '=', input.id)
    .where('user_id', '=', input.userId)
    .$if(input.memberUserId !== undefined, (q) => q.where(madeByMember(db, input.userId, input.memberUserId ?? '')))
    .executeTakeFirst();
}

/** Total recorded cost and request count of one API key, over its whole life (its running total, migration 0012). */
export async function sumUsageForKey(db: DbOrTrx, keyId: string): Promise<{ costNanos: bigint; requests: number }> {
  const row = await db
    .selectFrom('usage_key_totals')
    .select(['cost_nanos', 'requests'])
    .where('api_key_id', '=', keyId)
    .executeTakeFirst();
  return { costNanos: row?.cost_nanos ?? 0n, requests: Number(row?.requests ?? 0n) };
}

/** Requests of one key to free models since `since`: the seed of a key's own daily free allowance after a restart. */
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

/** Requests of one account (all its keys and its token) to free models since `since`: the account's allowance seed. */
export async function countAccountFreeGenerationsSince(db: DbOrTrx, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('generations')
    .select((eb) => eb.fn.countAll<string | number | bigint>().as('count'))
    .where('user_id', '=', userId)
    .where('access_mode', '=', 'free')
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Both counts, as the free allowance reads them (src/limits/free-requests.ts FreeRequestRecords). */
export function freeGenerationCounts(db: DbOrTrx) {
  return {
    countForAccount: (userId: string, since: Date) => countAccountFreeGenerationsSince(db, userId, since),
    countForKey: (keyId: string, since: Date) => countFreeGenerationsSince(db, keyId, since),
  };
}
