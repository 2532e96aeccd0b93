import type { DbOrTrx } from '../db/database.js';
import type { AuditLogRow } from '../db/tables/audit-log.js';

export interface AuditEntryInput {
  organizationId: string | null;
  actorKind: string;
  actorId: string;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export async function insertAuditEntry(db: DbOrTrx, entry: AuditEntryInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      organization_id: entry.organizationId,
      actor_kind: entry.actorKind,
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      // jsonb written as text so both dialects (pg, PGlite) send the same parameter.
      before: entry.before === null ? null : JSON.stringify(entry.before),
      after: entry.after === null ? null : JSON.stringify(entry.after),
    })
    .execute();
}

export interface AuditQuery {
  organizationId?: string;
  action?: string;
  actorId?: string;
  /** Entries with a smaller id than this (the previous page's last). */
  before?: bigint;
  limit: number;
}

/** Newest first; one more row than `limit` tells the caller whether a next page exists. */
export async function listAuditEntries(db: DbOrTrx, query: AuditQuery): Promise<AuditLogRow[]> {
  let q = db.selectFrom('audit_log').selectAll();
  if (query.organizationId !== undefined) q = q.where('organization_id', '=', query.organizationId);
  if (query.action !== undefined) q = q.where('action', '=', query.action);
  if (query.actorId !== undefined) q = q.where('actor_id', '=', query.actorId);
  if (query.before !== undefined) q = q.where('id', '<', query.before);
  return q
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
}
