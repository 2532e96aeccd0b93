// The account history that test/browser/account-page.test.ts checks and `make screenshot` photographs: a month of the
// flat subscription with 1.20 USD of its windows used, and 24 generation records over 12 days (two a day, a minute
// apart, three models of the shipped catalog; every seventh an error; the newest an hour old), the credit ones debited:
// 1.616 USD in all (8 × 0.012 + 8 × 0.19).
import { newId } from '../../src/auth/secrets.js';
import type { Db } from '../../src/db/database.js';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { insertPassUsage } from '../../src/repositories/pass-usage.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import { grantPass } from '../../src/services/pass.js';

const DAY = 86_400_000;

export const HISTORY_MODELS = [
  { model: 'openai/gpt-5.4-mini', provider: 'openai', cost: 12_000_000n },
  { model: 'anthropic/claude-sonnet-5-5', provider: 'anthropic', cost: 95_000_000n },
  { model: 'pass/kimi-k2.7-code', provider: 'pass', cost: 0n },
];

function record(userId: string, at: Date, index: number): NewGeneration {
  const m = HISTORY_MODELS[index % HISTORY_MODELS.length];
  return {
    id: newId('gen-'),
    user_id: userId,
    api_key_id: null,
    access_mode: m.cost === 0n ? 'pass' : 'credits',
    model: m.model,
    provider: m.provider,
    upstream_model: m.model.split('/')[1],
    upstream_id: null,
    streamed: true,
    finish_reason: 'stop',
    status: index % 7 === 6 ? 'error' : 'success',
    http_status: 200,
    error_code: index % 7 === 6 ? '502' : null,
    error_message: null,
    prompt_tokens: 400 + index * 13,
    completion_tokens: 120 + index * 7,
    cost_nanos: m.cost * BigInt(1 + (index % 3)),
    reference_cost_nanos: m.cost === 0n ? 40_000_000n : null,
    latency_ms: 800,
    time_to_first_token_ms: 200,
    app_title: null,
    app_referer: null,
    task_id: null,
    created_at: at,
  };
}

export async function seedAccountHistory(db: Db, userId: string, now = new Date()): Promise<void> {
  await grantPass(db, userId, 1, now);
  await insertPassUsage(db, {
    user_id: userId,
    generation_id: null,
    reference_cost_nanos: 1_200_000_000n,
    status: 'settled',
    created_at: now,
  });
  const rows = Array.from({ length: 24 }, (_, i) =>
    record(userId, new Date(now.getTime() - 3_600_000 - i * 60_000 - Math.floor(i / 2) * DAY), i),
  );
  await settleGenerationBatch(
    db,
    rows.map((record) =>
      record.access_mode === 'credits'
        ? { record, settle: 'credits' as const, reservedNanos: 0n }
        : { record, settle: 'none' as const },
    ),
  );
}
