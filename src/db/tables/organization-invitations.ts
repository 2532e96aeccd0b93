import type { Generated, Insertable, Selectable } from 'kysely';
import type { MemberRole } from './memberships.js';

/** `organization_invitations` (migration 0015): a one-time token (only its SHA-256 hex kept) that makes a member. */
export interface OrganizationInvitationsTable {
  id: string;
  organization_id: string;
  token_hash: string;
  role: MemberRole;
  /** The member who invited. */
  created_by: string;
  created_at: Generated<Date>;
  expires_at: Date;
  accepted_by: string | null;
  accepted_at: Date | null;
}

export type OrganizationInvitationRow = Selectable<OrganizationInvitationsTable>;
export type NewOrganizationInvitation = Insertable<OrganizationInvitationsTable>;
