// The load test's accounts (bench/load-streams.ts), made directly in its scratch PostgreSQL database with the
// gateway's own repository functions (fifty users through the CLI would take minutes of process starts), and the
// two places the books are read back: each account's `/credits` (total_usage) and its debit rows in the ledger.
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { findOrCreateUserByEmail } from '../../src/repositories/users.js';
import { grantCredits } from '../../src/repositories/credits.js';
import { issueApiKey } from '../../src/auth/issue-credentials.js';
import { newId } from '../../src/auth/secrets.js';
import { usdToNanos } from '../../src/core/money.js';

export interface LoadAccounts {
  /** Every key, account by account. */
  keys: string[];
  /** The user id owning keys[i]. */
  keyOwner: string[];
}

export async function provisionAccounts(
  databaseUrl: string,
  accounts: number,
  keysPerAccount: number,
  usdEach: number,
): Promise<LoadAccounts> {
  const { db, close } = await openDatabase({ databaseUrl, maxConnections: 2 });
  try {
    await migrateToLatest(db);
    const keys: string[] = [];
    const keyOwner: string[] = [];
    for (let a = 0; a < accounts; a++) {
      const user = await findOrCreateUserByEmail(db, `load${a}@modelgate.test`, () => newId('usr_'));
      await grantCredits(db, { userId: user.id, amountNanos: usdToNanos(String(usdEach)), note: 'load test' });
      for (let k = 0; k < keysPerAccount; k++) {
        keys.push(
          (await issueApiKey(db, { organizationId: user.id, memberUserId: user.id, name: `load ${k}` })).secret,
        );
        keyOwner.push(user.id);
      }
    }
    return { keys, keyOwner };
  } finally {
    await close();
  }
}

/** Generation records written so far (the gateway settles after answering). */
export async function countGenerations(databaseUrl: string): Promise<number> {
  const { db, close } = await openDatabase({ databaseUrl, maxConnections: 1 });
  try {
    const row = await db.selectFrom('generations').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await close();
  }
}

/** What each account paid, from its debit rows. */
export async function ledgerDebits(databaseUrl: string): Promise<Map<string, bigint>> {
  const { db, close } = await openDatabase({ databaseUrl, maxConnections: 1 });
  try {
    const rows = await db
      .selectFrom('credit_ledger')
      .where('kind', '=', 'debit')
      .select(['user_id', sql<string>`(-sum(amount_nanos))::text`.as('paid')])
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((row) => [row.user_id, BigInt(row.paid)]));
  } finally {
    await close();
  }
}

/** Each account's `total_usage` as `GET /api/v1/credits` shows it, asked with the account's first key. */
export async function creditsUsage(gatewayBaseUrl: string, accounts: LoadAccounts): Promise<Map<string, bigint>> {
  const usage = new Map<string, bigint>();
  for (let i = 0; i < accounts.keys.length; i++) {
    const owner = accounts.keyOwner[i]!;
    if (usage.has(owner)) continue;
    const res = await fetch(`${gatewayBaseUrl}/api/v1/credits`, {
      headers: { authorization: `Bearer ${accounts.keys[i]}` },
    });
    if (!res.ok) throw new Error(`GET /credits answered ${res.status}: ${await res.text()}`);
    const { data } = (await res.json()) as { data: { total_usage: number } };
    usage.set(owner, usdToNanos(String(data.total_usage)));
  }
  return usage;
}
