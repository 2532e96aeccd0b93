// Migration 0024 on a database of the previous release: records and daily totals written before name no member and
// stay as they were (a key's under its member, an account token's under none), and records settled after it name
// their member, so a report by member puts the token's new requests under the token's user, from the daily totals
// and from the records alike.
import { Migrator, sql, type Migration } from 'kysely';
import { expect, it } from 'vitest';
import { newSecret } from '../../src/auth/secrets.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import { usageReport } from '../../src/services/usage-report.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { describeEachBackend, openTestDatabase, uniqueId } from '../helpers/databases.js';

const DAY = new Date('2026-03-10T00:00:00Z');
const NEXT_DAY = new Date('2026-03-11T00:00:00Z');

describeEachBackend('member usage upgrade (migration 0024)', (backend) => {
  it("keeps earlier totals and groups the account token's new requests under its user", async () => {
    const database = await openTestDatabase(backend, { migrated: false });
    try {
      const db = database.db;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async (): Promise<Record<string, Migration>> => Object.fromEntries(migrations) },
      });
      expect((await migrator.migrateTo('0022_guardrails')).error).toBeUndefined();
      const userId = uniqueId('usr_');
      await sql`insert into users (id, email) values (${userId}, ${`${userId}@example.com`})`.execute(db);
      const key = newSecret('api_key');
      const keyId = uniqueId('key_');
      await sql`insert into api_keys (id, user_id, name, key_hash, display_prefix)
        values (${keyId}, ${userId}, 'ci', ${key.hash}, ${key.displayPrefix})`.execute(db);
      const record = (apiKeyId: string | null, hour: number) => ({
        record: {
          ...creditsGenerationRecord(userId, 1_000n),
          api_key_id: apiKeyId,
          member_user_id: userId,
          created_at: new Date(DAY.getTime() + hour * 3_600_000),
        },
        settle: 'none' as const,
      });
      // The previous release's function ignores the member it is sent.
      expect(await settleGenerationBatch(db, [record(keyId, 1), record(null, 2)])).toBe(2);

      await migrateToLatest(db);
      expect(await settleGenerationBatch(db, [record(keyId, 3), record(null, 4)])).toBe(2);

      const members = await db.selectFrom('generations').select('member_user_id').orderBy('created_at').execute();
      expect(members.map((m) => m.member_user_id)).toEqual([null, null, userId, userId]);
      for (const to of [NEXT_DAY, new Date(DAY.getTime() + 5 * 3_600_000)]) {
        const byMember = await usageReport(db, {
          from: DAY,
          to,
          groupBy: 'member',
          filter: { organizationId: userId },
        });
        expect(byMember.map((r) => [r.group, r.requests, r.costNanos])).toEqual([
          [userId, 3, 3_000n],
          [null, 1, 1_000n],
        ]);
        const own = await usageReport(db, { from: DAY, to, groupBy: 'key', filter: { memberUserId: userId } });
        expect(own.map((r) => [r.group, r.requests])).toEqual([
          [keyId, 2],
          [null, 1],
        ]);
      }
    } finally {
      await database.close();
    }
  });
});
