import type { MemberOrganization, MemberWithEmail, OrganizationRow } from '../services/organizations.js';

/** An organization on the wire; `role` when the caller is one of its members. */
export function toWireOrganization(org: OrganizationRow | MemberOrganization) {
  return {
    id: org.id,
    name: org.name,
    personal: org.personal,
    ...('role' in org ? { role: org.role } : {}),
    created_at: org.created_at.toISOString(),
  };
}

export function toWireMember(member: MemberWithEmail) {
  return {
    user_id: member.user_id,
    email: member.email,
    role: member.role,
    created_at: member.created_at.toISOString(),
  };
}
