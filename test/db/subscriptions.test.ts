import { expect, it } from 'vitest';
import {
  findActiveSubscription,
  insertSubscription,
  revokeSubscriptions,
} from '../../src/repositories/subscriptions.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

describeEachDatabase('subscriptions repository', (ctx) => {
  it('finds the subscription whose period contains now', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const base = { user_id: user.id, plan: 'pass' as const, price_nanos: 20_000_000_000n };
    const january = await insertSubscription(db, {
      ...base,
      id: uniqueId('sub_'),
      period_start: day('2025-01-01'),
      period_end: day('2025-02-01'),
    });
    const february = await insertSubscription(db, {
      ...base,
      id: uniqueId('sub_'),
      period_start: day('2025-02-01'),
      period_end: day('2025-03-01'),
    });
    expect(january).toMatchObject({ price_nanos: 20_000_000_000n, revoked_at: null, period_end: day('2025-02-01') });

    expect((await findActiveSubscription(db, user.id, day('2025-01-15')))?.id).toBe(january.id);
    // The end is exclusive: at the boundary the next period applies.
    expect((await findActiveSubscription(db, user.id, day('2025-02-01')))?.id).toBe(february.id);
    expect(await findActiveSubscription(db, user.id, day('2024-12-31'))).toBeUndefined();
    expect(await findActiveSubscription(db, user.id, day('2025-03-01'))).toBeUndefined();
  });

  it('revokes current and future subscriptions, not past ones', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const base = { user_id: user.id, plan: 'pass' as const, price_nanos: 1n };
    const past = await insertSubscription(db, {
      ...base,
      id: uniqueId('sub_'),
      period_start: day('2025-01-01'),
      period_end: day('2025-02-01'),
    });
    await insertSubscription(db, {
      ...base,
      id: uniqueId('sub_'),
      period_start: day('2025-02-01'),
      period_end: day('2025-03-01'),
    });
    const now = day('2025-02-10');

    expect(await revokeSubscriptions(db, user.id, now)).toBe(1);
    expect(await findActiveSubscription(db, user.id, now)).toBeUndefined();
    expect(await revokeSubscriptions(db, user.id, now)).toBe(0);
    const pastRow = await db
      .selectFrom('subscriptions')
      .select('revoked_at')
      .where('id', '=', past.id)
      .executeTakeFirstOrThrow();
    expect(pastRow.revoked_at).toBeNull();
  });

  it('rejects an empty period', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const insert = insertSubscription(db, {
      id: uniqueId('sub_'),
      user_id: user.id,
      plan: 'pass',
      price_nanos: 1n,
      period_start: day('2025-02-01'),
      period_end: day('2025-02-01'),
    });
    await expect(insert).rejects.toMatchObject({ code: '23514' });
  });
});
