import { expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import {
  getCreditAccount,
  grantCredits,
  InsufficientCreditsError,
  listLedger,
  releaseCredits,
  reserveCredits,
} from '../../src/repositories/credits.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';
import { settleCreditsRequest } from '../helpers/generation-records.js';

const USD = 1_000_000_000n;

async function funded(db: Db, amountNanos: bigint) {
  const user = await insertTestUser(db);
  await grantCredits(db, { userId: user.id, amountNanos, note: 'test funding' });
  return user.id;
}

describeEachDatabase('credits repository', (ctx) => {
  it('reports zeros for a user without an account', async () => {
    const user = await insertTestUser(ctx.db());
    expect(await getCreditAccount(ctx.db(), user.id)).toEqual({
      balanceNanos: 0n,
      reservedNanos: 0n,
      totalGrantedNanos: 0n,
      totalUsedNanos: 0n,
    });
  });

  it('grants credits into a new or existing account and writes grant ledger rows', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    expect((await grantCredits(db, { userId: user.id, amountNanos: 5n * USD, note: 'welcome' })).balanceNanos).toBe(
      5n * USD,
    );
    expect((await grantCredits(db, { userId: user.id, amountNanos: 2n * USD })).balanceNanos).toBe(7n * USD);
    expect(await getCreditAccount(db, user.id)).toEqual({
      balanceNanos: 7n * USD,
      reservedNanos: 0n,
      totalGrantedNanos: 7n * USD,
      totalUsedNanos: 0n,
    });
    const ledger = await listLedger(db, user.id, 10);
    expect(ledger.map((r) => [r.kind, r.amount_nanos, r.note])).toEqual([
      ['grant', 2n * USD, null],
      ['grant', 5n * USD, 'welcome'],
    ]);
    expect(ledger[0].created_at).toBeInstanceOf(Date);
    expect(typeof ledger[0].id).toBe('bigint');
    await expect(grantCredits(db, { userId: user.id, amountNanos: 0n })).rejects.toBeInstanceOf(RangeError);
  });

  it('removes credits with an adjustment, but never below what is reserved', async () => {
    const db = ctx.db();
    const userId = await funded(db, 10n * USD);
    expect(await reserveCredits(db, { userId, amountNanos: 6n * USD })).toEqual({ ok: true });

    const rejected = grantCredits(db, { userId, amountNanos: -5n * USD, note: 'too much' });
    await expect(rejected).rejects.toBeInstanceOf(InsufficientCreditsError);
    await expect(rejected).rejects.toMatchObject({ requestedNanos: 5n * USD, availableNanos: 4n * USD });
    expect((await listLedger(db, userId, 10)).length).toBe(1); // nothing written for the rejected one

    expect((await grantCredits(db, { userId, amountNanos: -4n * USD, note: 'refund' })).balanceNanos).toBe(6n * USD);
    expect(await getCreditAccount(db, userId)).toEqual({
      balanceNanos: 6n * USD,
      reservedNanos: 6n * USD,
      totalGrantedNanos: 6n * USD,
      totalUsedNanos: 0n,
    });
    expect((await listLedger(db, userId, 1))[0]).toMatchObject({ kind: 'adjustment', amount_nanos: -4n * USD });

    const noAccount = await insertTestUser(db);
    await expect(grantCredits(db, { userId: noAccount.id, amountNanos: -1n })).rejects.toMatchObject({
      availableNanos: 0n,
    });
  });

  it('reserves only what is available', async () => {
    const db = ctx.db();
    const userId = await funded(db, 100n);
    expect(await reserveCredits(db, { userId, amountNanos: 60n })).toEqual({ ok: true });
    expect(await reserveCredits(db, { userId, amountNanos: 41n })).toEqual({ ok: false, availableNanos: 40n });
    expect(await reserveCredits(db, { userId, amountNanos: 40n })).toEqual({ ok: true });
    expect(await reserveCredits(db, { userId, amountNanos: 1n })).toEqual({ ok: false, availableNanos: 0n });
    expect(await reserveCredits(db, { userId, amountNanos: 0n })).toEqual({ ok: true });
    expect((await getCreditAccount(db, userId)).reservedNanos).toBe(100n);

    const broke = await insertTestUser(db);
    expect(await reserveCredits(db, { userId: broke.id, amountNanos: 1n })).toEqual({ ok: false, availableNanos: 0n });
    await expect(reserveCredits(db, { userId, amountNanos: -1n })).rejects.toBeInstanceOf(RangeError);
  });

  it('settles the real cost, releases the reservation and writes one debit row', async () => {
    const db = ctx.db();
    const userId = await funded(db, 1000n);
    const generationId = uniqueId('gen-');
    await reserveCredits(db, { userId, amountNanos: 300n });

    const result = await settleCreditsRequest(db, { userId, generationId, reservedNanos: 300n, costNanos: 120n });
    expect(result).toEqual({ fresh: true, debitedNanos: 120n });
    expect(await getCreditAccount(db, userId)).toEqual({
      balanceNanos: 880n,
      reservedNanos: 0n,
      totalGrantedNanos: 1000n,
      totalUsedNanos: 120n,
    });
    expect((await listLedger(db, userId, 1))[0]).toMatchObject({
      kind: 'debit',
      amount_nanos: -120n,
      generation_id: generationId,
    });
  });

  it('settles each generation at most once', async () => {
    const db = ctx.db();
    const userId = await funded(db, 1000n);
    const generationId = uniqueId('gen-');
    await reserveCredits(db, { userId, amountNanos: 100n });
    await reserveCredits(db, { userId, amountNanos: 100n }); // another request's reservation

    const settles = await Promise.all(
      [1, 2, 3].map(() => settleCreditsRequest(db, { userId, generationId, reservedNanos: 100n, costNanos: 70n })),
    );
    expect(settles.filter((s) => s.fresh)).toHaveLength(1);
    expect(settles.every((s) => s.debitedNanos === 70n)).toBe(true);
    // The repeated settles released nothing: the other request's 100 is still held.
    expect(await getCreditAccount(db, userId)).toMatchObject({
      balanceNanos: 930n,
      reservedNanos: 100n,
      totalUsedNanos: 70n,
    });
    const debits = (await listLedger(db, userId, 10)).filter((r) => r.kind === 'debit');
    expect(debits).toHaveLength(1);
  });

  it('debits a cost above the reservation in full, into debt past what other requests hold, then refuses reservations', async () => {
    const db = ctx.db();
    const userId = await funded(db, 100n);
    await reserveCredits(db, { userId, amountNanos: 30n }); // ours
    await reserveCredits(db, { userId, amountNanos: 50n }); // someone else's

    const over = await settleCreditsRequest(db, {
      userId,
      generationId: uniqueId('gen-'),
      reservedNanos: 30n,
      costNanos: 80n,
    });
    expect(over).toEqual({ fresh: true, debitedNanos: 80n });
    expect(await getCreditAccount(db, userId)).toMatchObject({ balanceNanos: 20n, reservedNanos: 50n });
    const theirs = await settleCreditsRequest(db, {
      userId,
      generationId: uniqueId('gen-'),
      reservedNanos: 50n,
      costNanos: 50n,
    });
    expect(theirs).toEqual({ fresh: true, debitedNanos: 50n });
    expect(await getCreditAccount(db, userId)).toEqual({
      balanceNanos: -30n,
      reservedNanos: 0n,
      totalGrantedNanos: 100n,
      totalUsedNanos: 130n,
    });
    // In debt: nothing more is admitted, and nothing can be removed, until a grant pays it off.
    expect(await reserveCredits(db, { userId, amountNanos: 1n })).toEqual({ ok: false, availableNanos: 0n });
    await expect(grantCredits(db, { userId, amountNanos: -1n })).rejects.toMatchObject({
      requestedNanos: 1n,
      availableNanos: 0n,
    });
    await grantCredits(db, { userId, amountNanos: 31n });
    expect(await reserveCredits(db, { userId, amountNanos: 1n })).toEqual({ ok: true });
  });

  it('records a zero-cost settle, also for a user without an account', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const generationId = uniqueId('gen-');
    const result = await settleCreditsRequest(db, { userId: user.id, generationId, reservedNanos: 0n, costNanos: 0n });
    expect(result).toEqual({ fresh: true, debitedNanos: 0n });
    expect(await settleCreditsRequest(db, { userId: user.id, generationId, reservedNanos: 0n, costNanos: 0n })).toEqual(
      {
        fresh: false,
        debitedNanos: 0n,
      },
    );
    expect(await listLedger(db, user.id, 10)).toHaveLength(0);
  });

  it('releases reservations without touching the balance, clamped at zero', async () => {
    const db = ctx.db();
    const userId = await funded(db, 500n);
    await reserveCredits(db, { userId, amountNanos: 200n });
    await releaseCredits(db, { userId, amountNanos: 150n });
    expect(await getCreditAccount(db, userId)).toMatchObject({ balanceNanos: 500n, reservedNanos: 50n });
    await releaseCredits(db, { userId, amountNanos: 999n });
    expect(await getCreditAccount(db, userId)).toMatchObject({ balanceNanos: 500n, reservedNanos: 0n });
    expect(await listLedger(db, userId, 10)).toHaveLength(1);
  });

  it('composes into a caller’s transaction and rolls back with it', async () => {
    const db = ctx.db();
    const userId = await funded(db, 100n);
    await expect(
      db.transaction().execute(async (trx) => {
        await grantCredits(trx, { userId, amountNanos: 50n });
        await settleCreditsRequest(trx, { userId, generationId: uniqueId('gen-'), reservedNanos: 0n, costNanos: 20n });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await getCreditAccount(db, userId)).toMatchObject({ balanceNanos: 100n, totalUsedNanos: 0n });
    expect(await listLedger(db, userId, 10)).toHaveLength(1);
  });

  it('refuses a debit ledger row without a generation id', async () => {
    const db = ctx.db();
    const userId = await funded(db, 1n);
    const insert = db.insertInto('credit_ledger').values({ user_id: userId, kind: 'debit', amount_nanos: -1n });
    await expect(insert.execute()).rejects.toMatchObject({ code: '23514' });
  });
});
