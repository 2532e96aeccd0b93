// `modelgate orgs invitations list|revoke`: the operator (standing in for an owner) lists an organization's pending
// invitations, never a token (only hashes are kept), and revokes one before it is used.
import { CONSOLE_ACTOR } from '../services/audit-log.js';
import type { Config } from '../config.js';
import { OPERATOR } from '../auth/member-roles.js';
import { requireOrganization } from '../services/organizations.js';
import { listPendingInvitations, revokeInvitation } from '../services/organization-invitations.js';
import { print, requireOption, withDatabase, type CliIo } from './command.js';
import { asCommand } from './service-refusals.js';
import { textTable } from './text-table.js';

export interface InvitationsInput {
  sub: 'list' | 'revoke';
  id: string | undefined;
  invitation: string | undefined;
  json: boolean | undefined;
}

export function runInvitations(input: InvitationsInput, config: Config, io: CliIo): Promise<number> {
  const id = requireOption(input.id, 'id');
  if (input.sub === 'list')
    return withDatabase(config, async (db) => {
      const org = await asCommand(requireOrganization(db, id));
      const pending = await listPendingInvitations(db, OPERATOR, { organizationId: org.id, now: new Date() });
      const human = textTable(
        ['INVITATION ID', 'ROLE', 'CREATED BY', 'EXPIRES'],
        pending.map((i) => [i.id, i.role, i.createdBy, i.expiresAt.toISOString()]),
      );
      const data = pending.map((i) => ({
        invitation_id: i.id,
        role: i.role,
        created_by: i.createdBy,
        created_at: i.createdAt.toISOString(),
        expires_at: i.expiresAt.toISOString(),
      }));
      print(io, input.json, human, data);
      return 0;
    });
  const invitationId = requireOption(input.invitation, 'invitation');
  return withDatabase(config, async (db) => {
    const org = await asCommand(requireOrganization(db, id));
    await asCommand(revokeInvitation(db, OPERATOR, { organizationId: org.id, invitationId, by: CONSOLE_ACTOR }));
    print(io, input.json, `revoked invitation ${invitationId} of ${org.id}`, {
      id: org.id,
      invitation_id: invitationId,
      revoked: true,
    });
    return 0;
  });
}
