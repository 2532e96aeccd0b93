// One-time invitations to an organization: an owner or admin makes one (the token is shown once, only its hash is
// kept) and a signed-in user accepts it, becoming a member with its role. A token is used at most once, also when
// two accept it at the same moment (the row is locked), and not after it expires. An owner or admin lists the pending
// ones (never a token) and may revoke one before it is used.
import type { Db, DbOrTrx } from '../db/database.js';
import { recordAudit, type AuditActor } from './audit-log.js';
import { memberChanged } from './member-changes.js';
import type { MemberRole } from '../db/tables/memberships.js';
import { hashSecret, newId, newInvitationToken } from '../auth/secrets.js';
import { authorizeInvitation, requireManager, type OrganizationActor } from '../auth/member-roles.js';
import { GatewayError } from '../core/gateway-error.js';
import { inTransaction } from '../db/in-transaction.js';
import {
  findMembership,
  findOrganization,
  putMembership,
  type MemberOrganization,
} from '../repositories/organizations.js';
import { checkRole, organizationNotFound } from './organizations.js';

/** How long an invitation may be accepted. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface CreatedInvitation {
  id: string;
  organizationId: string;
  role: MemberRole;
  token: string;
  expiresAt: Date;
}

export async function createInvitation(
  db: Db,
  actor: OrganizationActor & { kind: 'member' },
  input: { organizationId: string; role: MemberRole; now: Date; by: AuditActor },
): Promise<CreatedInvitation> {
  checkRole(input.role);
  authorizeInvitation(actor, input.role);
  const org = await findOrganization(db, input.organizationId);
  if (!org) throw organizationNotFound(input.organizationId);
  if (org.personal)
    throw new GatewayError(409, 'A personal organization has one member; create an organization to share', {
      reason: 'personal_organization',
    });
  const { token, hash } = newInvitationToken();
  const expiresAt = new Date(input.now.getTime() + INVITATION_TTL_MS);
  const row = await inTransaction(db, async (trx) => {
    const created = await trx
      .insertInto('organization_invitations')
      .values({
        id: newId('inv_'),
        organization_id: org.id,
        token_hash: hash,
        role: input.role,
        created_by: actor.userId,
        expires_at: expiresAt,
      })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actor: input.by,
      organizationId: org.id,
      action: 'invitation.created',
      target: { type: 'invitation', id: created.id },
      after: { role: input.role, created_by: actor.userId, expires_at: expiresAt },
    });
    return created;
  });
  return { id: row.id, organizationId: org.id, role: input.role, token, expiresAt };
}

/** The user becomes a member with the invitation's role (a member already keeps its own); 404 for a spent token. */
export async function acceptInvitation(
  db: Db,
  input: { token: string; userId: string; now: Date; by: AuditActor },
): Promise<MemberOrganization> {
  return inTransaction(db, async (trx) => {
    const invitation = await trx
      .selectFrom('organization_invitations')
      .selectAll()
      .where('token_hash', '=', hashSecret(input.token))
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', input.now)
      .forUpdate()
      .executeTakeFirst();
    if (!invitation)
      throw new GatewayError(404, 'Invitation not found: the token is unknown, already used or expired', {
        reason: 'invitation_not_found',
      });
    const org = await findOrganization(trx, invitation.organization_id);
    if (!org) throw organizationNotFound(invitation.organization_id);
    const existing = await findMembership(trx, org.id, input.userId);
    const membership =
      existing ?? (await putMembership(trx, { organizationId: org.id, userId: input.userId, role: invitation.role }));
    await trx
      .updateTable('organization_invitations')
      .set({ accepted_at: input.now, accepted_by: input.userId })
      .where('id', '=', invitation.id)
      .execute();
    await recordAudit(trx, {
      actor: input.by,
      organizationId: org.id,
      action: 'invitation.accepted',
      target: { type: 'invitation', id: invitation.id },
      after: { accepted_by: input.userId, role: membership.role },
    });
    if (!existing)
      await memberChanged(trx, input.by, {
        organizationId: org.id,
        userId: input.userId,
        after: membership.role,
        now: input.now,
        via: 'invitation',
      });
    return { ...org, role: membership.role };
  });
}

/** A pending invitation as it is listed: never its token (only the hash is kept, and that stays inside). */
export interface PendingInvitation {
  id: string;
  organizationId: string;
  role: MemberRole;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
}

/** The organization's invitations that can still be accepted (not used, not expired), newest first; owner or admin. */
export async function listPendingInvitations(
  db: DbOrTrx,
  actor: OrganizationActor,
  input: { organizationId: string; now: Date },
): Promise<PendingInvitation[]> {
  requireManager(actor, 'Listing invitations');
  const rows = await db
    .selectFrom('organization_invitations')
    .select(['id', 'organization_id', 'role', 'created_by', 'created_at', 'expires_at'])
    .where('organization_id', '=', input.organizationId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', input.now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organization_id,
    role: r.role,
    createdBy: r.created_by,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  }));
}

/** Revokes a pending invitation (owner or admin): its token no longer makes a member. 404 when none is pending. */
export async function revokeInvitation(
  db: DbOrTrx,
  actor: OrganizationActor,
  input: { organizationId: string; invitationId: string; by: AuditActor },
): Promise<void> {
  requireManager(actor, 'Revoking invitations');
  const deleted = input.invitationId.includes('\u0000')
    ? undefined
    : await inTransaction(db, async (trx) => {
        const row = await trx
          .deleteFrom('organization_invitations')
          .where('organization_id', '=', input.organizationId)
          .where('id', '=', input.invitationId)
          .where('accepted_at', 'is', null)
          .returning(['id', 'role', 'created_by', 'expires_at'])
          .executeTakeFirst();
        if (row)
          await recordAudit(trx, {
            actor: input.by,
            organizationId: input.organizationId,
            action: 'invitation.revoked',
            target: { type: 'invitation', id: row.id },
            before: row,
          });
        return row;
      });
  if (!deleted)
    throw new GatewayError(404, `Invitation ${input.invitationId} not found or already accepted`, {
      organization_id: input.organizationId,
      invitation_id: input.invitationId,
    });
}
