import { sql } from 'kysely';
import { minBigInt } from '../core/bigint-min-max.js';
import type { DbOrTrx } from '../db/database.js';
import { inTransaction } from '../db/in-transaction.js';
import { utcDayParam } from '../db/utc-day.js';

// Spend of limited keys per reset period (migration 0007). Invariant kept by every function here: a reservation is
// taken only while spent + reserved + amount <= the key's limit, so the upper bounds of the requests in flight never
// together pass it, whatever the number of instances admitting the key's requests. settle_generations (migration
// 0011) adds each request's whole cost: a request that cost more than its upper bound may take the spend past the
// limit (debt, not write-off), and the key's next request is then refused until the period resets.

/**
 * A limit removed a moment ago (another instance's cache may still say the key has one): the hold is taken and
 * settled as usual, never refused.
 */
const NO_LIMIT = 2n ** 62n;

export type KeySpendReservation =
  | { ok: true; spentNanos: bigint; reservedNanos: bigint }
  | { ok: false; spentNanos: bigint; reservedNanos: bigint; limitNanos: bigint | null };

/**
 * Holds `amountNanos` of the key's limit in this period: one conditional upsert, which PostgreSQL serialises on
 * the period's row (a concurrent insert of the same row waits, then re-checks the condition on the committed
 * row). The limit is read from api_keys in the same statement, so a limit lowered a moment ago on another
 * instance already applies. With `holder` (the gateway process, migration 0009) the hold is also recorded on the
 * holder's row in the same statement, so it is given back when that process dies before settling it.
 */
export async function reserveKeySpend(
  db: DbOrTrx,
  input: { keyId: string; periodStart: Date; amountNanos: bigint; holder?: string },
): Promise<KeySpendReservation> {
  const { keyId, periodStart, amountNanos, holder } = input;
  if (amountNanos < 0n) throw new RangeError('amountNanos must not be negative');
  const upsert = sql`
    insert into api_key_spend (key_id, period_start, reserved_nanos)
    select k.id, ${periodStart}, ${amountNanos} from api_keys k
    where k.id = ${keyId} and coalesce(k.credit_limit_nanos, ${NO_LIMIT}) >= ${amountNanos}
    on conflict (key_id, period_start) do update
    set reserved_nanos = api_key_spend.reserved_nanos + excluded.reserved_nanos
    where api_key_spend.spent_nanos + api_key_spend.reserved_nanos + excluded.reserved_nanos
      <= (select coalesce(k.credit_limit_nanos, ${NO_LIMIT}) from api_keys k where k.id = excluded.key_id)
    returning key_id, period_start, spent_nanos, reserved_nanos`;
  // The spend row first, then the holder's row (the lock order of every writer, settle_generations included).
  const reserved =
    holder === undefined
      ? await upsert.execute(db)
      : await sql`
        with spend as (${upsert}), held as (
          insert into api_key_spend_holds (key_id, period_start, holder, held_nanos)
          select spend.key_id, spend.period_start, ${holder}, ${amountNanos} from spend
          on conflict (key_id, period_start, holder) do update
          set held_nanos = api_key_spend_holds.held_nanos + excluded.held_nanos, renewed_at = now()
          returning key_id)
        select spend.key_id, spend.spent_nanos, spend.reserved_nanos from spend`.execute(db);
  const done = reserved.rows[0] as { spent_nanos: bigint | string; reserved_nanos: bigint | string } | undefined;
  if (done !== undefined)
    return { ok: true, spentNanos: BigInt(done.spent_nanos), reservedNanos: BigInt(done.reserved_nanos) };
  // Informational only (it may be stale when read): the decision was the upsert.
  const [row, key] = await Promise.all([
    findKeySpend(db, keyId, periodStart),
    db.selectFrom('api_keys').select('credit_limit_nanos').where('id', '=', keyId).executeTakeFirst(),
  ]);
  return {
    ok: false,
    spentNanos: row?.spent_nanos ?? 0n,
    reservedNanos: row?.reserved_nanos ?? 0n,
    limitNanos: key?.credit_limit_nanos ?? null,
  };
}

/**
 * Gives a hold back unused (the request ended before anything was generated). Clamped at zero. With `holder`, no
 * more than the holder's row still holds (nothing when it was reclaimed meanwhile: that already gave it back).
 */
export async function releaseKeySpend(
  db: DbOrTrx,
  input: { keyId: string; periodStart: Date; amountNanos: bigint; holder?: string },
): Promise<void> {
  const { keyId, periodStart, holder } = input;
  if (input.amountNanos <= 0n) return;
  if (holder === undefined) return unreserveKeySpend(db, keyId, periodStart, input.amountNanos);
  await inTransaction(db, async (trx) => {
    // Lock order: the spend row, then the holder's row.
    await trx
      .selectFrom('api_key_spend')
      .select('key_id')
      .where('key_id', '=', keyId)
      .where('period_start', '=', periodStart)
      .forUpdate()
      .execute();
    const row = await trx
      .selectFrom('api_key_spend_holds')
      .select('held_nanos')
      .where('key_id', '=', keyId)
      .where('period_start', '=', periodStart)
      .where('holder', '=', holder)
      .forUpdate()
      .executeTakeFirst();
    const given = row === undefined ? 0n : minBigInt(row.held_nanos, input.amountNanos);
    if (given === 0n) return;
    await trx
      .updateTable('api_key_spend_holds')
      .set((eb) => ({ held_nanos: eb('held_nanos', '-', given) }))
      .where('key_id', '=', keyId)
      .where('period_start', '=', periodStart)
      .where('holder', '=', holder)
      .execute();
    await unreserveKeySpend(trx, keyId, periodStart, given);
  });
}

/** Takes `amountNanos` off a period's reserved total, clamped at zero (the caller keeps the holds rows in step). */
export async function unreserveKeySpend(
  db: DbOrTrx,
  keyId: string,
  periodStart: Date,
  amountNanos: bigint,
): Promise<void> {
  await db
    .updateTable('api_key_spend')
    .set((eb) => ({ reserved_nanos: sql<bigint>`greatest(${eb.ref('reserved_nanos')} - ${amountNanos}, 0)` }))
    .where('key_id', '=', keyId)
    .where('period_start', '=', periodStart)
    .execute();
}

export async function findKeySpend(db: DbOrTrx, keyId: string, periodStart: Date) {
  return db
    .selectFrom('api_key_spend')
    .select(['spent_nanos', 'reserved_nanos'])
    .where('key_id', '=', keyId)
    .where('period_start', '=', periodStart)
    .executeTakeFirst();
}

/** Settled spend of these keys in the given periods (one period per key), by key id. */
export async function spentInPeriods(
  db: DbOrTrx,
  periods: readonly { keyId: string; periodStart: Date }[],
): Promise<Map<string, bigint>> {
  const spent = new Map<string, bigint>();
  if (periods.length === 0) return spent;
  // Each key's current period only: a key that resets daily has a row per day it was used.
  const rows = await db
    .selectFrom('api_key_spend')
    .select(['key_id', 'period_start', 'spent_nanos'])
    .where((eb) =>
      eb.or(periods.map((p) => eb.and([eb('key_id', '=', p.keyId), eb('period_start', '=', p.periodStart)]))),
    )
    .execute();
  const wanted = new Map(periods.map((p) => [p.keyId, p.periodStart.getTime()]));
  for (const row of rows)
    if (wanted.get(row.key_id) === row.period_start.getTime()) spent.set(row.key_id, row.spent_nanos);
  return spent;
}

/**
 * Starts a period's row at the spend the key's generations already recorded in it, when the row does not exist
 * yet: a limit set on a key that was used before counts that use (as OpenRouter's limits count the key's usage).
 * Periods start at UTC midnights, so the daily totals (migration 0012) answer it without reading the records.
 */
export async function seedKeySpend(db: DbOrTrx, input: { keyId: string; periodStart: Date }): Promise<void> {
  await sql`
    insert into api_key_spend (key_id, period_start, spent_nanos)
    select ${input.keyId}, ${input.periodStart}, coalesce(sum(d.cost_nanos), 0)::bigint
    from usage_daily d where d.api_key_id = ${input.keyId} and d.day >= ${utcDayParam(input.periodStart)}
    on conflict (key_id, period_start) do nothing`.execute(db);
}
