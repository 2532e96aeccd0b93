import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** `audit_log` (migration 0017): one management action; never a secret in `before` or `after`. */
export interface AuditLogTable {
  id: Generated<bigint>;
  /** null for an action outside any organization (an operator creating a user). */
  organization_id: string | null;
  /** The credential: account_token, api_key, management_key, admin_key, or cli (an operator at the console). */
  actor_kind: string;
  actor_id: string;
  /** `key.created`, `member.removed`, ... */
  action: string;
  target_type: string;
  target_id: string;
  before: ColumnType<Record<string, unknown> | null, string | null, never>;
  after: ColumnType<Record<string, unknown> | null, string | null, never>;
  created_at: Generated<Date>;
}

export type AuditLogRow = Selectable<AuditLogTable>;
export type NewAuditLogEntry = Insertable<AuditLogTable>;
