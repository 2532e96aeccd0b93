import type { AuditLogRow } from '../services/audit-log.js';
import type { AttemptView, WebhookEndpointRow } from '../services/webhooks.js';
import { nanosToUsd } from '../core/money.js';

/** An endpoint on the wire, without its secret. */
export function toWireWebhook(row: WebhookEndpointRow) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    url: row.url,
    description: row.description,
    event_types: row.event_types,
    budget_thresholds: row.budget_thresholds,
    credits_low_usd: nanosToUsd(row.credits_low_nanos),
    disabled: row.disabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toWireAttempt(row: AttemptView) {
  return {
    id: String(row.id),
    event_id: row.event_id,
    event_type: row.event_type,
    attempt: row.attempt,
    started_at: row.started_at.toISOString(),
    duration_ms: row.duration_ms,
    status_code: row.status_code,
    error: row.error,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    delivery_status: row.delivery_status,
  };
}

export function toWireAuditEntry(row: AuditLogRow) {
  return {
    id: String(row.id),
    organization_id: row.organization_id,
    actor: { kind: row.actor_kind, id: row.actor_id },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    before: row.before,
    after: row.after,
    created_at: row.created_at.toISOString(),
  };
}
