import type { LivingFunction } from './living-function.js';

// Keeps the running totals (usage_daily, usage_key_totals) of the generation records: the statement-level trigger
// generations_usage_totals calls it once per inserted batch with the statement's transition table, so the totals
// commit with the records they count and a record skipped as a repeat is never counted. A response-cache hit counts
// in cache_hits and cache_saved_nanos instead of requests, and adds only what it was charged to cost_nanos (the
// totals equal the ledger). Each day's row is per key and per member ('' unknown: records written before members
// were recorded), so two members' account-token requests stay apart. It locks its totals rows, sorted, before
// settle_generations locks credit_accounts.
export const addUsageTotals: LivingFunction = {
  name: 'generations_add_usage_totals',
  parameters: '',
  returns: 'trigger',
  revision: 2,
  body: `
begin
  insert into usage_daily as u (
    day, user_id, api_key_id, member_user_id, model, access_mode, requests, prompt_tokens, completion_tokens,
    cached_tokens, cache_write_tokens, reasoning_tokens, cost_nanos, reference_cost_nanos, cache_hits,
    cache_saved_nanos)
  select (g.created_at at time zone 'UTC')::date, g.user_id, coalesce(g.api_key_id, ''),
    coalesce(g.member_user_id, ''), g.model, g.access_mode,
    count(*) filter (where not g.cache_hit),
    sum(g.prompt_tokens), sum(g.completion_tokens), sum(g.cached_tokens), sum(g.cache_write_tokens),
    sum(g.reasoning_tokens), sum(g.cost_nanos), coalesce(sum(g.reference_cost_nanos), 0),
    count(*) filter (where g.cache_hit), sum(g.cache_saved_nanos)
  from new_generations g
  group by 1, 2, 3, 4, 5, 6
  order by 2, 1, 3, 4, 5, 6
  on conflict (user_id, day, api_key_id, member_user_id, model, access_mode) do update set
    requests = u.requests + excluded.requests,
    prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
    completion_tokens = u.completion_tokens + excluded.completion_tokens,
    cached_tokens = u.cached_tokens + excluded.cached_tokens,
    cache_write_tokens = u.cache_write_tokens + excluded.cache_write_tokens,
    reasoning_tokens = u.reasoning_tokens + excluded.reasoning_tokens,
    cost_nanos = u.cost_nanos + excluded.cost_nanos,
    reference_cost_nanos = u.reference_cost_nanos + excluded.reference_cost_nanos,
    cache_hits = u.cache_hits + excluded.cache_hits,
    cache_saved_nanos = u.cache_saved_nanos + excluded.cache_saved_nanos;

  insert into usage_key_totals as k (api_key_id, requests, cost_nanos)
  select g.api_key_id, count(*) filter (where not g.cache_hit), sum(g.cost_nanos)
  from new_generations g
  where g.api_key_id is not null
  group by 1
  order by 1
  on conflict (api_key_id) do update set
    requests = k.requests + excluded.requests,
    cost_nanos = k.cost_nanos + excluded.cost_nanos;
  return null;
end
`,
};
