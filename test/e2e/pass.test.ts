// Subscription mode end to end through the running gateway (shipped catalog, PASS_BASE_URL at a mock
// upstream, injected clock): 403 without a subscription, reference cost reported but never charged,
// 429 with Retry-After when the rolling window is used up, GET /pass/usage, and failures releasing quota.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';
import { readSse } from '../helpers/sse-client.js';
import { grantPass } from '../../src/services/pass.js';
import { listLedger } from '../../src/repositories/credits.js';

let gw: TestGateway;
let upstream: MockUpstream;
let clock = new Date('2026-11-20T12:00:00Z'); // a Friday
const setClock = (iso: string) => {
  clock = new Date(iso);
};

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      PASS_API_KEY: 'sk-pass',
      PASS_BASE_URL: `${upstream.url}/v1`,
      // Small windows so a few requests fill the rolling one: 0.002 USD per 5 h.
      MODELGATE_PASS_QUOTA_5H: '0.002',
      MODELGATE_PASS_QUOTA_WEEKLY: '1',
      MODELGATE_PASS_QUOTA_MONTHLY: '2',
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
  setClock('2026-11-20T12:00:00Z');
});

const MODEL = 'pass/gpt-oss-120b'; // reference 0.15 in / 0.60 out / 0.075 cached, USD per 1M
const hello = [{ role: 'user', content: 'hi' }];
const completion = (prompt: number, completionTokens: number) => ({
  id: 'chatcmpl-p',
  object: 'chat.completion',
  created: 1,
  model: 'openai/gpt-oss-120b',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens },
});

async function chat(key: string, payload: Record<string, unknown>) {
  const res = await gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, messages: hello, ...payload }),
  });
  // These tests look at quota rows right after a status: let the settlement batch window close first.
  await gw.settled();
  return res;
}

async function subscriber() {
  const user = await gw.createUser();
  await grantPass(gw.db, user.userId, 1, clock);
  return user;
}

function passRows(userId: string) {
  return gw.db.selectFrom('pass_usage').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

describe('pass/ models and per-key limits', () => {
  it("count toward the pass windows, not toward a key's USD limit (a 0 USD limit still serves them)", async () => {
    const user = await subscriber();
    const created = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: await gw.createToken(user.userId),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pass only', limit: 0, allowed_models: ['pass/*'] }),
    });
    const key: any = await created.json();
    upstream.reply({ kind: 'json', body: completion(100, 50) });
    const served = await chat(key.key, { stream: false, max_tokens: 1000 });
    expect(served.status, await served.clone().text()).toBe(200);
    expect(await passRows(user.userId)).toHaveLength(1);
    const info: any = await (await gw.fetch('/api/v1/key', { key: key.key })).json();
    expect(info.data).toMatchObject({ usage: 0, limit: 0, limit_remaining: 0 });
  });
});

describe('pass/ models', () => {
  it('answer 403 without an active subscription, without calling upstream', async () => {
    const user = await gw.createUser();
    const res = await chat(user.key, { stream: false });
    expect(res.status).toBe(403);
    const err: any = await res.json();
    expect(err.error).toMatchObject({ code: 403, metadata: { reason: 'subscription_required', model: MODEL } });
    expect(err.error.message).toContain('no active subscription');
    expect(upstream.requests).toHaveLength(0);
    // The usage route answers a state, not an error: a dashboard asks once and hides its subscription panel.
    const usage = await gw.fetch('/api/v1/pass/usage', { key: user.key });
    expect(usage.status).toBe(200);
    const state = await usage.json();
    expect(state).toMatchObject({ active: false, five_hour: { used: 0, limit: 0.002 }, monthly: { limit: 2 } });
    expect(state).not.toHaveProperty('subscription');
  });

  it('serve subscribers without credits: reference cost reported, not charged, counted against the quota', async () => {
    const user = await subscriber();
    upstream.reply({ kind: 'json', body: completion(1000, 1000) });
    const res = await chat(user.key, { stream: false, max_tokens: 1000 });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    // 1000 × 0.15 / 1M + 1000 × 0.60 / 1M = 0.00075 USD
    expect(body.usage.cost).toBeCloseTo(0.00075, 12);
    expect(body.usage.cost_details).toEqual({ access_mode: 'pass', charged: false });
    expect(upstream.last.path).toBe('/v1/chat/completions');
    expect(upstream.last.headers.authorization).toBe('Bearer sk-pass');
    expect(upstream.last.body.model).toBe('openai/gpt-oss-120b');

    expect(await listLedger(gw.db, user.userId, 10)).toEqual([]);
    const generation = await gw.db
      .selectFrom('generations')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(generation).toMatchObject({
      access_mode: 'pass',
      provider: 'pass',
      cost_nanos: 0n,
      reference_cost_nanos: 750_000n,
    });
    expect(await passRows(user.userId)).toEqual([
      expect.objectContaining({
        status: 'settled',
        generation_id: body.id,
        reference_cost_nanos: 750_000n,
        created_at: clock,
      }),
    ]);
    const record: any = await (
      await gw.fetch(`/api/v1/generation?id=${encodeURIComponent(body.id)}`, { key: user.key })
    ).json();
    expect(record.data).toMatchObject({ access_mode: 'pass', total_cost: 0, reference_cost: 0.00075 });
  });

  it('count streamed usage from the final chunk', async () => {
    const user = await subscriber();
    const chunk = {
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content: 'hey' }, finish_reason: 'stop' }],
    };
    const usage = {
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [],
      usage: { prompt_tokens: 2000, completion_tokens: 500, total_tokens: 2500 },
    };
    upstream.reply({ kind: 'sse', chunks: openAiSse([chunk, usage]) });
    const sse = await readSse(await chat(user.key, { stream: true, max_tokens: 1000 }));
    const last = sse.chunks[sse.chunks.length - 1];
    // 2000 × 0.15 / 1M + 500 × 0.60 / 1M = 0.0006 USD
    expect(last.usage.cost).toBeCloseTo(0.0006, 12);
    expect(last.usage.cost_details).toEqual({ access_mode: 'pass', charged: false });
    expect((await passRows(user.userId)).map((r) => r.reference_cost_nanos)).toEqual([600_000n]);
  });

  it('answer 429 with Retry-After when the rolling window is used up, and admit again once usage ages out', async () => {
    const user = await subscriber();
    upstream.always({ kind: 'json', body: completion(1000, 1000) });
    expect((await chat(user.key, { stream: false, max_tokens: 1000 })).status).toBe(200); // 0.00075 at 12:00
    setClock('2026-11-20T12:01:00Z');
    expect((await chat(user.key, { stream: false, max_tokens: 1000 })).status).toBe(200); // 0.00075 at 12:01
    setClock('2026-11-20T12:02:00Z');
    const calls = upstream.requests.length;
    // 0.0015 used; this request may use up to ~0.0006 more, past the 0.002 limit.
    const res = await chat(user.key, { stream: false, max_tokens: 1000 });
    expect(res.status).toBe(429);
    // The 12:00 usage ages out at 17:00, which frees enough: 5 h − 2 min.
    expect(res.headers.get('retry-after')).toBe(String(5 * 3600 - 120));
    const err: any = await res.json();
    expect(err.error).toMatchObject({
      code: 429,
      metadata: {
        reason: 'pass_quota_exceeded',
        window: 'five_hour',
        used: 0.0015,
        limit: 0.002,
        resets_at: '2026-11-20T17:00:00.000Z',
      },
    });
    expect(err.error.metadata.required).toBeGreaterThan(0.0005);
    expect(upstream.requests).toHaveLength(calls);
    const record = await gw.db
      .selectFrom('pass_usage')
      .select('id')
      .where('user_id', '=', user.userId)
      .where('status', '=', 'reserved')
      .execute();
    expect(record).toEqual([]);

    setClock('2026-11-20T17:00:00Z');
    expect((await chat(user.key, { stream: false, max_tokens: 1000 })).status).toBe(200);
  });

  it('give the reservation back when the upstream fails before generating', async () => {
    const user = await subscriber();
    upstream.reply({ kind: 'json', status: 503, body: { error: { message: 'down' } } });
    expect((await chat(user.key, { stream: false, max_tokens: 1000 })).status).toBe(503);
    expect(await passRows(user.userId)).toEqual([]);
    const rows = await gw.db.selectFrom('generations').selectAll().where('user_id', '=', user.userId).execute();
    expect(rows).toEqual([expect.objectContaining({ access_mode: 'pass', status: 'error', reference_cost_nanos: 0n })]);
  });
});

describe('GET /pass/usage', () => {
  it('reports used, limit, remaining and reset per window, and the subscription period', async () => {
    const user = await subscriber();
    upstream.reply({ kind: 'json', body: completion(1000, 1000) });
    expect((await chat(user.key, { stream: false, max_tokens: 1000 })).status).toBe(200);
    setClock('2026-11-20T13:00:00Z');
    const res = await gw.fetch('/api/v1/pass/usage', { key: user.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      active: true,
      five_hour: { used: 0.00075, limit: 0.002, remaining: 0.00125, resets_at: '2026-11-20T17:00:00.000Z' },
      weekly: { used: 0.00075, limit: 1, remaining: 0.99925, resets_at: '2026-11-23T00:00:00.000Z' },
      monthly: { used: 0.00075, limit: 2, remaining: 1.99925, resets_at: '2026-12-01T00:00:00.000Z' },
      subscription: { period_start: '2026-11-20T12:00:00.000Z', period_end: '2026-12-20T12:00:00.000Z' },
    });
  });
});
