// Key-spend holds tied to the process that took them (migration 0009): the holds of a process that stops renewing
// them (SIGKILL) are given back after the lease TTL, by the database clock, on the credit leases' periodic path,
// while a live process's holds are untouched; settlement still turns each hold into spend exactly once.
import fc from 'fast-check';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { admitCredits, releaseAdmission, type Admission } from '../../src/billing/admission.js';
import { settleGenerations } from '../../src/billing/settlement.js';
import { CreditLeases, DEFAULT_LEASE_OPTIONS } from '../../src/billing/credit-leases.js';
import { grantCredits, listLedger } from '../../src/repositories/credits.js';
import { findKeySpend, releaseKeySpend, reserveKeySpend } from '../../src/repositories/api-key-spend.js';
import { reclaimExpiredKeySpendHolds } from '../../src/repositories/api-key-spend-holds.js';
import { issueApiKey } from '../../src/auth/issue-credentials.js';
import type { Principal } from '../../src/auth/principal.js';
import type { CatalogEntry } from '../../src/catalog/types.js';
import { createLogger } from '../../src/logger.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';
import type { Db } from '../../src/db/database.js';

const PERIOD = new Date('2026-03-10T00:00:00Z');
const TTL = DEFAULT_LEASE_OPTIONS.ttlSeconds;
const silent = createLogger('silent');

async function limitedKey(db: Db, limitNanos: bigint) {
  const user = await insertTestUser(db);
  await grantCredits(db, { userId: user.id, amountNanos: 1_000_000_000n });
  const { row } = await issueApiKey(db, { organizationId: user.id, memberUserId: user.id, name: 'k' });
  await db.updateTable('api_keys').set({ credit_limit_nanos: limitNanos }).where('id', '=', row.id).execute();
  return { userId: user.id, keyId: row.id };
}

function process(db: Db, holder = uniqueId('gw-')): CreditLeases {
  return new CreditLeases(db, silent, { ...DEFAULT_LEASE_OPTIONS, holder });
}

/** The holder's last heartbeat was `seconds` ago by the database clock (what a process killed that long ago leaves). */
async function lastHeard(db: Db, holder: string, seconds: number): Promise<void> {
  await sql`update api_key_spend_holds set renewed_at = now() - make_interval(secs => ${seconds}) where holder = ${holder}`.execute(
    db,
  );
}

async function holds(db: Db, keyId: string): Promise<Record<string, bigint>> {
  const rows = await db
    .selectFrom('api_key_spend_holds')
    .select(['holder', 'held_nanos'])
    .where('key_id', '=', keyId)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.holder, row.held_nanos]));
}

function keyAdmission(userId: string, keyId: string, heldNanos: bigint, holder: string): Admission {
  return {
    mode: 'credits',
    userId,
    reservedNanos: heldNanos,
    keySpend: { keyId, periodStart: PERIOD, heldNanos, holder },
  };
}

function record(userId: string, keyId: string, costNanos: bigint) {
  return { ...creditsGenerationRecord(userId, costNanos), api_key_id: keyId };
}

describeEachDatabase('key spend holds', ({ db }) => {
  it("gives a silent holder's holds back after the TTL on the live holder's tick; the live holder's stay", async () => {
    const { userId, keyId } = await limitedKey(db(), 1000n);
    const alive = process(db());
    const dead = uniqueId('killed-');
    expect((await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 400n, holder: dead })).ok).toBe(
      true,
    );
    expect((await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 100n, holder: dead })).ok).toBe(
      true,
    );
    expect(
      (await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 300n, holder: alive.holder })).ok,
    ).toBe(true);
    expect(await holds(db(), keyId)).toEqual({ [dead]: 500n, [alive.holder]: 300n });
    expect(
      (await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 300n, holder: alive.holder })).ok,
    ).toBe(false);

    // Within the TTL nothing is reclaimed, even from a holder that has been silent for a while.
    await lastHeard(db(), dead, TTL - 10);
    await lastHeard(db(), alive.holder, TTL - 10);
    await alive.tick();
    expect(await holds(db(), keyId)).toEqual({ [dead]: 500n, [alive.holder]: 300n });

    // Both last heard of past the TTL: the live one renews on its tick, the killed one is reclaimed on the same tick.
    await lastHeard(db(), dead, TTL + 60);
    await lastHeard(db(), alive.holder, TTL + 60);
    await alive.tick();
    expect(await holds(db(), keyId)).toEqual({ [alive.holder]: 300n });
    expect(await findKeySpend(db(), keyId, PERIOD)).toEqual({ spent_nanos: 0n, reserved_nanos: 300n });
    // The key's limit has its room back.
    expect(
      (await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 700n, holder: alive.holder })).ok,
    ).toBe(true);

    // The live holder's requests settle exactly once against what they held.
    const batch = [300n, 700n].map((held, i) => ({
      admission: keyAdmission(userId, keyId, held, alive.holder),
      record: record(userId, keyId, [120n, 680n][i]),
    }));
    expect(await settleGenerations(db(), batch)).toBe(2);
    expect(await settleGenerations(db(), batch)).toBe(0);
    expect(await findKeySpend(db(), keyId, PERIOD)).toEqual({ spent_nanos: 800n, reserved_nanos: 0n });
    expect(await holds(db(), keyId)).toEqual({ [alive.holder]: 0n });
    const debits = (await listLedger(db(), userId, 10))
      .filter((row) => row.kind === 'debit')
      .map((row) => row.amount_nanos);
    expect(debits.sort((a, b) => (a < b ? -1 : 1))).toEqual([-680n, -120n]);
    await alive.close();
    expect(await holds(db(), keyId)).toEqual({});
  });

  it('settles a request of a holder that only looked dead without giving its hold back twice', async () => {
    const { userId, keyId } = await limitedKey(db(), 1000n);
    const [slow, other] = [uniqueId('slow-'), uniqueId('other-')];
    expect((await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 600n, holder: slow })).ok).toBe(
      true,
    );
    expect((await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 400n, holder: other })).ok).toBe(
      true,
    );
    await lastHeard(db(), slow, TTL + 1);
    expect(await reclaimExpiredKeySpendHolds(db(), TTL)).toBe(1);
    expect(await findKeySpend(db(), keyId, PERIOD)).toEqual({ spent_nanos: 0n, reserved_nanos: 400n });
    // Its release after the reclaim changes nothing (the other holder's hold stays whole).
    await releaseKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: 600n, holder: slow });
    expect(await findKeySpend(db(), keyId, PERIOD)).toEqual({ spent_nanos: 0n, reserved_nanos: 400n });
    // Its settlement counts the cost (within what the limit leaves beside the other hold) and releases nothing more.
    expect(
      await settleGenerations(db(), [
        { admission: keyAdmission(userId, keyId, 600n, slow), record: record(userId, keyId, 500n) },
      ]),
    ).toBe(1);
    expect(await findKeySpend(db(), keyId, PERIOD)).toEqual({ spent_nanos: 500n, reserved_nanos: 400n });
    expect(await holds(db(), keyId)).toEqual({ [other]: 400n });
    expect(
      await settleGenerations(db(), [
        { admission: keyAdmission(userId, keyId, 400n, other), record: record(userId, keyId, 400n) },
      ]),
    ).toBe(1);
    expect(await findKeySpend(db(), keyId, PERIOD)).toEqual({ spent_nanos: 900n, reserved_nanos: 0n });
  });

  it('records the hold under the process holder at admission, and gives it back on release', async () => {
    const { userId, keyId } = await limitedKey(db(), 10n ** 9n);
    const leases = process(db());
    const principal: Principal = {
      kind: 'api_key',
      organizationId: userId,
      memberUserId: userId,
      role: 'owner',
      email: 'k@example.com',
      credentialId: keyId,
      limits: {
        rateLimitRpm: null,
        rateLimitTpm: null,
        freeRequestsPerDay: null,
        creditLimitNanos: 10n ** 9n,
        limitReset: null,
      },
    };
    const entry = {
      id: 'openai/gpt-test',
      accessMode: 'credits',
      contextLength: 1000,
      maxOutputTokens: 10,
      pricing: { base: { input: 10n ** 9n, output: 10n ** 9n, cachedRead: 0n, cachedWrite: 0n }, tiers: [] },
    } as unknown as CatalogEntry;
    const admission = await admitCredits({ db: db(), leases }, principal, entry, {
      estimatedPromptTokens: 10,
      requestedMaxTokens: 10,
    });
    expect(admission.keySpend?.holder).toBe(leases.holder);
    const held = admission.keySpend!.heldNanos;
    expect(held).toBeGreaterThan(0n);
    expect(await holds(db(), keyId)).toEqual({ [leases.holder]: held });
    await releaseAdmission(db(), admission);
    expect(await holds(db(), keyId)).toEqual({ [leases.holder]: 0n });
    expect((await findKeySpend(db(), keyId, new Date(0)))?.reserved_nanos).toBe(0n);
    await leases.close();
  });

  it('keeps reserved equal to the holds and the limit, through random reservations, settlements and crashes', async () => {
    type Op =
      | { kind: 'reserve'; holder: number; amount: number }
      | { kind: 'settle'; pick: number; costPercent: number }
      | { kind: 'release'; pick: number }
      | { kind: 'crash'; holder: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('reserve' as const), holder: fc.nat(2), amount: fc.integer({ min: 1, max: 400 }) }),
      fc.record({
        kind: fc.constant('settle' as const),
        pick: fc.nat(),
        costPercent: fc.integer({ min: 0, max: 150 }),
      }),
      fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('crash' as const), holder: fc.nat(2) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 1500 }),
        async (ops, limit) => {
          const { userId, keyId } = await limitedKey(db(), BigInt(limit));
          const holders = [0, 1, 2].map(() => uniqueId('h-'));
          const inFlight: { holder: string; held: bigint }[] = [];
          // The model: what each holder's row holds, the key's reserved total and spend, the settled costs.
          const row = new Map<string, bigint>();
          let reserved = 0n;
          let spent = 0n;
          let settledCosts = 0n;
          let settled = 0;
          // What settlements charged beyond the holds they released (a cost above its bound, or a reclaimed hold's request
          // that ended anyway): the debt rule counts it whole, so the spend may pass the limit by this much.
          let beyondHolds = 0n;
          for (const step of ops) {
            if (step.kind === 'reserve') {
              const holder = holders[step.holder];
              const amount = BigInt(step.amount);
              const ok = (await reserveKeySpend(db(), { keyId, periodStart: PERIOD, amountNanos: amount, holder })).ok;
              expect(ok).toBe(spent + reserved + amount <= BigInt(limit));
              if (ok) {
                inFlight.push({ holder, held: amount });
                row.set(holder, (row.get(holder) ?? 0n) + amount);
                reserved += amount;
              }
            } else if (step.kind === 'crash') {
              const holder = holders[step.holder];
              await lastHeard(db(), holder, TTL + 1);
              await reclaimExpiredKeySpendHolds(db(), TTL);
              reserved -= row.get(holder) ?? 0n;
              row.delete(holder);
            } else if (inFlight.length > 0) {
              // A request of a crashed holder may still end (the process only looked dead).
              const [request] = inFlight.splice(step.pick % inFlight.length, 1);
              const released = min(request.held, row.get(request.holder) ?? 0n);
              if (row.has(request.holder)) row.set(request.holder, row.get(request.holder)! - released);
              if (step.kind === 'release') {
                await releaseKeySpend(db(), {
                  keyId,
                  periodStart: PERIOD,
                  amountNanos: request.held,
                  holder: request.holder,
                });
              } else {
                const cost = (request.held * BigInt(step.costPercent)) / 100n;
                const admission = keyAdmission(userId, keyId, request.held, request.holder);
                expect(await settleGenerations(db(), [{ admission, record: record(userId, keyId, cost) }])).toBe(1);
                spent += cost;
                beyondHolds += max0(cost - released);
                settledCosts += cost;
                if (cost > 0n) settled += 1;
              }
              reserved -= released;
            }
            expect((await findKeySpend(db(), keyId, PERIOD)) ?? { spent_nanos: 0n, reserved_nanos: 0n }).toEqual({
              spent_nanos: spent,
              reserved_nanos: reserved,
            });
            const rows = await holds(db(), keyId);
            expect(Object.values(rows).reduce((sum, held) => sum + held, 0n)).toBe(reserved);
            expect(spent + reserved).toBeLessThanOrEqual(BigInt(limit) + beyondHolds);
          }
          // Every request's cost was debited from the account exactly once, whatever the key's limit counted.
          const debits = (await listLedger(db(), userId, 100)).filter((r) => r.kind === 'debit');
          expect(debits).toHaveLength(settled);
          expect(debits.reduce((sum, r) => sum - r.amount_nanos, 0n)).toBe(settledCosts);
          // Every process stops: nothing stays held.
          for (const holder of holders) await process(db(), holder).close();
          expect((await findKeySpend(db(), keyId, PERIOD))?.reserved_nanos ?? 0n).toBe(0n);
        },
      ),
      { numRuns: 15 },
    );
  });
});

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max0(a: bigint): bigint {
  return a > 0n ? a : 0n;
}
