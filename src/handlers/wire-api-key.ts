// A key with its usage (src/services/api-keys.ts) → the ApiKey wire shape. The secret is never part of it; only
// its display prefix. Money in USD.
import type { components } from '../../generated/openapi-types.js';
import type { KeyView } from '../services/api-keys.js';
import { nanosToUsd } from '../core/money.js';

type ApiKey = components['schemas']['ApiKey'];
/** The usage, limit and policy fields, shared by ApiKey and KeyInfoData. */
type KeyLimits = Omit<ApiKey, 'key_id' | 'name' | 'prefix' | 'created_at' | 'last_used_at' | 'kind' | 'member_id'>;

export function toWireKeyLimits({ row, usage, limitRemainingNanos }: KeyView): KeyLimits {
  return {
    usage: nanosToUsd(usage.totalNanos),
    usage_daily: nanosToUsd(usage.dailyNanos),
    usage_weekly: nanosToUsd(usage.weeklyNanos),
    usage_monthly: nanosToUsd(usage.monthlyNanos),
    limit: row.credit_limit_nanos === null ? null : nanosToUsd(row.credit_limit_nanos),
    limit_remaining: limitRemainingNanos === null ? null : nanosToUsd(limitRemainingNanos),
    limit_reset: row.limit_reset,
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    disabled: row.disabled,
    allowed_models: row.allowed_models,
    guardrails: row.guardrails ?? [],
  };
}

export function toWireApiKey(view: KeyView): ApiKey {
  const { row } = view;
  return {
    key_id: row.id,
    name: row.name,
    prefix: row.display_prefix,
    kind: row.kind,
    member_id: row.member_user_id,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
    ...toWireKeyLimits(view),
  };
}
