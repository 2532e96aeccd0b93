// The webhook outbox on both databases: events written in the change's transaction, delivered by the deliverer with
// retries on its schedule, signed so the Standard Webhooks library verifies them, once even with two deliverers.
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { OPERATOR } from '../../src/auth/member-roles.js';
import { parseMasterKey } from '../../src/auth/secret-box.js';
import { createLogger } from '../../src/logger.js';
import { createKey, deleteKey, updateKey } from '../../src/services/api-keys.js';
import { CONSOLE_ACTOR } from '../../src/services/audit-log.js';
import { adjustCredits } from '../../src/services/credits.js';
import { WebhookDeliverer } from '../../src/services/webhook-deliverer.js';
import { createWebhook } from '../../src/services/webhooks.js';
import type { Db } from '../../src/db/database.js';
import { describeEachDatabase, insertTestUser } from '../helpers/databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/** A budget's settled spend moving within one period, told to the one emitter the settled-spend triggers call. */
interface BudgetSpendChange {
  organizationId: string;
  level: string;
  budgetId: string;
  keyId?: string;
  limitNanos: bigint;
  spentBeforeNanos: bigint;
  spentAfterNanos: bigint;
  periodStart: Date;
  resetsAt: Date | null;
}

async function emitBudgetThreshold(db: Db, change: BudgetSpendChange): Promise<number> {
  const { rows } = await sql<{ emitted: number }>`select webhook_budget_threshold(${change.organizationId},
    ${change.level}, ${change.budgetId}, ${change.keyId ?? null}, ${change.limitNanos}, ${change.spentBeforeNanos},
    ${change.spentAfterNanos}, ${change.periodStart}, ${change.resetsAt}) as emitted`.execute(db);
  return Number(rows[0]?.emitted ?? 0);
}

const masterKey = parseMasterKey(Buffer.alloc(32, 7).toString('base64'));
const changer = { actor: OPERATOR, audit: CONSOLE_ACTOR };
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

describeEachDatabase('webhook outbox', (ctx) => {
  async function receiver(answer?: (n: number) => number | Promise<number>) {
    const r = await startWebhookReceiver(answer);
    receivers.push(r);
    return r;
  }

  function deliverer(now: () => Date, options: { schedule?: number[] } = {}) {
    return new WebhookDeliverer({
      db: ctx.db(),
      logger: createLogger('silent'),
      masterKey,
      timeoutMs: 5_000,
      retentionDays: 30,
      retryScheduleMs: options.schedule,
      now,
      random: () => 0.5,
      // The receivers listen on 127.0.0.1.
      allowPrivateDestinations: true,
    });
  }

  async function organizationWithHook(url: string, eventTypes: string[], extra: { budgetThresholds?: number[] } = {}) {
    const user = await insertTestUser(ctx.db());
    const { row, secret } = await createWebhook(ctx.db(), changer, {
      organizationId: user.id,
      settings: { url, eventTypes, ...extra },
      masterKey,
      allowPrivate: true,
    });
    return { user, endpoint: row, secret };
  }

  it('retries a receiver that fails twice, then it accepts; every attempt is recorded and the signature verifies', async () => {
    const r = await receiver((n) => (n <= 2 ? 503 : 204));
    const { user, endpoint, secret } = await organizationWithHook(r.url, ['key.created']);
    const { row: key } = await createKey(ctx.db(), {
      organizationId: user.id,
      memberUserId: user.id,
      settings: { name: 'ci' },
      now: new Date(),
      maxKeys: 10,
      actor: CONSOLE_ACTOR,
    });
    let clock = new Date('2026-01-01T00:00:00Z');
    // Written in the key's transaction: due at once, whatever the deliverer's clock says.
    const d = deliverer(() => clock, { schedule: [1_000, 2_000, 4_000] });
    clock = new Date(Date.now() + 60_000);
    expect(await d.runOnce()).toBe(1);
    // Not due yet: the retry waits for its delay (with jitter at 0.5, exactly the delay).
    expect(await d.runOnce()).toBe(0);
    clock = new Date(clock.getTime() + 1_000);
    expect(await d.runOnce()).toBe(1);
    clock = new Date(clock.getTime() + 2_000);
    expect(await d.runOnce()).toBe(1);
    clock = new Date(clock.getTime() + 60_000);
    expect(await d.runOnce()).toBe(0);
    expect(r.received).toHaveLength(3);
    const last = r.received[2];
    const payload = new Webhook(secret).verify(last.body, last.headers) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload).toMatchObject({
      type: 'key.created',
      data: { organization_id: user.id, key_id: key.id, name: 'ci' },
    });
    expect(last.body).not.toContain(key.key_hash);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
    const attempts = await ctx
      .db()
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select(['a.attempt', 'a.status_code', 'a.error', 'a.next_attempt_at', 'd.status'])
      .where('d.endpoint_id', '=', endpoint.id)
      .orderBy('a.id')
      .execute();
    expect(attempts.map((a) => [a.attempt, a.status_code, a.next_attempt_at === null])).toEqual([
      [1, 503, false],
      [2, 503, false],
      [3, 204, true],
    ]);
    expect(attempts[0].error).toBe('HTTP 503');
    expect(attempts[2].status).toBe('delivered');
  });

  it('marks a delivery failed after the last try of the schedule', async () => {
    const r = await receiver(() => 500);
    const { user } = await organizationWithHook(r.url, ['member.removed', 'key.revoked', 'key.limit_changed']);
    const { row: key } = await createKey(ctx.db(), {
      organizationId: user.id,
      memberUserId: user.id,
      settings: { name: 'k' },
      now: new Date(),
      maxKeys: 10,
      actor: CONSOLE_ACTOR,
    });
    await updateKey(ctx.db(), undefined, {
      userId: user.id,
      keyId: key.id,
      settings: { limitNanos: 5_000_000_000n },
      now: new Date(),
      actor: CONSOLE_ACTOR,
    });
    await deleteKey(ctx.db(), undefined, { userId: user.id, keyId: key.id, now: new Date(), actor: CONSOLE_ACTOR });
    let clock = new Date(Date.now() + 1000);
    const d = deliverer(() => clock, { schedule: [1_000] });
    expect(await d.runOnce()).toBe(2);
    clock = new Date(clock.getTime() + 1_000);
    expect(await d.runOnce()).toBe(2);
    clock = new Date(clock.getTime() + 100_000);
    expect(await d.runOnce()).toBe(0);
    const types = r.received.map((x) => (JSON.parse(x.body) as { type: string }).type).sort();
    expect(types).toEqual(['key.limit_changed', 'key.limit_changed', 'key.revoked', 'key.revoked']);
    const deliveries = await ctx.db().selectFrom('webhook_deliveries').select(['status', 'attempts']).execute();
    expect(deliveries.filter((x) => x.attempts === 2).every((x) => x.status === 'failed')).toBe(true);
  });

  it('two deliverers on one database send each event once', async () => {
    const r = await receiver();
    const { user } = await organizationWithHook(r.url, ['key.created']);
    for (let i = 0; i < 12; i++)
      await createKey(ctx.db(), {
        organizationId: user.id,
        memberUserId: user.id,
        settings: { name: `k${i}` },
        now: new Date(),
        maxKeys: 100,
        actor: CONSOLE_ACTOR,
      });
    const clock = () => new Date(Date.now() + 1000);
    const [a, b] = [deliverer(clock), deliverer(clock)];
    const counts = await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(12);
    await Promise.all([a.runOnce(), b.runOnce()]);
    const ids = r.received.map((x) => x.headers['webhook-id']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('credits.low once per crossing below the threshold, from a credit removal; budget.threshold by its emitter', async () => {
    const r = await receiver();
    const { user } = await organizationWithHook(r.url, ['credits.low', 'budget.threshold'], {
      budgetThresholds: [0.5, 0.8],
    });
    const grant = (usd: number) =>
      adjustCredits(
        { db: ctx.db() },
        { userId: user.id, amountNanos: BigInt(usd * 1e9), note: null, by: CONSOLE_ACTOR },
      );
    await grant(3);
    await grant(-1.5); // 1.5 left: above the default 1 USD
    await grant(-1); // 0.5: crosses
    await grant(-0.25); // still below: no second event
    await grant(2); // back above
    await grant(-2); // crosses again
    const change = {
      organizationId: user.id,
      level: 'member',
      budgetId: `member:${user.id}:${user.id}`,
      limitNanos: 10_000_000_000n,
      spentBeforeNanos: 4_000_000_000n,
      spentAfterNanos: 8_500_000_000n,
      periodStart: new Date('2026-03-01T00:00:00Z'),
      resetsAt: new Date('2026-04-01T00:00:00Z'),
    };
    expect(await emitBudgetThreshold(ctx.db(), change)).toBe(2);
    // The same crossing told again (another instance, a retried batch) queues nothing; a new period fires again.
    expect(await emitBudgetThreshold(ctx.db(), { ...change, spentBeforeNanos: 0n })).toBe(0);
    const april = { ...change, periodStart: new Date('2026-04-01T00:00:00Z'), resetsAt: null };
    expect(await emitBudgetThreshold(ctx.db(), april)).toBe(2);
    await deliverer(() => new Date(Date.now() + 1000)).runOnce();
    const bodies = r.received.map((x) => JSON.parse(x.body) as { type: string; data: Record<string, unknown> });
    const low = bodies.filter((b) => b.type === 'credits.low');
    expect(low.map((b) => b.data.balance_usd)).toEqual(expect.arrayContaining([0.5, 0.25]));
    expect(low).toHaveLength(2);
    expect(low[0].data).toMatchObject({ organization_id: user.id, threshold_usd: 1 });
    const budget = bodies.filter((b) => b.type === 'budget.threshold');
    expect(budget.map((b) => b.data.threshold).sort()).toEqual([0.5, 0.5, 0.8, 0.8]);
    expect(budget.map((b) => b.data.resets_at).sort()).toEqual([
      '2026-04-01T00:00:00.000Z',
      '2026-04-01T00:00:00.000Z',
      null,
      null,
    ]);
    expect(budget[0].data).toMatchObject({
      organization_id: user.id,
      budget: 'member',
      budget_id: `member:${user.id}:${user.id}`,
      limit_usd: 10,
      spent_usd: 8.5,
    });
    expect(budget[0].data).not.toHaveProperty('key_id');
  });

  it('keeps the signing secret sealed in the database', async () => {
    const { endpoint, secret } = await organizationWithHook('https://example.com/hook', ['key.created']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const stored = await ctx
      .db()
      .selectFrom('webhook_endpoints')
      .select('secret_ciphertext')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_ciphertext.startsWith('v1:')).toBe(true);
    expect(stored.secret_ciphertext).not.toContain(secret.slice(6));
  });
});
