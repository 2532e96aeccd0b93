// GET /activity and GET /generations through the running gateway: validation of the window, per-account isolation,
// and the wire shapes (USD at the edge, generation records as GET /generation has them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import { uniqueId } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

function record(userId: string, at: Date, overrides: Partial<NewGeneration> = {}): NewGeneration {
  return {
    id: uniqueId('gen-'),
    user_id: userId,
    api_key_id: null,
    access_mode: 'credits',
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    upstream_model: 'gpt-4o-mini',
    upstream_id: null,
    streamed: false,
    finish_reason: 'stop',
    status: 'success',
    http_status: 200,
    error_code: null,
    error_message: null,
    prompt_tokens: 10,
    completion_tokens: 5,
    cost_nanos: 250_000_000n,
    reference_cost_nanos: null,
    latency_ms: 100,
    time_to_first_token_ms: null,
    app_title: null,
    app_referer: null,
    task_id: null,
    created_at: at,
    ...overrides,
  };
}

const DAY = 86_400_000;

describe('activity and generation list', () => {
  let gw: TestGateway;
  let user: { userId: string; key: string };
  let other: { userId: string; key: string };
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const twoDaysAgo = new Date(now.getTime() - 2 * DAY);

  beforeAll(async () => {
    gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
    user = await gw.createUser();
    other = await gw.createUser();
    const rows = [
      record(user.userId, now),
      record(user.userId, now, {
        model: 'anthropic/claude-sonnet-4.5',
        provider: 'anthropic',
        cost_nanos: 1_500_000_000n,
      }),
      record(user.userId, twoDaysAgo),
      record(user.userId, new Date(now.getTime() - 40 * DAY)),
      record(other.userId, now),
    ];
    await settleGenerationBatch(
      gw.db,
      rows.map((r) => ({ record: r, settle: 'none' as const })),
    );
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  it('groups the caller’s usage by day and model over 30 days by default', async () => {
    const res = await gw.fetch('/api/v1/activity', { key: user.key });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data).toHaveLength(3);
    expect(body.data.at(-1)).toEqual({
      date: today,
      model: 'openai/gpt-4o-mini',
      requests: 1,
      prompt_tokens: 10,
      completion_tokens: 5,
      usage: 0.25,
      cache_hits: 0,
      cache_savings: 0,
    });
    expect(body.data).toContainEqual(
      expect.objectContaining({ date: today, model: 'anthropic/claude-sonnet-4.5', usage: 1.5 }),
    );
  });

  it('days narrows and widens the window', async () => {
    const one = await (await gw.fetch('/api/v1/activity?days=1', { key: user.key })).json();
    expect(one.data.map((d: { date: string }) => d.date)).toEqual([today, today]);
    const year = await (await gw.fetch('/api/v1/activity?days=365', { key: user.key })).json();
    expect(year.data).toHaveLength(4);
  });

  it('refuses a window outside 1..365 with 400 in the envelope', async () => {
    for (const days of ['0', '366', 'abc']) {
      const res = await gw.fetch(`/api/v1/activity?days=${days}`, { key: user.key });
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe(400);
    }
  });

  it('lists the caller’s latest records newest first, shaped like GET /generation', async () => {
    const res = await gw.fetch('/api/v1/generations?limit=3', { key: user.key });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toHaveLength(3);
    expect(data[2].created_at).toBe(twoDaysAgo.toISOString());
    const single = await (await gw.fetch(`/api/v1/generation?id=${data[0].id}`, { key: user.key })).json();
    expect(data[0]).toEqual(single.data);
    const all = await (await gw.fetch('/api/v1/generations', { key: other.key })).json();
    expect(all.data).toHaveLength(1);
    expect((await gw.fetch('/api/v1/generations?limit=101', { key: user.key })).status).toBe(400);
  });

  it('needs a credential', async () => {
    expect((await gw.fetch('/api/v1/activity')).status).toBe(401);
    expect((await gw.fetch('/api/v1/generations')).status).toBe(401);
  });
});
