// The usage report: generation records summed per UTC day, model, key, organization or member over [from, to),
// optionally of one organization, member or key (the operator's report, and an organization's for its members).
// Cost is what credits were charged (pass requests cost 0 credits; their reference cost counts toward the pass
// windows, not here), so a report's cost equals the ledger's debits for the same records. Response-cache hits are not
// requests here (their tokens are 0; their cost, if the operator prices hits, is counted).
//
// Whole UTC days are read from the daily totals (migration 0012), so a month costs ~30 rows per group instead of every
// request. Only a bound inside a day reads records: those of the partial day at that edge. Records older than the
// retention cutoff may be gone (src/services/generation-retention.ts): a bound inside such a day is refused rather
// than answered with a partial sum.
import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import { utcDayParam } from '../db/utc-day.js';
import { GatewayError } from '../core/gateway-error.js';
import { dayStart } from '../core/utc-calendar.js';
import { prunedBefore } from '../repositories/generation-retention.js';

export type UsageGroupBy = 'day' | 'model' | 'key' | 'user' | 'organization' | 'member';

/** Which records count: those of one organization, of one member (its keys' and token's), of one key (any combination). */
export interface UsageFilter {
  organizationId?: string;
  memberUserId?: string;
  keyId?: string;
}

export interface UsageRow {
  /**
   * The UTC day (YYYY-MM-DD), model id, key id, organization id (`user` is the same: the column's old name) or member
   * id; null for requests made without a key (account tokens) when grouping by key, and for account-token requests
   * recorded before members were when grouping by member.
   */
  group: string | null;
  requests: number;
  promptTokens: bigint;
  completionTokens: bigint;
  cachedTokens: bigint;
  reasoningTokens: bigint;
  costNanos: bigint;
}

const DAY_MS = 86_400_000;

/** The same group in the daily totals and in the records ('' is how the totals spell "no key"). */
const GROUPS: Record<UsageGroupBy, { totals: RawBuilder<string | null>; records: RawBuilder<string | null> }> = {
  day: { totals: sql`to_char(day, 'YYYY-MM-DD')`, records: sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')` },
  model: { totals: sql`model`, records: sql`model` },
  key: { totals: sql`nullif(api_key_id, '')`, records: sql`api_key_id` },
  user: { totals: sql`user_id`, records: sql`user_id` },
  organization: { totals: sql`user_id`, records: sql`user_id` },
  // The member recorded with the request (migration 0024); for rows written before, the key's (a key never changes
  // member), and null for an account token's.
  member: {
    totals: sql`coalesce(nullif(member_user_id, ''), (select k.member_user_id from api_keys k where k.id = usage_daily.api_key_id))`,
    records: sql`coalesce(member_user_id, (select k.member_user_id from api_keys k where k.id = generations.api_key_id))`,
  },
};

/** The filter as a condition on either source (both name the organization user_id, key api_key_id, member member_user_id). */
function filterCondition(filter: UsageFilter): RawBuilder<boolean> {
  // No id holds a NUL character, and PostgreSQL text cannot even be asked for one.
  for (const [field, value] of [
    ['organization_id', filter.organizationId],
    ['member_id', filter.memberUserId],
    ['key_id', filter.keyId],
  ] as const)
    if (value?.includes('\u0000'))
      throw new GatewayError(400, `Invalid request: ${field} must not contain a NUL character`, { field });
  const conditions: RawBuilder<boolean>[] = [sql<boolean>`true`];
  if (filter.organizationId !== undefined) conditions.push(sql<boolean>`user_id = ${filter.organizationId}`);
  if (filter.keyId !== undefined) conditions.push(sql<boolean>`api_key_id = ${filter.keyId}`);
  if (filter.memberUserId !== undefined)
    conditions.push(
      sql<boolean>`(member_user_id = ${filter.memberUserId} or api_key_id in (select k.id from api_keys k where k.member_user_id = ${filter.memberUserId}))`,
    );
  return sql<boolean>`${sql.join(conditions, sql` and `)}`;
}

interface Span {
  from: Date;
  to: Date;
}

/** [from, to) split into the whole UTC days inside it and the partial days at its edges. */
export function splitRange(from: Date, to: Date): { days?: Span; partial: Span[] } {
  const firstDay = dayStart(from).getTime() === from.getTime() ? from : new Date(dayStart(from).getTime() + DAY_MS);
  const lastDay = dayStart(to);
  if (firstDay.getTime() >= lastDay.getTime()) return { partial: [{ from, to }] };
  const partial: Span[] = [];
  if (from < firstDay) partial.push({ from, to: firstDay });
  if (lastDay < to) partial.push({ from: lastDay, to });
  return { days: { from: firstDay, to: lastDay }, partial };
}

export async function usageReport(
  db: DbOrTrx,
  input: { from: Date; to: Date; groupBy: UsageGroupBy; filter?: UsageFilter },
): Promise<UsageRow[]> {
  const group = GROUPS[input.groupBy];
  const where = filterCondition(input.filter ?? {});
  const { days, partial } = splitRange(input.from, input.to);
  if (partial.length > 0) await refusePrunedEdges(db, partial, input.from);
  const parts: RawBuilder<unknown>[] = [];
  if (days) {
    parts.push(sql`
      select ${group.totals} as grp, requests, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens, cost_nanos
      from usage_daily where day >= ${utcDayParam(days.from)} and day < ${utcDayParam(days.to)} and ${where}`);
  }
  for (const span of partial) {
    parts.push(sql`
      select ${group.records} as grp, (not cache_hit)::int::bigint, prompt_tokens::bigint, completion_tokens::bigint, cached_tokens::bigint,
        reasoning_tokens::bigint, cost_nanos
      from generations where created_at >= ${span.from} and created_at < ${span.to} and ${where}`);
  }
  const total = (column: string) => sql<bigint>`cast(coalesce(sum(${sql.ref(column)}), 0) as bigint)`;
  const { rows } = await sql<{
    grp: string | null;
    requests: bigint;
    prompt_tokens: bigint;
    completion_tokens: bigint;
    cached_tokens: bigint;
    reasoning_tokens: bigint;
    cost_nanos: bigint;
  }>`
    select grp, ${total('requests')} as requests, ${total('prompt_tokens')} as prompt_tokens,
      ${total('completion_tokens')} as completion_tokens, ${total('cached_tokens')} as cached_tokens,
      ${total('reasoning_tokens')} as reasoning_tokens, ${total('cost_nanos')} as cost_nanos
    from (${sql.join(parts, sql` union all `)}) as u (grp, requests, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens, cost_nanos)
    group by grp
    order by grp`.execute(db);
  return rows.map((r) => ({
    group: r.grp,
    requests: Number(r.requests),
    promptTokens: r.prompt_tokens,
    completionTokens: r.completion_tokens,
    cachedTokens: r.cached_tokens,
    reasoningTokens: r.reasoning_tokens,
    costNanos: r.cost_nanos,
  }));
}

/** A partial day needs its records: refused when they may have been pruned (the cutoff is a UTC midnight). */
async function refusePrunedEdges(db: DbOrTrx, partial: readonly Span[], from: Date): Promise<void> {
  const cutoff = await prunedBefore(db);
  const edge = cutoff === undefined ? undefined : partial.find((span) => span.from < cutoff);
  if (cutoff === undefined || edge === undefined) return;
  // The bound that is not a midnight: `from` when the edge starts there, else `to`.
  const field = dayStart(from).getTime() !== from.getTime() && edge.from.getTime() === from.getTime() ? 'from' : 'to';
  throw new GatewayError(
    400,
    `Invalid request: records before ${cutoff.toISOString()} were pruned and only their daily totals are kept, so \`${field}\` must be a UTC midnight (00:00:00Z) when it falls before that`,
    {
      field,
      reason: 'pruned_history',
      records_kept_since: cutoff.toISOString(),
    },
  );
}
