// The operator's usage report: generation records summed per UTC day, model, key or user over [from, to).
// Cost is what credits were charged (pass requests cost 0 credits; their reference cost counts toward the pass
// windows, not here), so a report's cost equals the ledger's debits for the same records.
import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from '../db/database.js';

export type UsageGroupBy = 'day' | 'model' | 'key' | 'user';

export interface UsageRow {
  /** The UTC day (YYYY-MM-DD), model id, key id or user id; null for requests made without a key (account tokens). */
  group: string | null;
  requests: number;
  promptTokens: bigint;
  completionTokens: bigint;
  cachedTokens: bigint;
  reasoningTokens: bigint;
  costNanos: bigint;
}

const GROUPS: Record<UsageGroupBy, RawBuilder<string | null>> = {
  day: sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`,
  model: sql<string>`model`,
  key: sql<string | null>`api_key_id`,
  user: sql<string>`user_id`,
};

export async function usageReport(db: DbOrTrx, input: { from: Date; to: Date; groupBy: UsageGroupBy }): Promise<UsageRow[]> {
  const group = GROUPS[input.groupBy];
  const total = (column: string) => sql<bigint>`cast(coalesce(sum(${sql.ref(column)}), 0) as bigint)`;
  const rows = await db
    .selectFrom('generations')
    .select([
      group.as('group'),
      sql<string>`count(*)`.as('requests'),
      total('prompt_tokens').as('prompt_tokens'),
      total('completion_tokens').as('completion_tokens'),
      total('cached_tokens').as('cached_tokens'),
      total('reasoning_tokens').as('reasoning_tokens'),
      total('cost_nanos').as('cost_nanos'),
    ])
    .where('created_at', '>=', input.from)
    .where('created_at', '<', input.to)
    .groupBy(group)
    .orderBy(group)
    .execute();
  return rows.map((r) => ({
    group: r.group,
    requests: Number(r.requests),
    promptTokens: r.prompt_tokens,
    completionTokens: r.completion_tokens,
    cachedTokens: r.cached_tokens,
    reasoningTokens: r.reasoning_tokens,
    costNanos: r.cost_nanos,
  }));
}
