// Batched settlement (what the settlement queue writes): many requests of several users reserved concurrently,
// then settled in random batches, some twice. Whatever the split: every cost debited in full (a debt at most what
// requests cost beyond their reservations), every reservation returned, one debit per generation, and the ledger
// equals the recorded costs.
import fc from 'fast-check';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { settleGenerations, type Settlement } from '../../src/billing/settlement.js';
import { getCreditAccount, grantCredits, listLedger, reserveCredits } from '../../src/repositories/credits.js';
import { reservePassUsage } from '../../src/repositories/pass-usage.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';
import { describeEachDatabase, insertTestUser } from '../helpers/databases.js';

describeEachDatabase('batched settlement', ({ db }) => {
  it('keeps the credit invariants for any batching of any costs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            user: fc.integer({ min: 0, max: 2 }),
            reserve: fc.integer({ min: 1, max: 400 }),
            costRatio: fc.double({ min: 0, max: 1.5, noNaN: true }),
          }),
          { minLength: 1, maxLength: 24 },
        ),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
        fc.boolean(),
        async (requests, batchSizes, settleTwice) => {
          const users = await Promise.all(
            [0, 1, 2].map(async () => {
              const user = await insertTestUser(db());
              await grantCredits(db(), { userId: user.id, amountNanos: 1000n });
              return user.id;
            }),
          );
          const admitted = await Promise.all(
            requests.map(async (r) => {
              const userId = users[r.user];
              const ok = (await reserveCredits(db(), { userId, amountNanos: BigInt(r.reserve) })).ok;
              return ok
                ? { userId, reserved: BigInt(r.reserve), cost: BigInt(Math.floor(r.reserve * r.costRatio)) }
                : undefined;
            }),
          );
          const settlements: Settlement[] = admitted
            .filter((a) => a !== undefined)
            .map((a) => ({
              admission: { mode: 'credits', userId: a.userId, reservedNanos: a.reserved },
              record: creditsGenerationRecord(a.userId, a.cost),
            }));
          let rest = [...settlements];
          for (let i = 0; rest.length > 0; i++) {
            const size = batchSizes[i % batchSizes.length];
            await Promise.all([
              settleGenerations(db(), rest.slice(0, size)),
              settleTwice ? settleGenerations(db(), rest.slice(0, size)) : undefined,
            ]);
            rest = rest.slice(size);
          }
          for (const userId of users) {
            const account = await getCreditAccount(db(), userId);
            expect(account.reservedNanos).toBe(0n);
            const debits = (await listLedger(db(), userId, 1000)).filter((row) => row.kind === 'debit');
            const mine = settlements.filter((s) => s.admission.userId === userId && s.record.cost_nanos !== 0n);
            expect(debits).toHaveLength(mine.length);
            const debited = debits.reduce((sum, row) => sum - row.amount_nanos, 0n);
            expect(account.totalUsedNanos).toBe(debited);
            expect(account.balanceNanos).toBe(1000n - debited);
            // Every cost is debited in full, whatever the balance had left: a shortfall is debt, never written off.
            for (const s of mine)
              expect(-debits.find((d) => d.generation_id === s.record.id)!.amount_nanos).toBe(s.record.cost_nanos);
            const excess = mine.reduce(
              (sum, s) =>
                sum +
                (s.record.cost_nanos! > s.admission.reservedNanos
                  ? s.record.cost_nanos! - s.admission.reservedNanos
                  : 0n),
              0n,
            );
            expect(account.balanceNanos).toBeGreaterThanOrEqual(-excess);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('settles a record listed twice in one batch once, beside free records, in one statement', async () => {
    const userId = (await insertTestUser(db())).id;
    await grantCredits(db(), { userId, amountNanos: 1000n });
    expect((await reserveCredits(db(), { userId, amountNanos: 300n })).ok).toBe(true);
    const paid = creditsGenerationRecord(userId, 120n);
    const free = { ...creditsGenerationRecord(userId, 0n), access_mode: 'free' as const };
    const settlement: Settlement = { admission: { mode: 'credits', userId, reservedNanos: 300n }, record: paid };
    const fresh = await settleGenerations(db(), [
      settlement,
      { admission: { mode: 'free', userId, reservedNanos: 0n }, record: free },
      settlement,
    ]);
    expect(fresh).toBe(2);
    expect(await getCreditAccount(db(), userId)).toMatchObject({
      balanceNanos: 880n,
      reservedNanos: 0n,
      totalUsedNanos: 120n,
    });
    expect(
      (await listLedger(db(), userId, 10)).filter((row) => row.kind === 'debit').map((row) => row.amount_nanos),
    ).toEqual([-120n]);
    const recorded = await db()
      .selectFrom('generations')
      .select(['id', 'access_mode', 'cost_nanos'])
      .where('user_id', '=', userId)
      .orderBy('access_mode')
      .execute();
    expect(recorded).toEqual([
      { id: paid.id, access_mode: 'credits', cost_nanos: 120n },
      { id: free.id, access_mode: 'free', cost_nanos: 0n },
    ]);
    expect(await settleGenerations(db(), [settlement])).toBe(0);
    expect(await getCreditAccount(db(), userId)).toMatchObject({ balanceNanos: 880n, reservedNanos: 0n });
  });

  it('settles credits, pass and free records of several users in one batch, each as if alone', async () => {
    const [payer, other, subscriber] = await Promise.all([0, 1, 2].map(async () => (await insertTestUser(db())).id));
    for (const userId of [payer, other]) {
      await grantCredits(db(), { userId, amountNanos: 1000n });
      expect((await reserveCredits(db(), { userId, amountNanos: 200n })).ok).toBe(true);
    }
    const at = new Date();
    const [usedPass, unusedPass] = await Promise.all([
      reservePassUsage(db(), { userId: subscriber, amountNanos: 500n, at }),
      reservePassUsage(db(), { userId: subscriber, amountNanos: 500n, at }),
    ]);
    const passRecord = (referenceCost: bigint) => ({
      ...creditsGenerationRecord(subscriber, 0n),
      access_mode: 'pass' as const,
      reference_cost_nanos: referenceCost,
    });
    const used = passRecord(70n);
    const batch: Settlement[] = [
      { admission: { mode: 'pass', userId: subscriber, reservedNanos: 500n, passUsageId: usedPass }, record: used },
      {
        admission: { mode: 'credits', userId: other, reservedNanos: 200n },
        record: creditsGenerationRecord(other, 150n),
      },
      {
        admission: { mode: 'free', userId: payer, reservedNanos: 0n },
        record: { ...creditsGenerationRecord(payer, 0n), access_mode: 'free' },
      },
      {
        admission: { mode: 'pass', userId: subscriber, reservedNanos: 500n, passUsageId: unusedPass },
        record: passRecord(0n),
      },
      {
        admission: { mode: 'credits', userId: payer, reservedNanos: 200n },
        record: creditsGenerationRecord(payer, 40n),
      },
    ];
    expect(await settleGenerations(db(), batch)).toBe(5);
    expect(await getCreditAccount(db(), payer)).toMatchObject({
      balanceNanos: 960n,
      reservedNanos: 0n,
      totalUsedNanos: 40n,
    });
    expect(await getCreditAccount(db(), other)).toMatchObject({
      balanceNanos: 850n,
      reservedNanos: 0n,
      totalUsedNanos: 150n,
    });
    const passRows = await db()
      .selectFrom('pass_usage')
      .select(['id', 'status', 'generation_id', 'reference_cost_nanos'])
      .where('user_id', '=', subscriber)
      .execute();
    expect(passRows).toEqual([{ id: usedPass, status: 'settled', generation_id: used.id, reference_cost_nanos: 70n }]);
    expect(
      await db()
        .selectFrom('generations')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .where(
          'id',
          'in',
          batch.map((s) => s.record.id),
        )
        .executeTakeFirst(),
    ).toEqual({ n: 5n });
  });

  it("still settles through the previous release's jsonb signature (processes not yet upgraded)", async () => {
    const userId = (await insertTestUser(db())).id;
    await grantCredits(db(), { userId, amountNanos: 1000n });
    expect((await reserveCredits(db(), { userId, amountNanos: 300n })).ok).toBe(true);
    const { cost_nanos: cost, ...record } = creditsGenerationRecord(userId, 120n);
    const batch = JSON.stringify([{ ...record, cost_nanos: String(cost), settle: 'credits', reserved_nanos: '300' }]);
    const { rows } = await sql<{ fresh: number }>`select settle_generations(${batch}::jsonb) as fresh`.execute(db());
    expect(rows).toEqual([{ fresh: 1 }]);
    expect(await getCreditAccount(db(), userId)).toMatchObject({
      balanceNanos: 880n,
      reservedNanos: 0n,
      totalUsedNanos: 120n,
    });
  });

  it('writes every column of a record as given', async () => {
    const userId = (await insertTestUser(db())).id;
    const createdAt = new Date('2026-11-02T03:04:05.678Z');
    const record = {
      ...creditsGenerationRecord(userId, 0n),
      member_user_id: userId,
      access_mode: 'free' as const,
      upstream_id: 'chatcmpl-1',
      streamed: true,
      finish_reason: 'length',
      status: 'error' as const,
      http_status: 502,
      error_code: 'upstream_error',
      error_message: 'bad "gateway" \u00e9',
      prompt_tokens: 11,
      completion_tokens: 22,
      cached_tokens: 3,
      cache_write_tokens: 4,
      reasoning_tokens: 5,
      reference_cost_nanos: 9_007_199_254_740_993n,
      latency_ms: 1234,
      time_to_first_token_ms: 56,
      app_title: 'App',
      app_referer: 'https://app.test/',
      task_id: 'task-7',
      created_at: createdAt,
      api_format: 'embeddings' as const,
      cache_hit: true,
      cache_saved_nanos: 9_007_199_254_740_995n,
      usage_estimated: true,
      web_search_requests: 7,
      tool_uses: { file_search: 3, code_interpreter: 4 },
      byok: true,
      guardrails: ['emails', 'cards'],
      attempts: [
        { provider: 'groq', model: 'meta/llama-4', status: 429, error_code: 'rate_limit', latency_ms: 12 },
        { provider: 'openrouter', model: 'meta/llama-4', status: 200, error_code: null, latency_ms: 340 },
      ],
    };
    expect(await settleGenerations(db(), [{ admission: { mode: 'free', userId, reservedNanos: 0n }, record }])).toBe(1);
    const row = await db().selectFrom('generations').selectAll().where('id', '=', record.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ ...record, cost_nanos: 0n });
  });
});
