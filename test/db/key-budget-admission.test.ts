// A key's USD limit admitted as a budget (src/billing/key-budget.ts): once this process leases part of the key's
// period, a request runs no SQL statement before its upstream call; requests split over two instances never together
// overspend the limit by more than what costs took beyond their own holds; a new UTC period starts at zero on both.
import fc from 'fast-check';
import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { expect, it } from 'vitest';
import type { Principal } from '../../src/auth/principal.js';
import { admitAmount, returnLeasedHold, type Admission } from '../../src/billing/admission.js';
import { CreditLeases, DEFAULT_LEASE_OPTIONS } from '../../src/billing/credit-leases.js';
import { settleGenerations } from '../../src/billing/settlement.js';
import type { CatalogEntry } from '../../src/catalog/types.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { Db } from '../../src/db/database.js';
import type { KeyLimitReset } from '../../src/db/tables/api-keys.js';
import { createLogger } from '../../src/logger.js';
import { grantCredits } from '../../src/repositories/credits.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { describeEachDatabase, insertTestApiKey, insertTestUser, uniqueId } from '../helpers/databases.js';

const silent = createLogger('silent');
const paid = { accessMode: 'credits' } as CatalogEntry;

/** Counts every statement a database runs. */
class Statements implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    this.count += 1;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** An organization with credits and one API key of `limitNanos` per `reset` period. */
async function limitedKey(db: Db, limitNanos: bigint, reset: KeyLimitReset | null = null) {
  const user = await insertTestUser(db);
  await grantCredits(db, { userId: user.id, amountNanos: 1_000_000_000n });
  const key = await insertTestApiKey(db, user.id);
  await sql`update api_keys set credit_limit_nanos = ${limitNanos}, limit_reset = ${reset} where id = ${key.id}`.execute(
    db,
  );
  const principal = {
    kind: 'api_key',
    organizationId: user.id,
    memberUserId: user.id,
    credentialId: key.id,
    limits: {
      rateLimitRpm: null,
      rateLimitTpm: null,
      freeRequestsPerDay: null,
      creditLimitNanos: limitNanos,
      limitReset: reset,
    },
    budgets: { organization: null, member: null },
  } as unknown as Principal;
  return { userId: user.id, keyId: key.id, principal };
}

function instance(db: Db): CreditLeases {
  return new CreditLeases(db, silent, { ...DEFAULT_LEASE_OPTIONS, holder: uniqueId('gw-') });
}

function admit(leases: CreditLeases, db: Db, principal: Principal, amountNanos: bigint, now = new Date()) {
  return admitAmount({ db, leases, now: () => now, config: { passQuota: {} as never } }, principal, paid, amountNanos);
}

/** Settles a request at `costNanos`: in memory first (as the settlement queue does), then in the database. */
async function settle(db: Db, admission: Admission, keyId: string, costNanos: bigint): Promise<void> {
  returnLeasedHold(admission, costNanos);
  const record = { ...creditsGenerationRecord(admission.userId, costNanos), api_key_id: keyId };
  await settleGenerations(db, [{ admission, record }]);
}

async function keySpent(db: Db, organizationId: string, keyId: string): Promise<bigint> {
  const row = await db
    .selectFrom('budget_spend')
    .select('spent_nanos')
    .where('budget_id', '=', `key:${organizationId}:${keyId}`)
    .executeTakeFirst();
  return row?.spent_nanos ?? 0n;
}

describeEachDatabase("a key's limit as a budget", ({ db }) => {
  it('admits a limited key without a statement once the lease is granted, and refuses beyond the limit', async () => {
    const statements = new Statements();
    const counted = db().withPlugin(statements);
    const key = await limitedKey(db(), 100_000n);
    const leases = instance(counted);
    try {
      // The first request leases part of the key's period and of the credits (statements), and starts top-ups.
      const first = await admit(leases, counted, key.principal, 1_000n);
      await leases.extensionsDone();
      await leases.budgets.extensionsDone();
      statements.count = 0;
      const admissions: Admission[] = [];
      for (let i = 0; i < 5; i++) admissions.push(await admit(leases, counted, key.principal, 1_000n));
      expect(statements.count).toBe(0);
      for (const admission of [first, ...admissions]) await settle(db(), admission, key.keyId, 900n);
      expect(await keySpent(db(), key.userId, key.keyId)).toBe(5_400n);
      // Beyond the limit: the 402 says the key's limit and spend, as it always did.
      const refusal = await admit(leases, counted, key.principal, 100_000n).catch((err: unknown) => err);
      expect(refusal).toBeInstanceOf(GatewayError);
      expect((refusal as GatewayError).metadata).toMatchObject({
        reason: 'key_limit_exceeded',
        budget: 'key',
        key_id: key.keyId,
        limit: 0.0001,
        spent: 0.0000054,
        limit_remaining: 0.0000946,
        resets_at: null,
      });
    } finally {
      await leases.close();
    }
  });

  it('never lets two instances together overspend a key by more than what costs took beyond their holds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            on: fc.integer({ min: 0, max: 1 }),
            amount: fc.integer({ min: 1, max: 400 }),
            costRatio: fc.double({ min: 0, max: 1.3, noNaN: true }),
          }),
          { minLength: 1, maxLength: 24 },
        ),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 3000 }),
        async (requests, waves, limit) => {
          const key = await limitedKey(db(), BigInt(limit));
          const instances = [instance(db()), instance(db())];
          let costs = 0n;
          let beyond = 0n;
          let next = 0;
          try {
            for (const size of waves) {
              const wave = requests.slice(next, next + size);
              next += size;
              const spentBefore = await keySpent(db(), key.userId, key.keyId);
              const results = await Promise.allSettled(
                wave.map((r) => admit(instances[r.on], db(), key.principal, BigInt(r.amount))),
              );
              for (const result of results)
                if (result.status === 'rejected')
                  expect((result.reason as GatewayError).metadata).toMatchObject({ reason: 'key_limit_exceeded' });
              // What is in flight fits in what the key had left.
              const inFlight = wave.reduce(
                (sum, r, i) => (results[i].status === 'fulfilled' ? sum + BigInt(r.amount) : sum),
                0n,
              );
              expect(spentBefore + inFlight).toBeLessThanOrEqual(BigInt(limit) + beyond);
              for (const [i, result] of results.entries()) {
                if (result.status !== 'fulfilled') continue;
                const cost = BigInt(Math.floor(wave[i].amount * wave[i].costRatio));
                costs += cost;
                if (cost > BigInt(wave[i].amount)) beyond += cost - BigInt(wave[i].amount);
                await settle(db(), result.value, key.keyId, cost);
              }
              const spent = await keySpent(db(), key.userId, key.keyId);
              expect(spent).toBeLessThanOrEqual(BigInt(limit) + beyond);
              expect(spent).toBe(costs);
            }
          } finally {
            await Promise.all(instances.map((i) => i.close()));
          }
          const row = await db()
            .selectFrom('budget_spend')
            .selectAll()
            .where('budget_id', '=', `key:${key.userId}:${key.keyId}`)
            .executeTakeFirst();
          expect(row?.leased_nanos ?? 0n).toBe(0n);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('starts a daily key limit over at 00:00 UTC on both instances', async () => {
    const key = await limitedKey(db(), 1_000n, 'daily');
    const [a, b] = [instance(db()), instance(db())];
    const before = new Date('2026-03-10T23:59:30Z');
    const after = new Date('2026-03-11T00:00:00Z');
    try {
      await settle(db(), await admit(a, db(), key.principal, 600n, before), key.keyId, 1_000n);
      await a.budgets.releaseIdle(0);
      for (const gw of [a, b]) {
        const refusal = await admit(gw, db(), key.principal, 600n, before).catch((err: unknown) => err);
        expect((refusal as GatewayError).metadata).toMatchObject({
          reason: 'key_limit_exceeded',
          limit_reset: 'daily',
          resets_at: '2026-03-11T00:00:00.000Z',
        });
      }
      const next = await Promise.all([a, b].map((gw) => admit(gw, db(), key.principal, 400n, after)));
      for (const admission of next) await settle(db(), admission, key.keyId, 400n);
      const periods = await db()
        .selectFrom('budget_spend')
        .select(['period_start', 'spent_nanos'])
        .where('budget_id', '=', `key:${key.userId}:${key.keyId}`)
        .orderBy('period_start')
        .execute();
      expect(periods).toEqual([
        { period_start: new Date('2026-03-10T00:00:00Z'), spent_nanos: 1_000n },
        { period_start: after, spent_nanos: 800n },
      ]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
