// Issue 18 §2 end to end: two gateway instances on one database behind a round-robin balancer. A user with 10 USD
// whose requests may each cost up to 0.8 USD (16 of them are more than the balance) is served by both, and a credit
// removal succeeds while the user keeps sending requests, from a function call and through the operator API's HTTP
// route: the instances recall each other's leases over NOTIFY.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { describeEachBackend, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { adjustCredits } from '../../src/billing/adjust-credits.js';
import { getCreditAccount, listLedger } from '../../src/repositories/credits.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

const USD = 1_000_000_000n;
// 100 000 output tokens at 8 USD per million: a worst case of 0.8 USD per request.
const payload = {
  model: 'openai/gpt-test',
  messages: [{ role: 'user', content: 'hi' }],
  stream: false,
  max_tokens: 100_000,
};
const reply = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
};

describeEachBackend('two gateway instances on one database', (backend) => {
  let database: OpenTestDatabase;
  let upstream: MockUpstream;
  let gateways: TestGateway[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(backend, { migrated: true });
    upstream = await new MockUpstream().start();
    upstream.always({ kind: 'json', body: reply });
    const env = {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    };
    for (let i = 0; i < 2; i++) gateways.push(await startTestGateway({ database, env }));
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    gateways = [];
    await upstream?.close();
    await database?.close();
  });

  async function chat(gateway: TestGateway, key: string): Promise<number> {
    const res = await gateway.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    await res.text();
    return res.status;
  }

  async function userWith10Usd(): Promise<{ userId: string; key: string }> {
    const user = await gateways[0].createUser();
    await gateways[0].grant(user.userId, 10);
    return user;
  }

  it('answers every request of a 10 USD user alternated between the instances (no 402 while the account can pay)', async () => {
    const user = await userWith10Usd();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push(await chat(gateways[i % 2], user.key));
    expect(statuses).toEqual(Array(20).fill(200));
    // Two at once on each instance, too.
    const together = await Promise.all([0, 1, 0, 1].map((i) => chat(gateways[i], user.key)));
    expect(together).toEqual([200, 200, 200, 200]);
  });

  /**
   * Runs `remove` once the user's requests flow at the rate (2 requests/s, alternating between the
   * instances) and 4 of them were answered, keeps the flow up for 4 more answers, and returns every status.
   */
  async function whileSendingTwicePerSecond(
    user: { userId: string; key: string },
    remove: () => Promise<void>,
  ): Promise<number[]> {
    const statuses: number[] = [];
    let stop = false;
    const flow = (async () => {
      for (let i = 0; !stop; i++) {
        const started = Date.now();
        statuses.push(await chat(gateways[i % 2], user.key));
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 500 - (Date.now() - started))));
      }
    })();
    try {
      while (statuses.length < 4) await new Promise((resolve) => setTimeout(resolve, 10));
      const account = await getCreditAccount(database.db, user.userId);
      // The leases hold part of the 9 USD: without recalls this removal would be refused.
      expect(account.balanceNanos - account.reservedNanos).toBeLessThan(9n * USD);
      await remove();
      const after = statuses.length;
      while (statuses.length < after + 4) await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      stop = true;
      await flow;
    }
    return statuses;
  }

  async function expectAboutOneUsdLeft(userId: string): Promise<void> {
    for (const gateway of gateways) await gateway.settled();
    const account = await getCreditAccount(database.db, userId);
    expect(account.balanceNanos).toBeLessThan(1n * USD);
    expect(account.balanceNanos).toBeGreaterThan(USD / 2n);
  }

  it('removes 9 USD of the 10 while the user keeps sending requests to both instances', async () => {
    const user = await userWith10Usd();
    const statuses = await whileSendingTwicePerSecond(user, async () => {
      const { leases } = gateways[0].parts;
      await adjustCredits(
        { db: database.db, recalls: leases.recalls },
        { userId: user.userId, amountNanos: -9n * USD, note: 'refund' },
      );
    });
    // What is left (about 1 USD) still pays for one request in flight at a time.
    expect(statuses.every((status) => status === 200)).toBe(true);
    await expectAboutOneUsdLeft(user.userId);
  });

  it('removes 9 USD through the operator API while the user keeps sending requests to both instances', async () => {
    const user = await userWith10Usd();
    const admin = (await createAdminKey(database.db, { name: 'ops' })).secret;
    let removal: { status: number; body: any } | undefined;
    const statuses = await whileSendingTwicePerSecond(user, async () => {
      const res = await gateways[1].fetch(`/api/v1/admin/users/${user.userId}/credits`, {
        method: 'POST',
        key: admin,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: -9, note: 'refund' }),
      });
      removal = { status: res.status, body: await res.json() };
    });
    // 200, not the 409 a removal answers once its few seconds of recalls are over ("try again later").
    expect(removal).toMatchObject({ status: 200, body: { user_id: user.userId, amount: -9 } });
    expect(removal!.body.balance).toBeLessThan(1);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const adjustments = (await listLedger(database.db, user.userId, 100)).filter((row) => row.kind === 'adjustment');
    expect(adjustments.map((row) => row.amount_nanos)).toEqual([-9n * USD]);
    await expectAboutOneUsdLeft(user.userId);
  });
});
