// Many requests of one subscriber racing through admit → settle | release against small windows. Whatever
// the interleaving, no window ever holds more than its limit (settled usage plus live reservations), every
// refusal is a 429 for a window that really was full, and what is left afterwards matches what settled.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { admitPass } from '../../src/pass/admit-pass.js';
import { releaseAdmission } from '../../src/billing/admission.js';
import { settleGeneration } from '../../src/billing/settlement.js';
import { insertSubscription } from '../../src/repositories/subscriptions.js';
import { sumPassWindows } from '../../src/repositories/pass-usage.js';
import { STALE_RESERVATION_MS } from '../../src/pass/plan.js';
import { windowStarts } from '../../src/pass/windows.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

interface Operation {
  reserve: number;
  outcome: 'settle' | 'release';
  /** Real cost as a fraction of the reservation (an upper bound, so at most 1). */
  costRatio: number;
  /** Minutes after the run's start; all within one rolling window, so every request competes. */
  minute: number;
}

const operation: fc.Arbitrary<Operation> = fc.record({
  reserve: fc.integer({ min: 1, max: 400 }),
  outcome: fc.oneof(
    { arbitrary: fc.constant('settle' as const), weight: 3 },
    { arbitrary: fc.constant('release' as const), weight: 1 },
  ),
  costRatio: fc.oneof(
    { arbitrary: fc.constant(1), weight: 2 },
    { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 2 },
  ),
  minute: fc.integer({ min: 0, max: 59 }),
});

const START = Date.parse('2025-11-21T12:00:00Z');
const END_OF_RUN = new Date(START + 60 * 60_000);

async function windowSums(db: Db, userId: string, now: Date) {
  return sumPassWindows(db, {
    userId,
    ...windowStarts(now),
    reservationsAfter: new Date(now.getTime() - STALE_RESERVATION_MS),
  });
}

describeEachDatabase('pass quota under concurrency', (ctx) => {
  it('never lets the windows exceed their limits, whatever the interleaving', async () => {
    const db = ctx.db();
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(fc.integer({ min: 200, max: 1500 })),
        fc.noBias(fc.array(operation, { minLength: 20, maxLength: 40 })),
        async (fiveHourLimit, operations) => {
          const { id: userId } = await insertTestUser(db);
          await insertSubscription(db, {
            id: uniqueId('sub_'),
            user_id: userId,
            plan: 'pass',
            price_nanos: 1n,
            period_start: new Date(START - 86_400_000),
            period_end: new Date(START + 86_400_000),
          });
          // The weekly window is a little larger than the 5-hour one, so both can be the one that blocks.
          const passQuota = {
            fiveHourNanos: BigInt(fiveHourLimit),
            weeklyNanos: BigInt(fiveHourLimit + 100),
            monthlyNanos: 1_000_000n,
          };
          const outcomes = await Promise.all(
            operations.map(async (op) => {
              const now = new Date(START + op.minute * 60_000);
              const amountNanos = BigInt(op.reserve);
              let usageId: bigint;
              try {
                ({ usageId } = await admitPass(
                  { db, now: () => now, passQuota },
                  { userId, modelId: 'pass/test', amountNanos },
                ));
              } catch (err) {
                expect(err).toBeInstanceOf(GatewayError);
                expect([429, 400]).toContain((err as GatewayError).status);
                return 0n;
              }
              const held = await windowSums(db, userId, END_OF_RUN);
              expect(held.fiveHour).toBeLessThanOrEqual(passQuota.fiveHourNanos);
              expect(held.weekly).toBeLessThanOrEqual(passQuota.weeklyNanos);
              const admission = { mode: 'pass' as const, userId, reservedNanos: amountNanos, passUsageId: usageId };
              if (op.outcome === 'release') {
                await releaseAdmission(db, admission);
                return 0n;
              }
              const cost = BigInt(Math.floor(op.reserve * op.costRatio));
              await settleGeneration(db, admission, {
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
                reference_cost_nanos: cost,
                latency_ms: 1,
                time_to_first_token_ms: null,
                app_title: null,
                app_referer: null,
                task_id: null,
              });
              return cost;
            }),
          );
          const settled = outcomes.reduce((sum, cost) => sum + cost, 0n);
          const final = await windowSums(db, userId, END_OF_RUN);
          expect(final.fiveHour).toBe(settled);
          expect(final.fiveHour).toBeLessThanOrEqual(passQuota.fiveHourNanos);
          expect(
            await db
              .selectFrom('pass_usage')
              .select('id')
              .where('user_id', '=', userId)
              .where('status', '=', 'reserved')
              .execute(),
          ).toEqual([]);
          // Nothing is held back: what is left of the smaller window can still be reserved.
          const room = passQuota.fiveHourNanos - final.fiveHour;
          if (room > 0n)
            await admitPass(
              { db, now: () => END_OF_RUN, passQuota },
              { userId, modelId: 'pass/test', amountNanos: room },
            );
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
  });
});
