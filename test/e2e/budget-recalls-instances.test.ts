// A budget's limit lowered through one gateway instance reaches the other's leases at once: both served the key, so
// both lease part of its period; the limit is lowered on B to less than what B leases; every instance gives back
// what no request of its own holds (the database tells them at commit), so A's next request is admitted or refused
// by the new limit alone, long before any lease would go back idle or expire. A key's limit and an organization's
// budget alike.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CreditLeases, DEFAULT_LEASE_OPTIONS } from '../../src/billing/credit-leases.js';
import { keyBudgetId } from '../../src/billing/key-budget.js';
import { createLogger } from '../../src/logger.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { describeEachBackend, openTestDatabase, uniqueId, type OpenTestDatabase } from '../helpers/databases.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

const WAIT = { timeout: 5000, interval: 20 };
const HOUR_MS = 3_600_000;
/** Below one request's upper bound (10 output tokens at 8 USD per million are 80 000 nano-USD alone). */
const SLACK_NANOS = 20_000n;
const reply = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 },
};

describeEachBackend('budget leases recalled when a limit is lowered', (backend) => {
  let database: OpenTestDatabase;
  let upstream: MockUpstream;
  let a: TestGateway;
  let b: TestGateway;

  beforeAll(async () => {
    database = await openTestDatabase(backend, { migrated: true });
    upstream = await new MockUpstream().start();
    upstream.always({ kind: 'json', body: reply });
    const env = {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    };
    // Leases that go back neither idle nor by a heartbeat during the test: only a recall can bring them back.
    const leases = () =>
      new CreditLeases(database.db, createLogger('silent'), {
        ...DEFAULT_LEASE_OPTIONS,
        holder: uniqueId('gw-'),
        renewIntervalMs: HOUR_MS,
        idleReleaseMs: HOUR_MS,
      });
    a = await startTestGateway({ database, env, overrides: { leases: leases() } });
    b = await startTestGateway({ database, env, overrides: { leases: leases() } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await upstream?.close();
    await database?.close();
  });

  async function chat(gw: TestGateway, key: string) {
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'openai/gpt-test',
        messages: [{ role: 'user', content: 'hi' }],
        stream: false,
        max_tokens: 10,
      }),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function call(gw: TestGateway, method: string, path: string, token: string, body: unknown) {
    const res = await gw.fetch(`/api/v1${path}`, {
      method,
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.status;
  }

  const period = (budgetId: string) =>
    database.db.selectFrom('budget_spend').selectAll().where('budget_id', '=', budgetId).executeTakeFirstOrThrow();
  const leaseOf = async (budgetId: string, gw: TestGateway) =>
    (
      await database.db
        .selectFrom('budget_leases')
        .select('amount_nanos')
        .where('budget_id', '=', budgetId)
        .where('holder', '=', gw.parts.leases.holder)
        .executeTakeFirstOrThrow()
    ).amount_nanos;
  const usd = (nanos: bigint) => Number(nanos) / 1e9;

  /**
   * Both instances serve `key` (each leases part of the budget), then `lower` sets the limit on B to `limit(spent,
   * leased by B)`; once nothing is leased any more, A answers its next request as the new limit says.
   */
  async function lowerOnB(
    input: { budgetId: string; key: string },
    limit: (spentNanos: bigint, leasedByB: bigint) => bigint,
    lower: (limitUsd: number) => Promise<number>,
  ) {
    // Both read the limit as it is now (their credential notifications make them, asynchronously).
    for (const gw of [a, b]) gw.parts.credentials.invalidateAll();
    expect((await chat(a, input.key)).status).toBe(200);
    expect((await chat(b, input.key)).status).toBe(200);
    await a.settled();
    await b.settled();
    const { spent_nanos: spent } = await period(input.budgetId);
    expect(await lower(usd(limit(spent, await leaseOf(input.budgetId, b))))).toBe(200);
    // Nothing is in flight: once both gave back what they lease, nothing is leased.
    await vi.waitFor(async () => expect((await period(input.budgetId)).leased_nanos).toBe(0n), WAIT);
    // As A's credential notification does (asynchronously): A reads the new limit with the key.
    a.parts.credentials.invalidateAll();
    return chat(a, input.key);
  }

  it("admits on A by a key's lowered limit what B's old lease would have refused, and refuses beyond it", async () => {
    const owner = await a.createUser();
    await a.grant(owner.userId, 10);
    const token = await a.createToken(owner.userId);
    const created = await a.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci', limit: 0.01 }),
    });
    const key = (await created.json()) as { key: string; key_id: string };
    const target = { budgetId: keyBudgetId(owner.userId, key.key_id), key: key.key };
    const patch = (limit: number) => call(b, 'PATCH', `/api-keys/${key.key_id}`, token, { limit });
    // Room for A's request only once B's lease is back.
    const admitted = await lowerOnB(target, (spent, leasedByB) => spent + leasedByB + SLACK_NANOS, patch);
    expect(admitted.status).toBe(200);
    // Raised again (nothing to recall), then no room left at all.
    expect(await patch(0.01)).toBe(200);
    const refused = await lowerOnB(target, (spent) => spent + SLACK_NANOS, patch);
    expect(refused.status).toBe(402);
    expect(refused.body.error.metadata).toMatchObject({ reason: 'key_limit_exceeded', budget: 'key' });
  });

  it("admits on A by an organization's lowered budget what B's old lease would have refused", async () => {
    const owner = await a.createUser();
    await a.grant(owner.userId, 10);
    const token = await a.createToken(owner.userId);
    const org = owner.userId;
    const put = (limit_usd: number) => call(b, 'PUT', `/organizations/${org}/budget`, token, { limit_usd });
    expect(await put(0.01)).toBe(200);
    const target = { budgetId: `organization:${org}`, key: owner.key };
    const admitted = await lowerOnB(target, (spent, leasedByB) => spent + leasedByB + SLACK_NANOS, put);
    expect(admitted.status).toBe(200);
    expect(await put(0.01)).toBe(200);
    const refused = await lowerOnB(target, (spent) => spent + SLACK_NANOS, put);
    expect(refused.status).toBe(402);
    expect(refused.body.error.metadata).toMatchObject({ reason: 'budget_exceeded', budget: 'organization' });
  });
});
