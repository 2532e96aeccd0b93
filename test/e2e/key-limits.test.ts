// Per-key spend limits, reset periods, expiry, kill switch and model allow-lists, end to end through /api-keys.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { listLedger } from '../../src/repositories/credits.js';
import { keyBudgetId } from '../../src/billing/key-budget.js';

let gw: TestGateway;
let upstream: MockUpstream;
/** The gateway's clock (parts.now): tests move it across UTC boundaries. */
let clock = new Date('2026-03-10T23:59:30Z');

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
beforeEach(() => upstream.reset());

const hello = [{ role: 'user', content: 'hi' }];
/** 5 prompt + 10 completion tokens of openai/gpt-test ($2/M in, $8/M out): 0.00009 USD. */
const reply = (prompt = 5, completion = 10) => ({
  kind: 'json' as const,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test-2026',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  },
});

function chat(key: string, model = 'openai/gpt-test') {
  return gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: hello, stream: false, max_tokens: 10 }),
  });
}

/** The key's budget row of its only period (its limit never resets). */
function keyBudget(organizationId: string, keyId: string) {
  return gw.db
    .selectFrom('budget_spend')
    .selectAll()
    .where('budget_id', '=', keyBudgetId(organizationId, keyId))
    .executeTakeFirstOrThrow();
}

/** A user and its account token, which manages its keys (an API key may not: see key-scopes-*.test.ts). */
async function accountOwner() {
  const user = await gw.createUser();
  return { ...user, token: await gw.createToken(user.userId) };
}

async function createKey(ownerKey: string, body: Record<string, unknown>) {
  const res = await gw.fetch('/api/v1/api-keys', {
    method: 'POST',
    key: ownerKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function patchKey(ownerKey: string, keyId: string, body: Record<string, unknown>) {
  const res = await gw.fetch(`/api/v1/api-keys/${keyId}`, {
    method: 'PATCH',
    key: ownerKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('creating and changing keys', () => {
  it('creates a key with a limit, reset, expiry and allow-list, shows them in GET /api-keys and GET /key, and patches them', async () => {
    const owner = await accountOwner();
    const created = await createKey(owner.token, {
      name: 'app',
      limit: 2.5,
      limit_reset: 'weekly',
      expires_at: '2030-01-01T00:00:00Z',
      allowed_models: ['openai/*', 'deepseek/deepseek-reasoner'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'app',
      limit: 2.5,
      limit_remaining: 2.5,
      limit_reset: 'weekly',
      expires_at: '2030-01-01T00:00:00.000Z',
      disabled: false,
      allowed_models: ['openai/*', 'deepseek/deepseek-reasoner'],
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
    });
    const listed: any = await (await gw.fetch('/api/v1/api-keys', { key: owner.key })).json();
    expect(listed.data.find((k: any) => k.key_id === created.body.key_id)).toMatchObject({
      limit: 2.5,
      limit_reset: 'weekly',
    });
    const info: any = await (await gw.fetch('/api/v1/key', { key: created.body.key })).json();
    expect(info.data).toMatchObject({
      key_id: created.body.key_id,
      limit: 2.5,
      limit_remaining: 2.5,
      limit_reset: 'weekly',
      disabled: false,
    });

    const patched = await patchKey(owner.token, created.body.key_id, {
      name: 'renamed',
      limit: null,
      limit_reset: null,
      expires_at: null,
      allowed_models: null,
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'renamed',
      limit: null,
      limit_remaining: null,
      limit_reset: null,
      expires_at: null,
      allowed_models: null,
    });
  });

  it("rejects bad settings with 400 and another account's key with 404", async () => {
    const owner = await accountOwner();
    const other = await accountOwner();
    expect((await createKey(owner.token, { limit: -1 })).status).toBe(400);
    expect((await createKey(owner.token, { limit_reset: 'hourly' })).status).toBe(400);
    expect((await createKey(owner.token, { expires_at: '2001-01-01T00:00:00Z' })).status).toBe(400);
    expect((await createKey(owner.token, { allowed_models: ['gpt-4o'] })).status).toBe(400);
    expect((await patchKey(other.token, owner.keyId, { disabled: true })).status).toBe(404);
  });
});

describe('enforcement', () => {
  it('answers 401 key_disabled for a disabled key on its next request, and serves it again once re-enabled', async () => {
    const owner = await accountOwner();
    const { body: key } = await createKey(owner.token, { name: 'k' });
    expect((await gw.fetch('/api/v1/key', { key: key.key })).status).toBe(200);
    expect((await patchKey(owner.token, key.key_id, { disabled: true })).body.disabled).toBe(true);
    const refused = await gw.fetch('/api/v1/key', { key: key.key });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as any).error.metadata).toMatchObject({
      reason: 'key_disabled',
      key_id: key.key_id,
    });
    expect((await patchKey(owner.token, key.key_id, { disabled: false })).status).toBe(200);
    expect((await gw.fetch('/api/v1/key', { key: key.key })).status).toBe(200);
  });

  it('answers 401 key_expired once the clock passes expires_at (also for a key served from the cache)', async () => {
    const owner = await accountOwner();
    const saved = clock;
    try {
      const expiresAt = new Date(clock.getTime() + 60_000).toISOString();
      const { body: key } = await createKey(owner.token, { expires_at: expiresAt });
      expect((await gw.fetch('/api/v1/key', { key: key.key })).status).toBe(200);
      clock = new Date(clock.getTime() + 60_000);
      const res = await gw.fetch('/api/v1/key', { key: key.key });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).error.metadata).toMatchObject({ reason: 'key_expired' });
    } finally {
      clock = saved;
    }
  });

  it('answers 403 naming the model outside allowed_models, without calling upstream; provider/* allows the provider', async () => {
    const owner = await accountOwner();
    await gw.grant(owner.userId, 1);
    const { body: key } = await createKey(owner.token, { allowed_models: ['deepseek/*'] });
    const res = await chat(key.key, 'openai/gpt-test');
    expect(res.status).toBe(403);
    const err: any = await res.json();
    expect(err.error.metadata).toMatchObject({ reason: 'model_not_allowed', model: 'openai/gpt-test' });
    expect(err.error.message).toContain('openai/gpt-test');
    expect(upstream.requests).toHaveLength(0);
    await patchKey(owner.token, key.key_id, { allowed_models: ['openai/*'] });
    upstream.reply(reply());
    expect((await chat(key.key, 'openai/gpt-test')).status).toBe(200);
  });

  it("holds allowed_models on POST /messages/count_tokens too (Anthropic's counter runs on the operator's key)", async () => {
    const owner = await accountOwner();
    const { body: key } = await createKey(owner.token, { allowed_models: ['deepseek/*'] });
    const count = (model: string) =>
      gw.fetch('/api/v1/messages/count_tokens', {
        method: 'POST',
        key: key.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: hello }),
      });
    const res = await count('openai/gpt-test');
    expect(res.status).toBe(403);
    const err: any = await res.json();
    expect(err).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(err.error.message).toContain('openai/gpt-test');
    expect(upstream.requests).toHaveLength(0);
  });

  it('never lets 20 concurrent requests spend more than a 0.001 USD limit; the rest get 402 key_limit_exceeded', async () => {
    const owner = await accountOwner();
    await gw.grant(owner.userId, 10);
    const { body: key } = await createKey(owner.token, { limit: 0.001 });
    upstream.always(reply());
    const responses = await Promise.all(Array.from({ length: 20 }, () => chat(key.key)));
    const bodies: any[] = await Promise.all(responses.map((r) => r.json()));
    const ok = responses.filter((r) => r.status === 200).length;
    const refused = bodies.filter((_body, i) => responses[i].status === 402);
    expect(ok + refused.length).toBe(20);
    expect(ok).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].error.metadata).toMatchObject({
      reason: 'key_limit_exceeded',
      limit: 0.001,
      limit_reset: null,
      resets_at: null,
    });
    await gw.settled();
    const debits = (await listLedger(gw.db, owner.userId, 100)).filter((row) => row.kind === 'debit');
    const spent = debits.reduce((sum, row) => sum - row.amount_nanos, 0n);
    expect(debits).toHaveLength(ok);
    expect(spent).toBeLessThanOrEqual(1_000_000n);
    const info: any = await (await gw.fetch('/api/v1/key', { key: key.key })).json();
    expect(info.data.usage).toBeCloseTo(Number(spent) / 1e9, 12);
    expect(info.data.limit_remaining).toBeCloseTo((1_000_000 - Number(spent)) / 1e9, 12);
    // Nothing stays held once every request settled: the lease's unused rest goes back whole.
    await gw.parts.leases.budgets.releaseIdle(0);
    expect(await keyBudget(owner.userId, key.key_id)).toMatchObject({ leased_nanos: 0n, spent_nanos: spent });
  });

  it("says what is left of the key's limit in x-modelgate-budget-remaining, after each request's hold", async () => {
    const owner = await accountOwner();
    await gw.grant(owner.userId, 1);
    const { body: key } = await createKey(owner.token, { limit: 0.01 });
    upstream.always(reply());
    const first = await chat(key.key);
    await first.json();
    const before = Number(first.headers.get('x-modelgate-budget-remaining'));
    // The limit less this request's upper bound.
    expect(before).toBeLessThan(0.01);
    expect(before).toBeGreaterThan(0.0098);
    await gw.settled();
    const second = await chat(key.key);
    await second.json();
    // Less the first request's cost (0.00009 USD), settled.
    expect(Number(second.headers.get('x-modelgate-budget-remaining'))).toBeCloseTo(before - 0.00009, 9);
  });

  it('releases the key hold when the upstream fails', async () => {
    const owner = await accountOwner();
    await gw.grant(owner.userId, 1);
    const { body: key } = await createKey(owner.token, { limit: 0.001 });
    upstream.reply({ kind: 'json', status: 503, body: { error: { message: 'down' } } });
    expect((await chat(key.key)).status).toBe(503);
    await gw.settled();
    await gw.parts.leases.budgets.releaseIdle(0);
    expect(await keyBudget(owner.userId, key.key_id)).toMatchObject({ leased_nanos: 0n, spent_nanos: 0n });
  });

  it('starts a daily limit over at 00:00 UTC (injected clock)', async () => {
    const owner = await accountOwner();
    await gw.grant(owner.userId, 1);
    const saved = clock;
    try {
      clock = new Date('2026-03-10T23:59:30Z');
      // Room for one request (upper bound ~0.0001 USD) but not two.
      const { body: key } = await createKey(owner.token, { limit: 0.00015, limit_reset: 'daily' });
      upstream.always(reply());
      expect((await chat(key.key)).status).toBe(200);
      const refused = await chat(key.key);
      expect(refused.status).toBe(402);
      expect(((await refused.json()) as any).error.metadata).toMatchObject({
        reason: 'key_limit_exceeded',
        limit_reset: 'daily',
        resets_at: '2026-03-11T00:00:00.000Z',
      });
      clock = new Date('2026-03-11T00:00:00Z');
      expect((await chat(key.key)).status).toBe(200);
      const info: any = await (await gw.fetch('/api/v1/key', { key: key.key })).json();
      expect(info.data.limit_remaining).toBeCloseTo(0.00015 - 0.00009, 12);
    } finally {
      clock = saved;
    }
  });

  it('counts what a key spent before it got a limit (setting a limit seeds the period)', async () => {
    const owner = await accountOwner();
    await gw.grant(owner.userId, 1);
    const { body: key } = await createKey(owner.token, {});
    upstream.always(reply());
    expect((await chat(key.key)).status).toBe(200);
    await gw.settled();
    const patched = await patchKey(owner.token, key.key_id, { limit: 0.0001 });
    expect(patched.body.limit_remaining).toBeCloseTo(0.0001 - 0.00009, 12);
    expect((await chat(key.key)).status).toBe(402);
  });
});
