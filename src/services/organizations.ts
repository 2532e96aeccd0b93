// Organizations and their members, shared by the member API (/organizations), the operator API
// (/admin/organizations) and the CLI (`orgs`): one implementation each, the actor's role checked in auth/member-roles.
import type { Db, DbOrTrx } from '../db/database.js';
import type { MemberRole, MembershipRow } from '../db/tables/memberships.js';
import type { OrganizationRow } from '../db/tables/organizations.js';
import type { Principal } from '../auth/principal.js';
import { newId } from '../auth/secrets.js';
import { authorizeRemoval, authorizeRoleChange, requireManager, type OrganizationActor } from '../auth/member-roles.js';
import { requireAccountToken } from '../auth/key-scopes.js';
import { GatewayError } from '../core/gateway-error.js';
import { inTransaction } from '../db/in-transaction.js';
import {
  countOwners,
  deleteMembership,
  findMembership,
  findOrganization,
  insertOrganization,
  listMembers,
  listOrganizationsOfUser,
  lockOrganization,
  putMembership,
  revokeMemberKeys,
  type MemberOrganization,
  type MemberWithEmail,
} from '../repositories/organizations.js';
import { findUserById } from '../repositories/users.js';
import type { CredentialInvalidator } from './api-keys.js';
import { recordAudit, type AuditActor } from './audit-log.js';
import { keyRevoked } from './key-changes.js';
import { memberChanged } from './member-changes.js';

export type { MemberRole, MemberOrganization, MemberWithEmail, OrganizationRow };

/** A member acting in its organization. */
export type MemberActor = OrganizationActor & { kind: 'member' };

export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'member'];

/** The wire's role is an open enum (new roles may come); today's three are the ones a member can have. */
export function checkRole(role: string): asserts role is MemberRole {
  if (!(MEMBER_ROLES as readonly string[]).includes(role))
    throw new GatewayError(400, `Invalid request: role must be one of ${MEMBER_ROLES.join(', ')}`, { field: 'role' });
}

export function organizationNotFound(organizationId: string): GatewayError {
  return new GatewayError(404, `Organization ${organizationId} not found`, { organization_id: organizationId });
}

function userNotFound(userId: string): GatewayError {
  return new GatewayError(404, `User ${userId} not found`, { user_id: userId });
}

function conflict(message: string, reason: string): GatewayError {
  return new GatewayError(409, message, { reason });
}

/** A new (not personal) organization with `ownerUserId` as its owner; 404 when there is no such user. */
export async function createOrganization(
  db: Db,
  input: { name: string; ownerUserId: string; by: AuditActor },
): Promise<MemberOrganization> {
  const name = input.name.trim();
  if (name === '' || name.includes('\u0000'))
    throw new GatewayError(400, 'Invalid request: name must be a non-empty name without NUL characters', {
      field: 'name',
    });
  return inTransaction(db, async (trx) => {
    if (input.ownerUserId.includes('\u0000') || !(await findUserById(trx, input.ownerUserId)))
      throw userNotFound(input.ownerUserId);
    const org = await insertOrganization(trx, { id: newId('org_'), name, personal: false });
    await putMembership(trx, { organizationId: org.id, userId: input.ownerUserId, role: 'owner' });
    await recordAudit(trx, {
      actor: input.by,
      organizationId: org.id,
      action: 'organization.created',
      target: { type: 'organization', id: org.id },
      after: { ...org, owner_user_id: input.ownerUserId },
    });
    return { ...org, role: 'owner' as const };
  });
}

/** The organizations the credential may act in: all of its user's for the account token, a key's own for a key. */
export async function organizationsOf(db: DbOrTrx, principal: Principal): Promise<MemberOrganization[]> {
  const all = await listOrganizationsOfUser(db, principal.memberUserId);
  return principal.kind === 'account_token' ? all : all.filter((o) => o.id === principal.organizationId);
}

/**
 * The credential's member in `organizationId`, as an actor: 404 when the credential may not act there (a key in
 * another organization than its own, a user who is not a member), so no one learns which organizations exist.
 */
export async function memberActor(db: DbOrTrx, principal: Principal, organizationId: string): Promise<MemberActor> {
  if (principal.kind !== 'account_token' && organizationId !== principal.organizationId)
    throw organizationNotFound(organizationId);
  const membership = organizationId.includes('\u0000')
    ? undefined
    : await findMembership(db, organizationId, principal.memberUserId);
  if (!membership) throw organizationNotFound(organizationId);
  return { kind: 'member', userId: principal.memberUserId, role: membership.role };
}

export async function requireOrganization(db: DbOrTrx, organizationId: string): Promise<OrganizationRow> {
  const org = organizationId.includes('\u0000') ? undefined : await findOrganization(db, organizationId);
  if (!org) throw organizationNotFound(organizationId);
  return org;
}

/** Every member for the operator, an owner or an admin; only itself for a member. */
export async function membersFor(
  db: DbOrTrx,
  actor: OrganizationActor,
  organizationId: string,
): Promise<MemberWithEmail[]> {
  const members = await listMembers(db, organizationId);
  return actor.kind === 'member' && actor.role === 'member'
    ? members.filter((m) => m.user_id === actor.userId)
    : members;
}

/** Adds `userId` with `role` or changes its role; 409 for a personal organization or its last owner. */
export async function putMember(
  db: Db,
  actor: OrganizationActor,
  input: { organizationId: string; userId: string; role: MemberRole; by: AuditActor; now: Date },
): Promise<MemberWithEmail> {
  checkRole(input.role);
  if (input.organizationId.includes('\u0000')) throw organizationNotFound(input.organizationId);
  return inTransaction(db, async (trx) => {
    const org = await lockOrganization(trx, input.organizationId);
    if (!org) throw organizationNotFound(input.organizationId);
    const user = input.userId.includes('\u0000') ? undefined : await findUserById(trx, input.userId);
    if (!user) throw userNotFound(input.userId);
    const current = await findMembership(trx, org.id, user.id);
    authorizeRoleChange(actor, current?.role, input.role);
    if (org.personal && current === undefined)
      throw conflict(
        'A personal organization has one member; create an organization to share',
        'personal_organization',
      );
    if (current?.role === 'owner' && input.role !== 'owner' && (await countOwners(trx, org.id)) <= 1)
      throw conflict('An organization keeps at least one owner; make another member an owner first', 'last_owner');
    const row = await putMembership(trx, { organizationId: org.id, userId: user.id, role: input.role });
    await memberChanged(trx, input.by, {
      organizationId: org.id,
      userId: user.id,
      before: current?.role,
      after: row.role,
      now: input.now,
    });
    return { ...row, email: user.email };
  });
}

/**
 * Removes the member and revokes its keys of the organization in the same transaction (a key never acts where its
 * member is not a member); `input.credentials` forgets them in this process, the rows' triggers tell the others.
 */
export async function removeMember(
  db: Db,
  actor: OrganizationActor,
  input: { organizationId: string; userId: string; now: Date; by: AuditActor; credentials?: CredentialInvalidator },
): Promise<void> {
  if (input.organizationId.includes('\u0000')) throw organizationNotFound(input.organizationId);
  const hashes = await inTransaction(db, async (trx) => {
    const org = await lockOrganization(trx, input.organizationId);
    if (!org) throw organizationNotFound(input.organizationId);
    const current: MembershipRow | undefined = input.userId.includes('\u0000')
      ? undefined
      : await findMembership(trx, org.id, input.userId);
    if (!current)
      throw new GatewayError(404, `User ${input.userId} is not a member of organization ${org.id}`, {
        organization_id: org.id,
        user_id: input.userId,
      });
    authorizeRemoval(actor, input.userId, current.role);
    if (current.role === 'owner' && (await countOwners(trx, org.id)) <= 1)
      throw conflict('An organization keeps at least one owner; make another member an owner first', 'last_owner');
    const revoked = await revokeMemberKeys(trx, { organizationId: org.id, userId: input.userId, now: input.now });
    for (const before of revoked) await keyRevoked(trx, input.by, { before, now: input.now, reason: 'member_removed' });
    await deleteMembership(trx, org.id, input.userId);
    await memberChanged(trx, input.by, {
      organizationId: org.id,
      userId: input.userId,
      before: current.role,
      now: input.now,
    });
    return revoked.map((row) => row.key_hash);
  });
  for (const hash of hashes) input.credentials?.invalidate(hash);
}

/**
 * Whose a new key is: an organization the caller's member belongs to (another than the credential's own only with
 * the account token), and the caller's member unless an owner or admin names another member of it.
 */
export async function keyOwnerFor(
  db: DbOrTrx,
  principal: Principal,
  requested: { organizationId?: string; memberUserId?: string },
): Promise<{ organizationId: string; memberUserId: string }> {
  const organizationId = requested.organizationId ?? principal.organizationId;
  if (organizationId !== principal.organizationId)
    requireAccountToken(principal, 'Making a key of another organization');
  const actor = await memberActor(db, principal, organizationId);
  const memberUserId = requested.memberUserId ?? actor.userId;
  if (memberUserId !== actor.userId) {
    requireManager(actor, 'Making a key for another member');
    if (memberUserId.includes('\u0000') || !(await findMembership(db, organizationId, memberUserId)))
      throw new GatewayError(404, `User ${memberUserId} is not a member of organization ${organizationId}`, {
        organization_id: organizationId,
        member_id: memberUserId,
      });
  }
  return { organizationId, memberUserId };
}
