import { expect, it } from 'vitest';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { activityWindowStart, listDailyUsage, listRecentGenerations } from '../../src/repositories/activity.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

function record(userId: string, at: string, overrides: Partial<NewGeneration> = {}): NewGeneration {
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
    cost_nanos: 1_000n,
    reference_cost_nanos: null,
    latency_ms: 100,
    time_to_first_token_ms: null,
    app_title: null,
    app_referer: null,
    task_id: null,
    created_at: new Date(at),
    ...overrides,
  };
}

describeEachDatabase('activity repository', (ctx) => {
  it('groups usage by UTC day and model, only for the user and only inside the window', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const other = await insertTestUser(db);
    const rows = [
      // 23:59:59 UTC and 00:00:00 UTC belong to different days whatever the server's time zone.
      record(user.id, '2026-03-01T23:59:59Z', {
        cost_nanos: 2_000_000_000n,
        prompt_tokens: 100,
        completion_tokens: 40,
      }),
      record(user.id, '2026-03-01T08:00:00Z', {
        cost_nanos: 3_000_000_000n,
        prompt_tokens: 1,
        completion_tokens: 2,
        status: 'error',
      }),
      record(user.id, '2026-03-02T00:00:00Z'),
      record(user.id, '2026-03-01T12:00:00Z', { model: 'anthropic/claude-sonnet-4.5', provider: 'anthropic' }),
      record(user.id, '2026-02-27T12:00:00Z'), // before the window
      record(other.id, '2026-03-01T12:00:00Z'),
    ];
    await settleGenerationBatch(
      db,
      rows.map((r) => ({ record: r, settle: 'none' as const })),
    );

    const usage = await listDailyUsage(db, { userId: user.id, since: new Date('2026-02-28T00:00:00Z') });
    expect(usage).toEqual([
      {
        date: '2026-03-01',
        model: 'anthropic/claude-sonnet-4.5',
        requests: 1,
        promptTokens: 10,
        completionTokens: 5,
        costNanos: 1_000n,
        cacheHits: 0,
        cacheSavedNanos: 0n,
      },
      {
        date: '2026-03-01',
        model: 'openai/gpt-4o-mini',
        requests: 2,
        promptTokens: 101,
        completionTokens: 42,
        costNanos: 5_000_000_000n,
        cacheHits: 0,
        cacheSavedNanos: 0n,
      },
      {
        date: '2026-03-02',
        model: 'openai/gpt-4o-mini',
        requests: 1,
        promptTokens: 10,
        completionTokens: 5,
        costNanos: 1_000n,
        cacheHits: 0,
        cacheSavedNanos: 0n,
      },
    ]);
    expect(await listDailyUsage(db, { userId: user.id, since: new Date('2026-03-03T00:00:00Z') })).toEqual([]);
  });

  it('lists the latest records newest first, at most `limit`', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const rows = ['2026-01-01T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-02T00:00:00Z'].map((at) =>
      record(user.id, at),
    );
    await settleGenerationBatch(
      db,
      rows.map((r) => ({ record: r, settle: 'none' as const })),
    );
    const latest = await listRecentGenerations(db, { userId: user.id, limit: 2 });
    expect(latest.map((r) => r.id)).toEqual([rows[1].id, rows[2].id]);
  });
});

it('a window of N days starts at UTC midnight N-1 days before today', () => {
  expect(activityWindowStart(new Date('2026-03-10T15:30:00Z'), 1).toISOString()).toBe('2026-03-10T00:00:00.000Z');
  expect(activityWindowStart(new Date('2026-03-10T15:30:00Z'), 30).toISOString()).toBe('2026-02-09T00:00:00.000Z');
});
