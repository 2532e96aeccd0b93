// What a change of an organization's members leaves behind, in its transaction: an audit entry and the webhook
// events `member.added` and `member.removed` (a role change is audited only).
import type { DbOrTrx } from '../db/database.js';
import type { MemberRole } from '../db/tables/memberships.js';
import { recordAudit, type AuditActor } from './audit-log.js';
import { emitEvent } from './webhook-events.js';

export interface MemberChange {
  organizationId: string;
  userId: string;
  /** undefined: the user was not a member before (added) or is not after (removed). */
  before?: MemberRole;
  after?: MemberRole;
  now: Date;
  /** How the member came: `invitation` when it accepted one. */
  via?: string;
}

export async function memberChanged(db: DbOrTrx, by: AuditActor, change: MemberChange): Promise<void> {
  if (change.before === change.after) return;
  const action =
    change.before === undefined
      ? 'member.added'
      : change.after === undefined
        ? 'member.removed'
        : 'member.role_changed';
  await recordAudit(db, {
    actor: by,
    organizationId: change.organizationId,
    action,
    target: { type: 'member', id: change.userId },
    before: change.before === undefined ? null : { role: change.before },
    after: change.after === undefined ? null : { role: change.after, ...(change.via ? { via: change.via } : {}) },
  });
  if (action === 'member.role_changed') return;
  await emitEvent(db, {
    organizationId: change.organizationId,
    type: action,
    data: { member_id: change.userId, role: change.after ?? change.before },
    now: change.now,
  });
}
