// Running totals (migration 0012): whatever records are settled, in whatever batches (concurrent, repeated), the reads
// that now use the totals — key usage (GET /key, key listings), daily activity, the usage report with bounds anywhere
// in a day — answer exactly what summing the records did before. The reference queries below are the record-summing
// queries those reads ran until then.
import fc from 'fast-check';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import type { AccessMode } from '../../src/core/access-mode.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import { sumKeyUsage, type KeyUsage } from '../../src/repositories/key-usage.js';
import { listDailyUsage } from '../../src/repositories/activity.js';
import { usageReport, type UsageGroupBy, type UsageRow } from '../../src/services/usage-report.js';
import { dayStart, monthStart, weekStart } from '../../src/core/utc-calendar.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

const DAY_MS = 86_400_000;
const MODES: AccessMode[] = ['credits', 'free', 'pass'];

async function referenceKeyUsage(db: Db, keyIds: string[], now: Date): Promise<Map<string, KeyUsage>> {
  const since = (from: Date) =>
    sql<bigint>`cast(coalesce(sum(cost_nanos) filter (where created_at >= ${from}), 0) as bigint)`;
  const rows = await db
    .selectFrom('generations')
    .select([
      'api_key_id',
      sql<bigint>`cast(coalesce(sum(cost_nanos), 0) as bigint)`.as('total'),
      since(dayStart(now)).as('daily'),
      since(weekStart(now)).as('weekly'),
      since(monthStart(now)).as('monthly'),
    ])
    .where('api_key_id', 'in', keyIds)
    .groupBy('api_key_id')
    .execute();
  return new Map(
    rows.map((r) => [
      r.api_key_id!,
      { totalNanos: r.total, dailyNanos: r.daily, weeklyNanos: r.weekly, monthlyNanos: r.monthly },
    ]),
  );
}

async function referenceReport(db: Db, from: Date, to: Date, groupBy: UsageGroupBy): Promise<UsageRow[]> {
  const group = {
    day: sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`,
    model: sql<string>`model`,
    key: sql<string>`api_key_id`,
    user: sql<string>`user_id`,
    organization: sql<string>`user_id`,
    member: sql<string>`(select k.member_user_id from api_keys k where k.id = generations.api_key_id)`,
  }[groupBy];
  const total = (column: string) => sql<bigint>`cast(coalesce(sum(${sql.ref(column)}), 0) as bigint)`;
  const rows = await db
    .selectFrom('generations')
    // Response-cache hits are not requests in the report (migration 0013); their tokens are 0 anyway.
    .select([
      group.as('group'),
      sql<string>`count(*) filter (where not cache_hit)`.as('requests'),
      total('prompt_tokens').as('p'),
      total('completion_tokens').as('c'),
      total('cached_tokens').as('k'),
      total('reasoning_tokens').as('r'),
      total('cost_nanos').as('cost'),
    ])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy(group)
    .orderBy(group)
    .execute();
  return rows.map((r) => ({
    group: r.group,
    requests: Number(r.requests),
    promptTokens: r.p,
    completionTokens: r.c,
    cachedTokens: r.k,
    reasoningTokens: r.r,
    costNanos: r.cost,
  }));
}

async function referenceDaily(db: Db, userId: string, since: Date) {
  const day = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`;
  const total = (column: string) => sql<bigint>`cast(coalesce(sum(${sql.ref(column)}), 0) as bigint)`;
  const rows = await db
    .selectFrom('generations')
    .select([
      day.as('date'),
      'model',
      sql<string>`count(*) filter (where not cache_hit)`.as('requests'),
      total('prompt_tokens').as('p'),
      total('completion_tokens').as('c'),
      total('cost_nanos').as('cost'),
      sql<string>`count(*) filter (where cache_hit)`.as('hits'),
      total('cache_saved_nanos').as('saved'),
    ])
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .groupBy([day, 'model'])
    .orderBy(day)
    .orderBy('model')
    .execute();
  return rows.map((r) => ({
    date: r.date,
    model: r.model,
    requests: Number(r.requests),
    promptTokens: Number(r.p),
    completionTokens: Number(r.c),
    costNanos: r.cost,
    cacheHits: Number(r.hits),
    cacheSavedNanos: r.saved,
  }));
}

const recordShape = fc.record({
  user: fc.integer({ min: 0, max: 1 }),
  key: fc.integer({ min: 0, max: 2 }), // 2: an account token (no key)
  model: fc.integer({ min: 0, max: 1 }),
  mode: fc.integer({ min: 0, max: 2 }),
  day: fc.integer({ min: 0, max: 9 }),
  // Often exactly at or just around midnight: the day boundary is where a total could go wrong.
  timeOfDay: fc.oneof(fc.constantFrom(0, 1, DAY_MS - 1), fc.integer({ min: 0, max: DAY_MS - 1 })),
  cost: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  tokens: fc.integer({ min: 0, max: 100_000 }),
  // A response-cache hit: no tokens, a charge (`cost`, usually 0) and what it saved.
  hit: fc.boolean(),
  saved: fc.bigInt({ min: 0n, max: 10n ** 12n }),
});

const rangeShape = fc.record({
  fromMs: fc.oneof(
    fc.integer({ min: -1, max: 11 }).map((d) => d * DAY_MS),
    fc.integer({ min: -DAY_MS, max: 11 * DAY_MS }),
  ),
  lengthMs: fc.oneof(
    fc.integer({ min: 1, max: 12 }).map((d) => d * DAY_MS),
    fc.integer({ min: 1, max: 12 * DAY_MS }),
  ),
  groupBy: fc.constantFrom<UsageGroupBy>('day', 'model', 'key', 'user'),
});

let run = 0;

describeEachDatabase('usage totals', ({ db }) => {
  it('answer key usage, activity and the usage report exactly as summing the records does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordShape, { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 5 }),
        fc.array(rangeShape, { minLength: 4, maxLength: 8 }),
        fc.integer({ min: 0, max: 10 * DAY_MS }),
        async (shapes, batchSizes, ranges, nowOffset) => {
          // Every run in days of its own (and models of its own), so reports across all users see only this run.
          const base = Date.UTC(2001, 0, 1) + run++ * 40 * DAY_MS;
          const tag = uniqueId('m');
          const users = [(await insertTestUser(db())).id, (await insertTestUser(db())).id];
          const keys = [uniqueId('key_'), uniqueId('key_')];
          const records: NewGeneration[] = shapes.map((s) => {
            const tokens = s.hit ? 0 : s.tokens;
            return {
              id: uniqueId('gen-'),
              user_id: users[s.user],
              api_key_id: s.key === 2 ? null : keys[s.key],
              access_mode: MODES[s.mode],
              model: `${tag}/${s.model}`,
              provider: 'p',
              upstream_model: 'u',
              upstream_id: null,
              streamed: false,
              finish_reason: 'stop',
              status: 'success',
              http_status: 200,
              error_code: null,
              error_message: null,
              prompt_tokens: tokens,
              completion_tokens: tokens % 977,
              cached_tokens: tokens % 13,
              cache_write_tokens: tokens % 7,
              reasoning_tokens: tokens % 31,
              cost_nanos: s.cost,
              reference_cost_nanos: MODES[s.mode] === 'pass' && !s.hit ? s.cost : null,
              latency_ms: 1,
              time_to_first_token_ms: null,
              app_title: null,
              app_referer: null,
              task_id: null,
              created_at: new Date(base + s.day * DAY_MS + s.timeOfDay),
              cache_hit: s.hit,
              cache_saved_nanos: s.hit ? s.saved : 0n,
            };
          });
          // Concurrent batches, each also sent twice: a record is counted once however often it is settled.
          const batches: NewGeneration[][] = [];
          for (let i = 0, b = 0; i < records.length; b++) {
            batches.push(records.slice(i, i + batchSizes[b % batchSizes.length]));
            i += batchSizes[b % batchSizes.length];
          }
          await Promise.all(
            [...batches, ...batches].map((batch) =>
              settleGenerationBatch(
                db(),
                batch.map((record) => ({ record, settle: 'none' as const })),
              ),
            ),
          );

          const now = new Date(base + nowOffset);
          expect(await sumKeyUsage(db(), keys, now)).toEqual(await referenceKeyUsage(db(), keys, now));
          for (const userId of users) {
            for (const since of [base, base + 3 * DAY_MS]) {
              expect(await listDailyUsage(db(), { userId, since: new Date(since) })).toEqual(
                await referenceDaily(db(), userId, new Date(since)),
              );
            }
          }
          for (const range of ranges) {
            const from = new Date(base + range.fromMs);
            const to = new Date(from.getTime() + range.lengthMs);
            expect(
              await usageReport(db(), { from, to, groupBy: range.groupBy }),
              `${from.toISOString()} ${to.toISOString()} ${range.groupBy}`,
            ).toEqual(await referenceReport(db(), from, to, range.groupBy));
          }
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
  });

  it('keep a lifetime total per key, and count a key only toward its own rows', async () => {
    const user = (await insertTestUser(db())).id;
    const key = uniqueId('key_');
    const at = new Date('2000-06-15T12:00:00Z');
    const record = (cost: bigint, apiKeyId: string | null): NewGeneration => ({
      id: uniqueId('gen-'),
      user_id: user,
      api_key_id: apiKeyId,
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
      cost_nanos: cost,
      reference_cost_nanos: null,
      latency_ms: 1,
      time_to_first_token_ms: null,
      app_title: null,
      app_referer: null,
      task_id: null,
      created_at: at,
    });
    await settleGenerationBatch(
      db(),
      [record(5n, key), record(7n, key), record(11n, null)].map((r) => ({ record: r, settle: 'none' as const })),
    );
    const totals = await db().selectFrom('usage_key_totals').selectAll().where('api_key_id', '=', key).execute();
    expect(totals).toEqual([{ api_key_id: key, requests: 2n, cost_nanos: 12n }]);
    // A response-cache hit through the key: charged (3) but not a request, and its savings (40) are kept apart.
    await settleGenerationBatch(db(), [
      { record: { ...record(3n, key), cache_hit: true, cache_saved_nanos: 40n }, settle: 'none' as const },
    ]);
    expect(await db().selectFrom('usage_key_totals').selectAll().where('api_key_id', '=', key).execute()).toEqual([
      { api_key_id: key, requests: 2n, cost_nanos: 15n },
    ]);
    expect(
      await db()
        .selectFrom('usage_daily')
        .select(['requests', 'cache_hits', 'cache_saved_nanos'])
        .where('api_key_id', '=', key)
        .execute(),
    ).toEqual([{ requests: 2n, cache_hits: 1n, cache_saved_nanos: 40n }]);
    const daily = await db()
      .selectFrom('usage_daily')
      .select(['api_key_id', 'requests', 'cost_nanos', sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day')])
      .where('user_id', '=', user)
      .orderBy('api_key_id')
      .execute();
    expect(daily).toEqual([
      { api_key_id: '', requests: 1n, cost_nanos: 11n, day: '2000-06-15' },
      { api_key_id: key, requests: 2n, cost_nanos: 15n, day: '2000-06-15' },
    ]);
  });
});
