// What a member's role lets it do in its organization: `owner` everything (billing, owners), `admin` members,
// invitations and every member's keys but no owner, `member` its own keys and usage. The operator API stands in
// for an owner. Refusals are 403 naming the role needed; an organization the caller is not in is 404 elsewhere.
import { GatewayError } from '../core/gateway-error.js';
import type { MemberRole } from '../db/tables/memberships.js';

/** Who acts: the operator (admin key, CLI) or a member with its role. */
export type OrganizationActor = { kind: 'operator' } | { kind: 'member'; userId: string; role: MemberRole };

export const OPERATOR: OrganizationActor = { kind: 'operator' };

function forbidden(message: string, required: MemberRole): GatewayError {
  return new GatewayError(403, message, { reason: 'role_required', required_role: required });
}

/** Whether the actor manages the organization's members and every member's keys (owner, admin, operator). */
export function managesMembers(actor: OrganizationActor): boolean {
  return actor.kind === 'operator' || actor.role !== 'member';
}

/** Listing every member, inviting, or making a key for another member: an owner or admin. */
export function requireManager(actor: OrganizationActor, what: string): void {
  if (managesMembers(actor)) return;
  throw forbidden(
    `${what} needs the owner or admin role in the organization; a member manages only its own keys`,
    'admin',
  );
}

/**
 * Giving `role` to a member whose role is `current` (undefined: not a member yet): an admin neither makes an owner
 * nor changes one, a member changes nobody.
 */
export function authorizeRoleChange(actor: OrganizationActor, current: MemberRole | undefined, role: MemberRole): void {
  requireManager(actor, 'Adding members or changing roles');
  if (actor.kind === 'operator' || actor.role === 'owner') return;
  if (role === 'owner' || current === 'owner')
    throw forbidden('Making or changing an owner needs the owner role in the organization', 'owner');
}

/** Removing the member `userId` (whose role is `current`): an owner or admin, or the member itself (leaving). */
export function authorizeRemoval(actor: OrganizationActor, userId: string, current: MemberRole): void {
  if (actor.kind === 'member' && actor.userId === userId) return;
  requireManager(actor, 'Removing another member');
  if (actor.kind === 'member' && actor.role === 'admin' && current === 'owner')
    throw forbidden('Removing an owner needs the owner role in the organization', 'owner');
}

/** An invitation giving `role`: an owner or admin, and `owner` only from an owner. */
export function authorizeInvitation(actor: OrganizationActor, role: MemberRole): void {
  authorizeRoleChange(actor, undefined, role);
}
