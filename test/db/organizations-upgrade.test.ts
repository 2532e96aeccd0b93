// Migration 0015 on a database of the previous release: every account becomes a personal organization (same id)
// with its user as owner, and its credits, keys, usage and pass are unchanged and reachable through it.
import { Migrator, sql, type Migration } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import { getCreditAccount, grantCredits } from '../../src/repositories/credits.js';
import { findActiveSubscription } from '../../src/repositories/subscriptions.js';
import { listOrganizationsOfUser, listMembers } from '../../src/repositories/organizations.js';
import { resolvePrincipal } from '../../src/auth/authenticate-credential.js';
import { newSecret } from '../../src/auth/secrets.js';
import { describeEachBackend, openTestDatabase, uniqueId } from '../helpers/databases.js';

function record(userId: string, keyId: string, cost: bigint): NewGeneration {
  return {
    id: uniqueId('gen-'),
    user_id: userId,
    api_key_id: keyId,
    access_mode: 'credits',
    model: 'openai/x',
    provider: 'openai',
    upstream_model: 'x',
    upstream_id: null,
    streamed: false,
    finish_reason: 'stop',
    status: 'success',
    http_status: 200,
    error_code: null,
    error_message: null,
    prompt_tokens: 3,
    completion_tokens: 2,
    cost_nanos: cost,
    reference_cost_nanos: null,
    latency_ms: 1,
    time_to_first_token_ms: null,
    app_title: null,
    app_referer: null,
    task_id: null,
    created_at: new Date('2026-03-02T10:00:00Z'),
  };
}

/** One account of the previous release: a user, credits, a key, a settled generation, a pass. */
async function previousReleaseAccount(db: Db) {
  const id = uniqueId('usr_');
  const email = `${id}@example.com`;
  // The schema of 0014, written as its release wrote it (no organization, no key member).
  await sql`insert into users (id, email) values (${id}, ${email})`.execute(db);
  await grantCredits(db, { userId: id, amountNanos: 5_000n });
  const key = newSecret('api_key');
  const keyId = uniqueId('key_');
  await sql`insert into api_keys (id, user_id, name, key_hash, display_prefix)
    values (${keyId}, ${id}, 'ci', ${key.hash}, ${key.displayPrefix})`.execute(db);
  await settleGenerationBatch(db, [{ record: record(id, keyId, 700n), settle: 'none' }]);
  await sql`insert into subscriptions (id, user_id, plan, price_nanos, period_start, period_end)
    values (${uniqueId('sub_')}, ${id}, 'pass', 9990000000, '2026-03-01T00:00:00Z', '2099-01-01T00:00:00Z')`.execute(
    db,
  );
  return { id, email, keyId, secret: key.secret };
}

async function snapshot(db: Db, userId: string) {
  const credits = await getCreditAccount(db, userId);
  const ledger = await db
    .selectFrom('credit_ledger')
    .select(['kind', 'amount_nanos'])
    .where('user_id', '=', userId)
    .execute();
  const generations = await db
    .selectFrom('generations')
    .select(['id', 'cost_nanos'])
    .where('user_id', '=', userId)
    .execute();
  const daily = await db
    .selectFrom('usage_daily')
    .select(['requests', 'cost_nanos'])
    .where('user_id', '=', userId)
    .execute();
  const keys = await db.selectFrom('api_keys').select(['id', 'key_hash']).where('user_id', '=', userId).execute();
  const pass = await findActiveSubscription(db, userId, new Date('2026-06-01T00:00:00Z'));
  return { credits, ledger, generations, daily, keys, pass: pass?.id };
}

describeEachBackend('organizations upgrade (migration 0015)', (backend) => {
  it('makes every account a personal organization that keeps its credits, keys, usage and pass', async () => {
    const database = await openTestDatabase(backend, { migrated: false });
    try {
      const db = database.db;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async (): Promise<Record<string, Migration>> => Object.fromEntries(migrations) },
      });
      expect((await migrator.migrateTo('0014_tool_fees')).error).toBeUndefined();
      const accounts = [await previousReleaseAccount(db), await previousReleaseAccount(db)];
      const before = await Promise.all(accounts.map((a) => snapshot(db, a.id)));

      await migrateToLatest(db);

      for (const [i, account] of accounts.entries()) {
        const orgs = await listOrganizationsOfUser(db, account.id);
        expect(orgs).toEqual([
          expect.objectContaining({ id: account.id, name: account.email, personal: true, role: 'owner' }),
        ]);
        expect(await listMembers(db, account.id)).toEqual([
          expect.objectContaining({
            organization_id: account.id,
            user_id: account.id,
            role: 'owner',
            email: account.email,
          }),
        ]);
        // The organization's id is the account's: every money and usage row is read through it unchanged.
        expect(await snapshot(db, orgs[0].id)).toEqual(before[i]);
        expect(before[i].credits.balanceNanos).toBe(5_000n);
        expect(before[i].pass).toBeDefined();
        // The key is the organization's, its member the user, who owns it.
        const principal = await resolvePrincipal(db, account.secret);
        expect(principal).toMatchObject({ organizationId: account.id, memberUserId: account.id, role: 'owner' });
      }

      // Accounts created afterwards, by any writer of users, get their personal organization too.
      const later = uniqueId('usr_');
      await sql`insert into users (id, email) values (${later}, ${`${later}@example.com`})`.execute(db);
      expect(await listOrganizationsOfUser(db, later)).toEqual([
        expect.objectContaining({ id: later, personal: true, role: 'owner' }),
      ]);
      // The money tables now refer to organizations: a wallet of nobody is refused.
      await expect(grantCredits(db, { userId: uniqueId('org_'), amountNanos: 1n })).rejects.toMatchObject({
        code: '23503',
      });
    } finally {
      await database.close();
    }
  });
});
