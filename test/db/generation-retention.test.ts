// Pruning old generation records: only records before the cutoff go, in batches, also with several pruners at once;
// the running totals, the reads built on them and the ledger stay exactly as they were; the usage report refuses a
// bound inside a pruned day instead of answering a partial sum.
import { expect, it } from 'vitest';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { settleGenerations } from '../../src/billing/settlement.js';
import { grantCredits, listLedger } from '../../src/repositories/credits.js';
import { sumKeyUsage } from '../../src/repositories/key-usage.js';
import { listDailyUsage } from '../../src/repositories/activity.js';
import { markPrunedBefore, prunedBefore } from '../../src/repositories/generation-retention.js';
import { pruneGenerations, retentionCutoff } from '../../src/services/generation-retention.js';
import { usageReport } from '../../src/services/usage-report.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

const DAY_MS = 86_400_000;

it('keeps N whole UTC days before today', () => {
  expect(retentionCutoff(new Date('2026-03-10T15:30:00Z'), 30).toISOString()).toBe('2026-02-08T00:00:00.000Z');
  expect(retentionCutoff(new Date('2026-03-10T00:00:00Z'), 1).toISOString()).toBe('2026-03-09T00:00:00.000Z');
  expect(() => retentionCutoff(new Date(), 0)).toThrow(RangeError);
});

describeEachDatabase('generation retention', ({ db }) => {
  it('deletes only records before the cutoff and leaves totals, reads and the ledger as they were', async () => {
    // Far in the past of every other test's records, so the pruning below touches only this test's.
    const now = new Date('1990-01-20T15:00:00Z');
    const user = (await insertTestUser(db())).id;
    await grantCredits(db(), { userId: user, amountNanos: 1_000_000n });
    const key = uniqueId('key_');
    const at = (daysAgo: number, ms = 0) => new Date(Date.UTC(1990, 0, 20) - daysAgo * DAY_MS + ms);
    const records: NewGeneration[] = [
      ...Array.from({ length: 7 }, (_, i) => ({
        ...creditsGenerationRecord(user, BigInt(100 + i)),
        api_key_id: key,
        created_at: at(40, i * 1000),
      })),
      { ...creditsGenerationRecord(user, 1_000n), api_key_id: key, created_at: at(11, DAY_MS - 1) }, // the last instant before the cutoff
      { ...creditsGenerationRecord(user, 2_000n), api_key_id: key, created_at: at(10) }, // the cutoff itself: kept
      { ...creditsGenerationRecord(user, 3_000n), api_key_id: null, created_at: at(0, 5) },
    ];
    await settleGenerations(
      db(),
      records.map((record) => ({ admission: { mode: 'credits', userId: user, reservedNanos: 0n }, record })),
    );
    const reads = async () => ({
      usage: await sumKeyUsage(db(), [key], now),
      daily: await listDailyUsage(db(), { userId: user, since: at(60) }),
      report: await usageReport(db(), { from: at(60), to: at(-1), groupBy: 'day' }),
      ledger: await listLedger(db(), user, 100),
      totals: await db().selectFrom('usage_key_totals').selectAll().where('api_key_id', '=', key).execute(),
    });
    const before = await reads();
    expect(before.usage.get(key)?.totalNanos).toBe(7n * 100n + 21n + 3_000n);

    // Two pruners at once, in batches of 3: each record deleted once, none after the cutoff.
    const results = await Promise.all([
      pruneGenerations(db(), { days: 10, now, batchSize: 3 }),
      pruneGenerations(db(), { days: 10, now, batchSize: 3 }),
    ]);
    expect(results[0].cutoff).toEqual(at(10));
    expect(results[0].deleted + results[1].deleted).toBe(8);
    const left = await db()
      .selectFrom('generations')
      .select('id')
      .where('user_id', '=', user)
      .orderBy('created_at')
      .execute();
    expect(left.map((row) => row.id)).toEqual([records[8].id, records[9].id]);
    expect(await prunedBefore(db())).toEqual(at(10));

    expect(await reads()).toEqual(before);
    // A bound inside a pruned day would need its records: refused, naming the bound.
    for (const [from, to, field] of [
      [at(40, 3_600_000), at(-1), 'from'],
      [at(60), at(40, 3_600_000), 'to'],
    ] as const) {
      const error = await usageReport(db(), { from, to, groupBy: 'key' }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({
        status: 400,
        metadata: { field, reason: 'pruned_history', records_kept_since: at(10).toISOString() },
      });
    }
    // Inside a kept day a bound may fall anywhere.
    expect(await usageReport(db(), { from: at(0, 1), to: at(0, 10), groupBy: 'key' })).toMatchObject([
      { group: null, requests: 1, costNanos: 3_000n },
    ]);

    // The cutoff never moves back: a shorter run later does not claim older records exist again.
    await markPrunedBefore(db(), at(30));
    expect(await prunedBefore(db())).toEqual(at(10));
    expect(await pruneGenerations(db(), { days: 30, now, batchSize: 3 })).toEqual({ cutoff: at(30), deleted: 0 });
  });
});
