// What a key's creation, change or revocation leaves behind, in the transaction of the change: an audit entry and
// the organization's webhook events (`key.created`, `key.limit_changed`, `key.revoked`). Neither holds the key's
// hash or secret.
import type { DbOrTrx } from '../db/database.js';
import type { ApiKeyRow } from '../db/tables/api-keys.js';
import { nanosToUsd } from '../core/money.js';
import { recordAudit, type AuditActor } from './audit-log.js';
import { emitEvent } from './webhook-events.js';

/** The key's fields an audit entry keeps. */
function auditedKey(row: ApiKeyRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    organization_id: row.user_id,
    member_id: row.member_user_id,
    display_prefix: row.display_prefix,
    credit_limit_nanos: row.credit_limit_nanos,
    limit_reset: row.limit_reset,
    rate_limit_rpm: row.rate_limit_rpm,
    rate_limit_tpm: row.rate_limit_tpm,
    free_requests_per_day: row.free_requests_per_day,
    expires_at: row.expires_at,
    disabled: row.disabled,
    allowed_models: row.allowed_models,
    guardrails: row.guardrails,
    deleted_at: row.deleted_at,
  };
}

/** The key as a webhook event describes it. */
function eventKey(row: ApiKeyRow): Record<string, unknown> {
  return {
    key_id: row.id,
    name: row.name,
    kind: row.kind,
    member_id: row.member_user_id,
    limit_usd: row.credit_limit_nanos === null ? null : nanosToUsd(row.credit_limit_nanos),
    limit_reset: row.limit_reset,
  };
}

export async function keyCreated(
  db: DbOrTrx,
  actor: AuditActor,
  { row, now }: { row: ApiKeyRow; now: Date },
): Promise<void> {
  await recordAudit(db, {
    actor,
    organizationId: row.user_id,
    action: 'key.created',
    target: { type: 'key', id: row.id },
    after: auditedKey(row),
  });
  await emitEvent(db, { organizationId: row.user_id, type: 'key.created', data: eventKey(row), now });
}

export async function keyUpdated(
  db: DbOrTrx,
  actor: AuditActor,
  change: { before: ApiKeyRow; after: ApiKeyRow; now: Date },
): Promise<void> {
  const { before, after } = change;
  await recordAudit(db, {
    actor,
    organizationId: after.user_id,
    action: 'key.updated',
    target: { type: 'key', id: after.id },
    before: auditedKey(before),
    after: auditedKey(after),
  });
  if (before.credit_limit_nanos === after.credit_limit_nanos && before.limit_reset === after.limit_reset) return;
  await emitEvent(db, {
    organizationId: after.user_id,
    type: 'key.limit_changed',
    data: {
      ...eventKey(after),
      previous_limit_usd: before.credit_limit_nanos === null ? null : nanosToUsd(before.credit_limit_nanos),
      previous_limit_reset: before.limit_reset,
    },
    now: change.now,
  });
}

/** `reason`: `deleted` (by a credential) or `member_removed` (its member left the organization). */
export async function keyRevoked(
  db: DbOrTrx,
  actor: AuditActor,
  change: { before: ApiKeyRow; now: Date; reason: 'deleted' | 'member_removed' },
): Promise<void> {
  const { before } = change;
  await recordAudit(db, {
    actor,
    organizationId: before.user_id,
    action: 'key.revoked',
    target: { type: 'key', id: before.id },
    before: auditedKey(before),
    after: { deleted_at: change.now, reason: change.reason },
  });
  await emitEvent(db, {
    organizationId: before.user_id,
    type: 'key.revoked',
    data: { ...eventKey(before), reason: change.reason },
    now: change.now,
  });
}
