// The audit log: every management action, written in the transaction of the change it records, with the credential
// that acted and the fields before and after. Secrets (key hashes, tokens, webhook secrets) never enter it: callers
// pass the fields they describe, and `withoutSecrets` drops any of the names secrets go by as a second guard.
import type { DbOrTrx } from '../db/database.js';
import type { AuditLogRow } from '../db/tables/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { insertAuditEntry, listAuditEntries } from '../repositories/audit-log.js';
import { GatewayError } from '../core/gateway-error.js';

/** Which credential acted: its kind and id, never its secret. */
/** The row handlers render. */
export type { AuditLogRow } from '../db/tables/audit-log.js';

export interface AuditActor {
  kind: string;
  id: string;
}

/** An operator at the console (`npx modelgate ...`). */
export const CONSOLE_ACTOR: AuditActor = { kind: 'cli', id: 'console' };

export function actorOf(principal: Principal): AuditActor {
  return { kind: principal.kind, id: principal.credentialId };
}

export interface AuditEntry {
  actor: AuditActor;
  organizationId: string | null;
  action: string;
  target: { type: string; id: string };
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

const SECRET_FIELDS = new Set(['key', 'key_hash', 'secret', 'secret_ciphertext', 'token', 'token_hash', 'password']);

/** A copy without the fields secrets are kept in; dates as ISO text and money (bigint) as decimal text. */
export function withoutSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (SECRET_FIELDS.has(name)) continue;
    out[name] = value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? value.toString() : value;
  }
  return out;
}

export async function recordAudit(db: DbOrTrx, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(db, {
    organizationId: entry.organizationId,
    actorKind: entry.actor.kind,
    actorId: entry.actor.id,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    before: entry.before ? withoutSecrets(entry.before) : null,
    after: entry.after ? withoutSecrets(entry.after) : null,
  });
}

const MAX_INT8 = 2n ** 63n - 1n;

export interface AuditPage {
  rows: AuditLogRow[];
  nextCursor: string | null;
}

/** One page, newest first; `cursor` is the `next_cursor` of the previous page. */
export async function auditPage(
  db: DbOrTrx,
  query: { organizationId?: string; action?: string; actorId?: string; cursor?: string; limit: number },
): Promise<AuditPage> {
  const before = query.cursor === undefined ? undefined : BigInt(query.cursor);
  if (before !== undefined && before > MAX_INT8)
    throw new GatewayError(400, 'Invalid request: cursor is not one this API returned', { field: 'cursor' });
  const rows = await listAuditEntries(db, { ...query, before });
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  return { rows: page, nextCursor: more ? String(page[page.length - 1].id) : null };
}
