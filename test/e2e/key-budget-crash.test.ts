// A key's limit across a crash: a `modelgate serve` process killed with SIGKILL while a request of a limited key is
// in flight leaves its lease of the key's budget (the request's hold inside it); another gateway instance gives it
// back on its lease heartbeat once the lease TTL has passed (by the database clock), while its own lease stays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { DEFAULT_LEASE_OPTIONS } from '../../src/billing/credit-leases.js';
import { keyBudgetId } from '../../src/billing/key-budget.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { requestOnce, startServe, type ServeProcess } from '../helpers/serve-process.js';

const work = mkdtempSync(path.join(tmpdir(), 'modelgate-key-crash-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const WAIT = { timeout: 10_000, interval: 50 };
const body = JSON.stringify({
  model: 'openai/gpt-test',
  messages: [{ role: 'user', content: 'hi' }],
  stream: false,
  max_tokens: 1000,
});

describeWithPostgres('key spend holds of a killed instance [postgres]', () => {
  let database: OpenTestDatabase;
  let upstream: MockUpstream;
  let killed: ServeProcess;
  let survivor: TestGateway;

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    // Every request stays in flight: its hold on the key's limit is taken and not yet settled.
    upstream.always({ kind: 'hang' });
    database = await openTestDatabase('postgres', { migrated: true });
    const env = {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    };
    killed = await startServe({ env: { ...env, DATABASE_URL: database.url! }, logFile: path.join(work, 'killed.log') });
    survivor = await startTestGateway({ database, env });
  }, 120_000);
  afterAll(async () => {
    if (killed?.child.exitCode === null) killed.child.kill('SIGKILL');
    await upstream?.close();
    await survivor?.close();
    await database?.close();
  }, 120_000);

  const keySpend = async (budgetId: string) =>
    database.db
      .selectFrom('budget_spend')
      .select(['spent_nanos', 'leased_nanos'])
      .where('budget_id', '=', budgetId)
      .executeTakeFirstOrThrow();
  const holds = async (budgetId: string) =>
    Object.fromEntries(
      (
        await database.db
          .selectFrom('budget_leases')
          .select(['holder', 'amount_nanos'])
          .where('budget_id', '=', budgetId)
          .execute()
      ).map((row) => [row.holder, row.amount_nanos]),
    );

  it("gives the killed instance's lease of the key's budget back after the TTL and keeps the live instance's", async () => {
    const owner = await survivor.createUser();
    await survivor.grant(owner.userId, 10);
    const created = await survivor.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: await survivor.createToken(owner.userId),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci job', limit: 1 }),
    });
    const key = (await created.json()) as { key: string; key_id: string };
    const budget = keyBudgetId(owner.userId, key.key_id);
    const headers = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };

    // One request in flight on each instance.
    const onKilled = requestOnce(`${killed.url}/api/v1/chat/completions`, { method: 'POST', headers, body }).catch(
      (err: Error) => err,
    );
    await vi.waitFor(() => expect(upstream.requests).toHaveLength(1), WAIT);
    const onSurvivor = requestOnce(`${survivor.url}/api/v1/chat/completions`, { method: 'POST', headers, body });
    await vi.waitFor(() => expect(upstream.requests).toHaveLength(2), WAIT);

    const live = survivor.parts.leases.holder;
    const held = await holds(budget);
    const dead = Object.keys(held).find((holder) => holder !== live)!;
    expect(Object.keys(held).sort()).toEqual([dead, live].sort());
    expect(held[dead]).toBeGreaterThan(0n);
    expect(held[live]).toBeGreaterThan(0n);

    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(await onKilled).toBeInstanceOf(Error);
    // Dead, its lease still shrinks the key's limit.
    expect((await keySpend(budget)).leased_nanos).toBe(held[dead] + held[live]);

    // Within the TTL the survivor's heartbeat leaves it alone (the killed process might only be slow).
    await survivor.parts.leases.tick();
    expect(await holds(budget)).toEqual(held);

    // The TTL passes by the database clock: both rows were last renewed longer ago than that. The survivor's tick
    // renews its own row and gives the killed instance's lease back.
    await sql`update budget_leases set renewed_at = now() - make_interval(secs => ${DEFAULT_LEASE_OPTIONS.ttlSeconds + 5})
      where budget_id = ${budget}`.execute(database.db);
    await survivor.parts.leases.tick();
    expect(await holds(budget)).toEqual({ [live]: held[live] });
    expect(await keySpend(budget)).toEqual({ spent_nanos: 0n, leased_nanos: held[live] });

    // The survivor's request fails upstream (the vendor drops the connection): its hold goes back to its lease, which
    // goes back whole once given up; nothing was spent.
    await upstream.close();
    expect((await onSurvivor).status).toBe(502);
    await survivor.settled();
    await survivor.parts.leases.budgets.releaseIdle(0);
    expect(await keySpend(budget)).toEqual({ spent_nanos: 0n, leased_nanos: 0n });
  });
});
