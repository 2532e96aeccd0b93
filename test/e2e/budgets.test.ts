// Budgets of an organization, a member and a session (and a key's limit, the key's budget): refusals in each door's
// envelope naming the budget, spend settled into every level once, the answer's spend headers, and a new period.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let clock = new Date('2026-03-10T12:00:00Z');

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
    overrides: { now: () => clock },
  });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  clock = new Date('2026-03-10T12:00:00Z');
});

/** 5 prompt + 10 completion tokens of openai/gpt-test ($2/M in, $8/M out): 0.00009 USD. */
const reply = () => ({
  kind: 'json' as const,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test-2026',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 },
  },
});

function chat(key: string, extra: { session?: string; budget?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (extra.session) headers['x-task-id'] = extra.session;
  if (extra.budget) headers['x-modelgate-session-budget'] = extra.budget;
  return gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers,
    body: JSON.stringify({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
      max_tokens: 10,
    }),
  });
}

async function setOrgBudget(orgId: string, usd: number | null, reset: string | null = null) {
  await gw.db
    .updateTable('organizations')
    .set({ budget_limit_nanos: usd === null ? null : BigInt(Math.round(usd * 1e9)), budget_reset: reset as never })
    .where('id', '=', orgId)
    .execute();
}

async function spendRows(prefix: string) {
  return gw.db.selectFrom('budget_spend').selectAll().where('budget_id', 'like', `${prefix}%`).execute();
}

describe('budgets in admission', () => {
  it('refuses with 402 naming the organization budget, and settles spend into it once', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    await setOrgBudget(user.userId, 0.001, 'daily');
    upstream.always(reply());
    const ok = await chat(user.key);
    expect(ok.status).toBe(200);
    await ok.json();
    expect(ok.headers.get('x-modelgate-budget-remaining')).not.toBeNull();
    await gw.settled();
    const rows = await spendRows(`organization:${user.userId}`);
    expect(rows).toHaveLength(1);
    expect(rows[0].spent_nanos).toBe(90_000n);
    // 0.001 USD less 0.00009 cannot hold a bound of max_tokens 10 at most... so push the spend near the limit.
    await gw.db
      .updateTable('budget_spend')
      .set({ spent_nanos: 999_999n })
      .where('budget_id', '=', rows[0].budget_id)
      .execute();
    await gw.parts.leases.budgets.releaseIdle(0);
    const refused = await chat(user.key);
    expect(refused.status).toBe(402);
    const body = (await refused.json()) as any;
    expect(body.error.metadata).toMatchObject({
      budget: 'organization',
      limit: 0.001,
      reset: 'daily',
      resets_at: '2026-03-11T00:00:00.000Z',
    });
  });
});
