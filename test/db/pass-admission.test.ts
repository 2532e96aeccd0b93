// Pass admission against the database with an injected clock: 403 without an active period, reservation
// and settlement through the billing functions, 429 per window with its retry time, 400 for a request
// larger than a window, and the usage report.
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { admitPass } from '../../src/pass/admit-pass.js';
import { passUsageOf, passUsageReport, toWirePassUsage } from '../../src/pass/usage-report.js';
import { releaseAdmission, type Admission } from '../../src/billing/admission.js';
import { settleGeneration } from '../../src/billing/settlement.js';
import { insertSubscription, revokeSubscriptions } from '../../src/repositories/subscriptions.js';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

const at = (iso: string) => new Date(iso);
const limits = { fiveHourNanos: 1_000n, weeklyNanos: 3_000n, monthlyNanos: 5_000n };

async function subscribedUser(db: Db, from = '2025-11-01T00:00:00Z', to = '2025-12-31T00:00:00Z') {
  const user = await insertTestUser(db);
  await insertSubscription(db, {
    id: uniqueId('sub_'),
    user_id: user.id,
    plan: 'pass',
    price_nanos: 9_990_000_000n,
    period_start: at(from),
    period_end: at(to),
  });
  return user;
}

function admit(db: Db, userId: string, now: string, amountNanos: bigint) {
  return admitPass({ db, now: () => at(now), passQuota: limits }, { userId, modelId: 'pass/test', amountNanos });
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
}

function record(userId: string, costNanos: bigint): NewGeneration {
  return {
    id: uniqueId('gen-'),
    user_id: userId,
    api_key_id: null,
    access_mode: 'pass',
    model: 'pass/test',
    provider: 'pass',
    upstream_model: 'test',
    upstream_id: null,
    streamed: false,
    finish_reason: 'stop',
    status: 'success',
    http_status: 200,
    error_code: null,
    error_message: null,
    cost_nanos: 0n,
    reference_cost_nanos: costNanos,
    latency_ms: 5,
    time_to_first_token_ms: null,
    app_title: null,
    app_referer: null,
    task_id: null,
  };
}

describeEachDatabase('pass admission', (ctx) => {
  it('refuses with 403 outside an active, unrevoked subscription period', async () => {
    const db = ctx.db();
    const nobody = await insertTestUser(db);
    expect((await refusal(admit(db, nobody.id, '2025-11-21T12:00:00Z', 1n))).status).toBe(403);
    const user = await subscribedUser(db);
    expect((await refusal(admit(db, user.id, '2025-10-31T23:59:59Z', 1n))).status).toBe(403); // before the period
    expect((await refusal(admit(db, user.id, '2025-12-31T00:00:00Z', 1n))).status).toBe(403); // the end is exclusive
    await admit(db, user.id, '2025-11-21T12:00:00Z', 1n);
    await revokeSubscriptions(db, user.id, at('2025-11-21T12:00:00Z'));
    const err = await refusal(admit(db, user.id, '2025-11-21T12:00:01Z', 1n));
    expect(err.status).toBe(403);
    expect(err.metadata).toMatchObject({ reason: 'subscription_required', model: 'pass/test' });
  });

  it('reserves, then settles to the real reference cost with the generation record (no ledger row)', async () => {
    const db = ctx.db();
    const user = await subscribedUser(db);
    const now = '2025-11-21T12:00:00Z';
    const reservation = await admit(db, user.id, now, 600n);
    // A second request cannot reserve past the limit while the first is in flight.
    expect((await refusal(admit(db, user.id, now, 401n))).status).toBe(429);
    const admission: Admission = {
      mode: 'pass',
      userId: user.id,
      reservedNanos: 600n,
      passUsageId: reservation.usageId,
    };
    const rec = record(user.id, 150n);
    await settleGeneration(db, admission, rec);
    await settleGeneration(db, admission, rec); // a retried settle changes nothing
    const rows = await db.selectFrom('pass_usage').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toEqual([
      expect.objectContaining({ status: 'settled', reference_cost_nanos: 150n, generation_id: rec.id }),
    ]);
    expect(await db.selectFrom('credit_ledger').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    // 150 used: 850 fits exactly, one nano more does not.
    const exact = await admit(db, user.id, now, 850n);
    await releaseAdmission(db, { ...admission, passUsageId: exact.usageId });
    expect((await refusal(admit(db, user.id, now, 851n))).status).toBe(429);
  });

  it('names the rolling window with the time enough of its oldest usage ages out', async () => {
    const db = ctx.db();
    const user = await subscribedUser(db);
    for (const [time, cost] of [
      ['2025-11-21T08:00:00Z', 400n],
      ['2025-11-21T09:00:00Z', 300n],
      ['2025-11-21T10:00:00Z', 200n],
    ] as const) {
      const r = await admit(db, user.id, time, cost);
      await settleGeneration(
        db,
        { mode: 'pass', userId: user.id, reservedNanos: cost, passUsageId: r.usageId },
        record(user.id, cost),
      );
    }
    // 900 used at 12:00; 500 more needs 400 gone: the 08:00 row ages out at 13:00.
    const err = await refusal(admit(db, user.id, '2025-11-21T12:00:00Z', 500n));
    expect(err.status).toBe(429);
    expect(err.metadata).toMatchObject({
      window: 'five_hour',
      used: 9e-7,
      limit: 1e-6,
      required: 5e-7,
      resets_at: '2025-11-21T13:00:00.000Z',
    });
    expect(err.headers['retry-after']).toBe('3600');
    // At 13:00 exactly the 08:00 row no longer counts (the window is (now − 5 h, now]).
    await admit(db, user.id, '2025-11-21T13:00:00Z', 500n);
  });

  it('names the weekly window until Monday 00:00, and the monthly one until the 1st', async () => {
    const db = ctx.db();
    const user = await subscribedUser(db);
    // Spread over the week so the rolling window never blocks: 3 × 1000 on Mon, Tue, Wed.
    for (const day of ['2025-11-17', '2025-11-18', '2025-11-19']) {
      const r = await admit(db, user.id, `${day}T10:00:00Z`, 1_000n);
      await settleGeneration(
        db,
        { mode: 'pass', userId: user.id, reservedNanos: 1_000n, passUsageId: r.usageId },
        record(user.id, 1_000n),
      );
    }
    const sunday = await refusal(admit(db, user.id, '2025-11-23T23:00:00Z', 1n));
    expect(sunday.metadata).toMatchObject({ window: 'weekly', resets_at: '2025-11-24T00:00:00.000Z' });
    expect(sunday.headers['retry-after']).toBe('3600');
    // Monday: a new week, same month (3000 of 5000 used).
    for (const day of ['2025-11-24', '2025-11-25']) {
      const r = await admit(db, user.id, `${day}T10:00:00Z`, 1_000n);
      await settleGeneration(
        db,
        { mode: 'pass', userId: user.id, reservedNanos: 1_000n, passUsageId: r.usageId },
        record(user.id, 1_000n),
      );
    }
    const monthly = await refusal(admit(db, user.id, '2025-11-27T10:00:00Z', 1n));
    expect(monthly.metadata).toMatchObject({ window: 'monthly', used: 5e-6, resets_at: '2025-12-01T00:00:00.000Z' });
    await admit(db, user.id, '2025-12-01T00:00:00Z', 1_000n); // a new month (and week)
  });

  it('answers 400 when one request is larger than a whole window', async () => {
    const db = ctx.db();
    const user = await subscribedUser(db);
    const err = await refusal(admit(db, user.id, '2025-11-21T12:00:00Z', 1_001n));
    expect(err.status).toBe(400);
    expect(err.metadata).toMatchObject({ reason: 'request_exceeds_pass_window', window: 'five_hour' });
  });

  it('reports used, limit, remaining and reset per window plus the period', async () => {
    const db = ctx.db();
    const user = await subscribedUser(db);
    const deps = (now: string) => ({ db, now: () => at(now), passQuota: limits });
    expect(await passUsageReport(deps('2026-01-05T00:00:00Z'), user.id)).toBeUndefined();
    const empty = toWirePassUsage((await passUsageReport(deps('2025-11-21T12:00:00Z'), user.id))!);
    expect(empty.five_hour).toEqual({ used: 0, limit: 1e-6, remaining: 1e-6, resets_at: '2025-11-21T17:00:00.000Z' });
    const r = await admit(db, user.id, '2025-11-21T11:00:00Z', 700n);
    await settleGeneration(
      db,
      { mode: 'pass', userId: user.id, reservedNanos: 700n, passUsageId: r.usageId },
      record(user.id, 250n),
    );
    await admit(db, user.id, '2025-11-21T11:30:00Z', 100n); // in flight: counts at its upper bound
    const report = toWirePassUsage((await passUsageReport(deps('2025-11-21T12:00:00Z'), user.id))!);
    expect(report).toEqual({
      active: true,
      five_hour: { used: 3.5e-7, limit: 1e-6, remaining: 6.5e-7, resets_at: '2025-11-21T12:30:00.000Z' },
      weekly: { used: 3.5e-7, limit: 3e-6, remaining: 2.65e-6, resets_at: '2025-11-24T00:00:00.000Z' },
      monthly: { used: 3.5e-7, limit: 5e-6, remaining: 4.65e-6, resets_at: '2025-12-01T00:00:00.000Z' },
      subscription: { period_start: '2025-11-01T00:00:00.000Z', period_end: '2025-12-31T00:00:00.000Z' },
    });
    expect(await passUsageOf(deps('2025-11-21T12:00:00Z'), user.id)).toEqual(report);
    // After the period: a state, not an error; what is still inside the windows shows (the week of Dec 31 ends Jan 5).
    const after = await passUsageOf(deps('2025-12-31T00:00:01Z'), user.id);
    expect(after).toMatchObject({
      active: false,
      five_hour: { used: 0, limit: 1e-6 },
      monthly: { used: 0, limit: 5e-6, resets_at: '2026-01-01T00:00:00.000Z' },
    });
    expect(after).not.toHaveProperty('subscription');
  });
});
