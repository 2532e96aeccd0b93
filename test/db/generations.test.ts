import { expect, it } from 'vitest';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import type { DbOrTrx } from '../../src/db/database.js';
import { findGenerationForUser, sumUsageForKey } from '../../src/repositories/generations.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

/** Writes records with nothing to settle (as for a free request): how many were new. */
function insertGenerations(db: DbOrTrx, rows: NewGeneration[]): Promise<number> {
  return settleGenerationBatch(
    db,
    rows.map((record) => ({ record, settle: 'none' as const })),
  );
}

async function insertGeneration(db: DbOrTrx, row: NewGeneration): Promise<boolean> {
  return (await insertGenerations(db, [row])) === 1;
}

function generation(overrides: Partial<NewGeneration> & Pick<NewGeneration, 'user_id'>): NewGeneration {
  return {
    id: uniqueId('gen-'),
    api_key_id: null,
    access_mode: 'credits',
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    upstream_model: 'gpt-4o-mini',
    upstream_id: 'chatcmpl-123',
    streamed: true,
    finish_reason: 'stop',
    status: 'success',
    http_status: 200,
    error_code: null,
    error_message: null,
    prompt_tokens: 12,
    completion_tokens: 34,
    cost_nanos: 1_500n,
    reference_cost_nanos: null,
    latency_ms: 420,
    time_to_first_token_ms: 95,
    app_title: null,
    app_referer: null,
    task_id: null,
    ...overrides,
  };
}

describeEachDatabase('generations repository', (ctx) => {
  it('inserts once per id and reads back typed values, only for the owner', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const other = await insertTestUser(db);
    const row = generation({
      user_id: user.id,
      access_mode: 'pass',
      cost_nanos: 0n,
      reference_cost_nanos: 9_000_000_000_000n,
      cached_tokens: 5,
      reasoning_tokens: 7,
      app_title: 'My App',
    });

    expect(await insertGeneration(db, row)).toBe(true);
    expect(await insertGeneration(db, { ...row, cost_nanos: 99n })).toBe(false);

    const stored = await findGenerationForUser(db, { userId: user.id, id: row.id });
    expect(stored).toMatchObject({
      id: row.id,
      access_mode: 'pass',
      streamed: true,
      cost_nanos: 0n,
      reference_cost_nanos: 9_000_000_000_000n,
      prompt_tokens: 12,
      cached_tokens: 5,
      cache_write_tokens: 0,
      reasoning_tokens: 7,
      time_to_first_token_ms: 95,
      app_title: 'My App',
    });
    expect(stored?.created_at).toBeInstanceOf(Date);
    expect(await findGenerationForUser(db, { userId: other.id, id: row.id })).toBeUndefined();
  });

  it('inserts a batch in one statement, skipping ids already recorded', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const existing = generation({ user_id: user.id });
    await insertGeneration(db, existing);
    const batch = [
      existing,
      generation({
        user_id: user.id,
        status: 'error',
        http_status: 502,
        error_code: 'upstream_error',
        finish_reason: null,
      }),
      generation({ user_id: user.id, status: 'aborted', streamed: false, time_to_first_token_ms: null }),
    ];
    expect(await insertGenerations(db, batch)).toBe(2);
    expect(await insertGenerations(db, [])).toBe(0);
    const aborted = await findGenerationForUser(db, { userId: user.id, id: batch[2].id });
    expect(aborted).toMatchObject({ status: 'aborted', streamed: false, time_to_first_token_ms: null });
  });

  it('rejects values outside the documented enums', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const bad = { ...generation({ user_id: user.id }), status: 'maybe' } as unknown as NewGeneration;
    await expect(insertGeneration(db, bad)).rejects.toMatchObject({ code: '23514' });
  });

  it('sums cost and requests per API key', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const keyId = uniqueId('key_');
    expect(await sumUsageForKey(db, keyId)).toEqual({ costNanos: 0n, requests: 0 });
    await insertGenerations(db, [
      generation({ user_id: user.id, api_key_id: keyId, cost_nanos: 4_000_000_000_000_000_000n }),
      generation({ user_id: user.id, api_key_id: keyId, cost_nanos: 5_000_000_000_000_000_000n }),
      generation({ user_id: user.id, api_key_id: keyId, cost_nanos: 0n, status: 'error' }),
      generation({ user_id: user.id, api_key_id: uniqueId('key_'), cost_nanos: 7n }),
    ]);
    // 9e18 exceeds Number.MAX_SAFE_INTEGER: the sum must come back exact.
    expect(await sumUsageForKey(db, keyId)).toEqual({ costNanos: 9_000_000_000_000_000_000n, requests: 3 });
  });
});
