import { expect, it } from 'vitest';
import {
  insertPassUsage,
  listRollingUsage,
  releasePassUsage,
  reservePassUsage,
  settlePassUsage,
  sumPassUsageSince,
  sumPassWindows,
} from '../../src/repositories/pass-usage.js';
import { STALE_RESERVATION_MS } from '../../src/pass/plan.js';
import { monthStart, weekStart } from '../../src/core/utc-calendar.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

describeEachDatabase('pass usage repository', (ctx) => {
  it('records each generation once and sums a window from its start', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const other = await insertTestUser(db);
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
    await insertPassUsage(db, {
      user_id: user.id,
      generation_id: uniqueId('gen-'),
      reference_cost_nanos: 250n,
      created_at: at('2025-01-01T14:00:00Z'),
    });
    await insertPassUsage(db, {
      user_id: other.id,
      generation_id: uniqueId('gen-'),
      reference_cost_nanos: 7n,
      created_at: at('2025-01-01T14:00:00Z'),
    });

    expect(await sumPassUsageSince(db, user.id, at('2025-01-01T00:00:00Z'))).toBe(350n);
    expect(await sumPassUsageSince(db, user.id, at('2025-01-01T14:00:00Z'))).toBe(250n);
    expect(await sumPassUsageSince(db, user.id, at('2025-01-02T00:00:00Z'))).toBe(0n);
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

  it('settles a reservation to its real cost once, and drops it when nothing was used', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const id = await reservePassUsage(db, { userId: user.id, amountNanos: 500n, at: at('2025-11-21T10:00:00Z') });
    const generationId = uniqueId('gen-');
    expect(await settlePassUsage(db, { id, generationId, referenceCostNanos: 120n })).toBe(true);
    expect(await settlePassUsage(db, { id, generationId, referenceCostNanos: 999n })).toBe(false);
    expect(await releasePassUsage(db, id)).toBe(false);
    const row = await db.selectFrom('pass_usage').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'settled',
      generation_id: generationId,
      reference_cost_nanos: 120n,
      created_at: at('2025-11-21T10:00:00Z'),
    });

    const unused = await reservePassUsage(db, { userId: user.id, amountNanos: 500n, at: at('2025-11-21T10:00:00Z') });
    expect(await settlePassUsage(db, { id: unused, generationId: uniqueId('gen-'), referenceCostNanos: 0n })).toBe(
      true,
    );
    expect(await db.selectFrom('pass_usage').select('id').where('id', '=', unused).executeTakeFirst()).toBeUndefined();
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
