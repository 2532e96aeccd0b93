// Budgets of an organization, a member and a session (and a key's limit, the key's budget): refusals in each door's
// envelope naming the budget, spend settled into every level once, the answer's spend headers, and a new period.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { runCli } from '../../src/cli.js';
import { OPERATOR } from '../../src/auth/member-roles.js';
import { CONSOLE_ACTOR } from '../../src/services/audit-log.js';
import { createWebhook } from '../../src/services/webhooks.js';

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

/** The same request through each door, refused before upstream; returns the status and the parsed body. */
async function throughDoor(door: 'chat' | 'messages' | 'responses' | 'gemini', key: string, session?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session) headers['x-task-id'] = session;
  const content = [{ role: 'user', content: 'hi' }];
  const request =
    door === 'chat'
      ? { path: '/api/v1/chat/completions', body: { model: 'openai/gpt-test', messages: content, stream: false } }
      : door === 'messages'
        ? { path: '/api/v1/messages', body: { model: 'openai/gpt-test', messages: content, max_tokens: 10 } }
        : door === 'responses'
          ? { path: '/api/v1/responses', body: { model: 'openai/gpt-test', input: 'hi', stream: false } }
          : {
              path: '/api/v1/gemini/v1beta/models/openai/gpt-test:generateContent',
              body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
            };
  const res = await gw.fetch(request.path, { method: 'POST', key, headers, body: JSON.stringify(request.body) });
  return { status: res.status, body: (await res.json()) as any };
}

/** What each door's envelope says of the refused budget. */
function budgetOf(door: string, body: any): string | undefined {
  if (door === 'gemini') return body.error.details?.[0]?.metadata?.budget;
  // Anthropic's envelope has type and message only: the message names the budget.
  if (door === 'messages')
    return body.error.type === 'billing_error' ? /the (\w+) budget/.exec(body.error.message)?.[1] : undefined;
  return body.error.metadata?.budget;
}

describe('a refusal per level, in every door', () => {
  const doors = ['chat', 'messages', 'responses', 'gemini'] as const;

  it('names the member budget', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    await gw.db
      .updateTable('memberships')
      .set({ budget_limit_nanos: 1n, budget_reset: 'monthly' })
      .where('organization_id', '=', user.userId)
      .execute();
    for (const door of doors) {
      const { status, body } = await throughDoor(door, user.key);
      expect(status, door).toBe(402);
      expect(budgetOf(door, body), door).toBe('member');
    }
    const chatRefusal = await throughDoor('chat', user.key);
    expect(chatRefusal.body.error.metadata).toMatchObject({
      budget: 'member',
      limit: 0.000000001,
      spent: 0,
      reset: 'monthly',
      resets_at: '2026-04-01T00:00:00.000Z',
    });
    expect(upstream.requests).toHaveLength(0);
    // Nothing stays held: the credits reserved before the budget refused went back.
    expect(await gw.reservedNanos(user.userId)).toBe(0n);
  });

  it("names the key budget (the key's limit) with its period", async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    await gw.db
      .updateTable('api_keys')
      .set({ credit_limit_nanos: 1n, limit_reset: 'weekly' })
      .where('id', '=', user.keyId)
      .execute();
    gw.parts.credentials.invalidateAll();
    for (const door of doors) {
      const { status, body } = await throughDoor(door, user.key);
      expect(status, door).toBe(402);
      if (door !== 'messages') expect(budgetOf(door, body), door).toBe('key');
    }
    const { body } = await throughDoor('chat', user.key);
    expect(body.error.metadata).toMatchObject({
      budget: 'key',
      reason: 'key_limit_exceeded',
      reset: 'weekly',
      spent: 0,
      resets_at: '2026-03-16T00:00:00.000Z',
    });
  });

  it('names the session budget set by X-Modelgate-Session-Budget, which a later request can lower but not raise', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    upstream.always(reply());
    const first = await chat(user.key, { session: 'task-1', budget: '5' });
    expect(first.status).toBe(200);
    await first.json();
    expect(first.headers.get('x-modelgate-spend-session')).toBe('0');
    expect(first.headers.get('x-modelgate-budget-remaining')).not.toBeNull();
    await gw.settled();
    const second = await chat(user.key, { session: 'task-1', budget: '50' });
    await second.json();
    expect(second.headers.get('x-modelgate-spend-session')).toBe('0.00009');
    await gw.settled();
    const session = await gw.db.selectFrom('sessions').selectAll().where('organization_id', '=', user.userId).execute();
    expect(session).toHaveLength(1);
    expect(session[0]).toMatchObject({ budget_limit_nanos: 5_000_000_000n, spent_nanos: 180_000n, requests: 2n });
    expect(session[0].session_hash).not.toContain('task-1');
    // Lowered below what one request may cost: refused in every door, naming the session.
    const lowered = await chat(user.key, { session: 'task-1', budget: '0.0001' });
    expect(lowered.status).toBe(402);
    expect(((await lowered.json()) as any).error.metadata).toMatchObject({ budget: 'session', reset: 'never' });
    for (const door of doors) {
      const { status, body } = await throughDoor(door, user.key, 'task-1');
      expect(status, door).toBe(402);
      expect(budgetOf(door, body), door).toBe('session');
    }
    // Another session of the same organization is not touched.
    expect((await chat(user.key, { session: 'task-2' })).status).toBe(200);
  });

  it('answers 400 for a malformed session budget', async () => {
    const user = await gw.createUser();
    const res = await chat(user.key, { session: 'x', budget: 'lots' });
    expect(res.status).toBe(400);
  });
});

describe('settlement', () => {
  it('adds the cost to the organization, member and session budgets once each, and a new day starts at zero', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    await setOrgBudget(user.userId, 1, 'daily');
    await gw.db
      .updateTable('memberships')
      .set({ budget_limit_nanos: 2_000_000_000n, budget_reset: null })
      .where('organization_id', '=', user.userId)
      .execute();
    upstream.always(reply());
    for (let i = 0; i < 3; i++) {
      const res = await chat(user.key, { session: 'spend', budget: '3' });
      expect(res.status).toBe(200);
      await res.json();
    }
    await gw.settled();
    const rows = await gw.db
      .selectFrom('budget_spend')
      .selectAll()
      .where('budget_id', 'like', `%${user.userId}%`)
      .orderBy('budget_id')
      .execute();
    expect(rows.map((r) => [r.budget_id.split(':')[0], r.spent_nanos])).toEqual([
      ['member', 270_000n],
      ['organization', 270_000n],
      ['session', 270_000n],
    ]);
    clock = new Date('2026-03-11T00:00:01Z');
    const next = await chat(user.key);
    await next.json();
    await gw.settled();
    const today = await spendRows(`organization:${user.userId}`);
    expect(today.map((r) => [r.period_start.toISOString(), r.spent_nanos])).toEqual(
      expect.arrayContaining([
        ['2026-03-10T00:00:00.000Z', 270_000n],
        ['2026-03-11T00:00:00.000Z', 90_000n],
      ]),
    );
  });
});

describe('GET /sessions/{id}', () => {
  it("returns the session's spend, requests, tokens, times and budget, only to its own organization", async () => {
    const user = await gw.createUser();
    const other = await gw.createUser();
    await gw.grant(user.userId, 10);
    upstream.always(reply());
    for (let i = 0; i < 2; i++) await (await chat(user.key, { session: 'status-1', budget: '1' })).json();
    const res = await gw.fetch('/api/v1/sessions/status-1', { key: user.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: 'status-1',
      spend_usd: 0.00018,
      requests: 2,
      tokens: { prompt: 10, completion: 20, cached: 0, reasoning: 0 },
      first_request_at: expect.any(String),
      last_request_at: expect.any(String),
      budget: { limit_usd: 1, remaining_usd: 0.99982 },
    });
    expect((await gw.fetch('/api/v1/sessions/status-1', { key: other.key })).status).toBe(404);
    expect((await gw.fetch('/api/v1/sessions/never-seen', { key: user.key })).status).toBe(404);
  });
});

describe('modelgate statusline', () => {
  const statusline = async (args: string[], env: Record<string, string>, stdin = '') => {
    const out: string[] = [];
    const code = await runCli(
      ['statusline', '--url', gw.url, ...args],
      { LOG_LEVEL: 'silent', ...env },
      {
        out: (line) => out.push(line),
        err: (line) => out.push(line),
        stdin: async () => stdin,
      },
    );
    return { code, out: out.join('\n') };
  };

  it("prints the spend of Claude Code's session (session_id on stdin) and of a session named with --session", async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    upstream.always(reply());
    const claudeSession = '6f1c2a9b-7e1d-4c3a-8b6f-0e2d1c9a7b5e';
    const messages = await gw.fetch('/api/v1/messages', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'openai/gpt-test',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
        metadata: { user_id: JSON.stringify({ device_id: 'd', account_uuid: 'a', session_id: claudeSession }) },
      }),
    });
    expect(messages.status).toBe(200);
    await messages.json();
    const fromStdin = await statusline(
      [],
      { MODELGATE_API_KEY: user.key },
      JSON.stringify({ session_id: claudeSession, model: { display_name: 'Opus' } }),
    );
    expect(fromStdin).toEqual({ code: 0, out: '$0.00009 · 1 request' });

    await (await chat(user.key, { session: 'codex-thread', budget: '2' })).json();
    const named = await statusline(['--session', 'codex-thread', '--key-env', 'CODEX_GATEWAY_KEY'], {
      CODEX_GATEWAY_KEY: user.key,
    });
    expect(named).toEqual({ code: 0, out: '$0.00009 · 1 request · $1.99991 left of $2' });
    expect((await statusline(['--session', 'unknown'], { MODELGATE_API_KEY: user.key })).out).toBe('$0 · 0 requests');
    expect((await statusline([], { MODELGATE_API_KEY: user.key }, '')).code).toBe(2);
  });
});

describe("a key's limit and its member's budget", () => {
  it("refuses a key limit above the member's budget, on creation and on change", async () => {
    const user = await gw.createUser();
    const token = await gw.createToken(user.userId);
    await gw.db
      .updateTable('memberships')
      .set({ budget_limit_nanos: 5_000_000_000n, budget_reset: 'monthly' })
      .where('organization_id', '=', user.userId)
      .execute();
    const send = (method: string, path: string, body: unknown) =>
      gw.fetch(path, {
        method,
        key: token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const above = await send('POST', '/api/v1/api-keys', { name: 'ci', limit: 6 });
    expect(above.status).toBe(400);
    expect(((await above.json()) as any).error.metadata).toMatchObject({
      reason: 'limit_above_member_budget',
      member_budget: 5,
    });
    const within = await send('POST', '/api/v1/api-keys', { name: 'ci', limit: 5 });
    expect(within.status).toBe(201);
    const { key_id: keyId } = (await within.json()) as any;
    const widened = await send('PATCH', `/api/v1/api-keys/${keyId}`, { limit: 50 });
    expect(widened.status).toBe(400);
    expect((await send('PATCH', `/api/v1/api-keys/${keyId}`, { limit: 1 })).status).toBe(200);
  });
});

describe('budget.threshold webhooks', () => {
  it("a settled cost that crosses a subscribed fraction of a budget puts one event in the organization's outbox", async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 10);
    // One request (0.00009 USD) is 60% of this budget: it crosses 50% and neither 80% nor 100%.
    await setOrgBudget(user.userId, 0.00015, 'daily');
    const { row: endpoint } = await createWebhook(
      gw.db,
      { actor: OPERATOR, audit: CONSOLE_ACTOR },
      {
        organizationId: user.userId,
        settings: { url: 'https://hooks.example.com/modelgate', eventTypes: ['budget.threshold'] },
      },
    );
    upstream.always(reply());
    const res = await chat(user.key);
    expect(res.status).toBe(200);
    await res.json();
    await gw.settled();
    const events = async () =>
      gw.db.selectFrom('webhook_events').select(['payload']).where('organization_id', '=', user.userId).execute();
    for (let i = 0; i < 100 && (await events()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    const rows = await events();
    expect(rows).toHaveLength(1);
    const payload = (typeof rows[0].payload === 'string' ? JSON.parse(rows[0].payload) : rows[0].payload) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload.type).toBe('budget.threshold');
    expect(payload.data).toMatchObject({
      organization_id: user.userId,
      budget: 'organization',
      threshold: 0.5,
      limit_usd: 0.00015,
      spent_usd: 0.00009,
      resets_at: '2026-03-11T00:00:00.000Z',
    });
    expect(endpoint.event_types).toEqual(['budget.threshold']);
  });
});
