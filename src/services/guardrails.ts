// An organization's guardrails: every member reads them, owners and admins replace them (audited). A key's own are
// settings of the key (services/key-settings.ts).
import type { Principal } from '../auth/principal.js';
import type { Db, DbOrTrx } from '../db/database.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import { requireManager, type OrganizationActor } from '../auth/member-roles.js';
import { inTransaction } from '../db/in-transaction.js';
import { GatewayError } from '../core/gateway-error.js';
import type { Guardrail } from '../core/guardrail.js';
import type { GuardrailSettings } from '../guardrails/guardrail-settings.js';
import { parseGuardrails, type WireGuardrail } from '../guardrails/parse-guardrails.js';
import { findOrganizationGuardrails, setOrganizationGuardrails } from '../repositories/organization-guardrails.js';
import { actorOf, recordAudit, type AuditActor } from './audit-log.js';

/** Who changes an organization's guardrails: a member with its role, or the operator; and whom the audit log names. */
export interface GuardrailEditor {
  organizationId: string;
  actor: OrganizationActor;
  by: AuditActor;
}

/** The member behind a credential, editing the organization it acts in (never an inference key). */
export function guardrailEditorOf(principal: Principal): GuardrailEditor {
  authorizeMemberManagement(principal);
  return {
    organizationId: principal.organizationId,
    actor: { kind: 'member', userId: principal.memberUserId, role: principal.role },
    by: actorOf(principal),
  };
}

function notFound(organizationId: string): GatewayError {
  return new GatewayError(404, `Organization ${organizationId} not found`, { organization_id: organizationId });
}

export async function organizationGuardrails(db: DbOrTrx, organizationId: string): Promise<Guardrail[]> {
  const guardrails = await findOrganizationGuardrails(db, organizationId);
  if (guardrails === undefined) throw notFound(organizationId);
  return guardrails;
}

/** Replaces the list (owner or admin); audited with the lists before and after. */
export async function putOrganizationGuardrails(
  db: Db,
  editor: GuardrailEditor,
  input: { guardrails: readonly WireGuardrail[]; settings: GuardrailSettings },
): Promise<Guardrail[]> {
  requireManager(editor.actor, 'Changing guardrails');
  const guardrails = parseGuardrails(input.guardrails, { field: 'data', settings: input.settings });
  const { organizationId } = editor;
  return inTransaction(db, async (trx) => {
    const before = await organizationGuardrails(trx, organizationId);
    await setOrganizationGuardrails(trx, { organizationId, guardrails });
    await recordAudit(trx, {
      actor: editor.by,
      organizationId,
      action: 'guardrails.changed',
      target: { type: 'organization', id: organizationId },
      before: { guardrails: before },
      after: { guardrails },
    });
    return guardrails;
  });
}
