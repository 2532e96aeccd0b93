// The books of one user after a run of chat-load.ts clients: one account with a key and credits to start from, and
// afterwards what was recorded set against what the clients were told.
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { issueApiKey } from '../../src/auth/issue-credentials.js';
import { newId } from '../../src/auth/secrets.js';
import { grantCredits } from '../../src/repositories/credits.js';
import { findOrCreateUserByEmail } from '../../src/repositories/users.js';
import type { ChatOutcome } from './chat-load.js';

export async function provisionAccount(db: Db, usd = 1000): Promise<{ userId: string; key: string }> {
  const user = await findOrCreateUserByEmail(db, `load-${newId('')}@example.com`, () => newId('usr_'));
  await grantCredits(db, { userId: user.id, amountNanos: BigInt(usd) * 1_000_000_000n, note: 'test' });
  const { secret } = await issueApiKey(db, { organizationId: user.id, memberUserId: user.id, name: 'load' });
  return { userId: user.id, key: secret };
}

export interface Books {
  /** Generation records of the user: id → [cost, how many rows carry that id]. */
  records: Map<string, bigint>;
  recordedNanos: bigint;
  /** The usage totals (usage_daily) of the user. */
  usageNanos: bigint;
  /** Minus the ledger's debits of the user. */
  debitedNanos: bigint;
  /** The account's balance less the grants: minus what was spent. */
  balanceChangeNanos: bigint;
  grantedNanos: bigint;
}

export async function readBooks(db: Db, userId: string): Promise<Books> {
  const rows = await db.selectFrom('generations').select(['id', 'cost_nanos']).where('user_id', '=', userId).execute();
  const records = new Map(rows.map((row) => [row.id, row.cost_nanos]));
  const usage = await db
    .selectFrom('usage_daily')
    .select(sql<bigint>`coalesce(sum(cost_nanos), 0)::int8`.as('cost'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const ledger = await db
    .selectFrom('credit_ledger')
    .select([
      sql<bigint>`coalesce(sum(amount_nanos) filter (where kind = 'debit'), 0)::int8`.as('debits'),
      sql<bigint>`coalesce(sum(amount_nanos) filter (where kind = 'grant'), 0)::int8`.as('grants'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const account = await db
    .selectFrom('credit_accounts')
    .select('balance_nanos')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    records,
    recordedNanos: rows.reduce((sum, row) => sum + row.cost_nanos, 0n),
    usageNanos: usage.cost,
    debitedNanos: -ledger.debits,
    grantedNanos: ledger.grants,
    balanceChangeNanos: account.balance_nanos - ledger.grants,
  };
}

/** The answers whose cost the client read (a JSON body's `usage.cost`, a stream's usage chunk). */
export function toldCosts(outcomes: readonly ChatOutcome[]): Map<string, bigint> {
  const told = new Map<string, bigint>();
  for (const outcome of outcomes) {
    if (outcome.status !== 200 || outcome.costNanos === undefined || outcome.id === undefined) continue;
    if (told.has(outcome.id)) throw new Error(`two answers named generation ${outcome.id}`);
    told.set(outcome.id, outcome.costNanos);
  }
  return told;
}

/** Told answers without their record, or with another cost: what a run lost or misbilled. */
export function unbilled(told: ReadonlyMap<string, bigint>, books: Books): string[] {
  const wrong: string[] = [];
  for (const [id, cost] of told) {
    const recorded = books.records.get(id);
    if (recorded !== cost) wrong.push(`${id}: told ${cost} nanos, recorded ${recorded ?? 'nothing'}`);
  }
  return wrong;
}

export function sumOf(values: Iterable<bigint>): bigint {
  let sum = 0n;
  for (const value of values) sum += value;
  return sum;
}
