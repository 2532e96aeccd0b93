import { expect, it } from 'vitest';
import {
  insertPassUsage,
  listRollingUsage,
  releasePassUsage,
  reservePassUsage,
  sumPassWindows,
} from '../../src/repositories/pass-usage.js';
import { STALE_RESERVATION_MS } from '../../src/pass/plan.js';
import { monthStart, weekStart } from '../../src/core/utc-calendar.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

describeEachDatabase('pass usage repository', (ctx) => {
  it('records each generation once', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const at = (iso: string) => new Date(iso);
    const generationId = uniqueId('gen-');

    expect(
      await insertPassUsage(db, {
        user_id: user.id,
        generation_id: generationId,
        reference_cost_nanos: 100n,
        created_at: at('2025-01-01T10:00:00Z'),
      }),
    ).toBe(true);
    expect(
      await insertPassUsage(db, { user_id: user.id, generation_id: generationId, reference_cost_nanos: 999n }),
    ).toBe(false);
    const rows = await db.selectFrom('pass_usage').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toMatchObject([
      { generation_id: generationId, reference_cost_nanos: 100n, created_at: at('2025-01-01T10:00:00Z') },
    ]);
  });
});

describeEachDatabase('pass usage reservations and window sums', (ctx) => {
  const at = (iso: string) => new Date(iso);
  const query = (userId: string, now: string) => ({
    userId,
    fiveHourAfter: new Date(Date.parse(now) - 5 * 3_600_000),
    weekFrom: weekStart(at(now)),
    monthFrom: monthStart(at(now)),
    reservationsAfter: new Date(Date.parse(now) - STALE_RESERVATION_MS),
  });

  it('drops an unused reservation once', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const id = await reservePassUsage(db, { userId: user.id, amountNanos: 500n, at: at('2025-11-21T10:00:00Z') });
    expect(await releasePassUsage(db, id)).toBe(true);
    expect(await releasePassUsage(db, id)).toBe(false);
    expect(await db.selectFrom('pass_usage').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('sums each window by its own start, counting live reservations but not stale ones', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const settled = (iso: string, nanos: bigint) =>
      insertPassUsage(db, {
        user_id: user.id,
        generation_id: uniqueId('gen-'),
        reference_cost_nanos: nanos,
        created_at: at(iso),
      });
    const now = '2025-12-01T02:00:00Z'; // a Monday, the first of the month, 02:00
    await settled('2025-11-28T12:00:00Z', 1n); // last week, last month
    await settled('2025-11-30T21:00:00Z', 10n); // exactly 5 h before now: already aged out; Sunday: last week
    await settled('2025-11-30T21:00:00.001Z', 100n); // inside the rolling window, still last week and last month
    await settled('2025-12-01T00:00:00Z', 1000n); // this week, this month (the starts are inclusive)
    await reservePassUsage(db, { userId: user.id, amountNanos: 10_000n, at: at('2025-12-01T01:30:00Z') }); // live
    await reservePassUsage(db, { userId: user.id, amountNanos: 100_000n, at: at('2025-12-01T01:00:00Z') }); // exactly 1 h old: stale

    expect(await sumPassWindows(db, query(user.id, now))).toEqual({
      fiveHour: 11_100n,
      weekly: 11_000n,
      monthly: 11_000n,
    });
    const rolling = await listRollingUsage(db, query(user.id, now));
    expect(rolling.map((r) => [r.reference_cost_nanos, r.status])).toEqual([
      [100n, 'settled'],
      [1000n, 'settled'],
      [10_000n, 'reserved'],
    ]);
  });
});
