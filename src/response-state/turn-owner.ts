// Who a stored turn belongs to, read from the principal that asks: the principal lives in auth/, the turn's shape in
// the core, so the doors that keep turns need no credentials logic.
import type { Principal } from '../auth/principal.js';
import type { TurnOwner } from '../core/stored-turn.js';

/** The owner of what a principal stores and reads. */
export function turnOwnerOf(principal: Principal): TurnOwner {
  return {
    organizationId: principal.organizationId,
    memberUserId: principal.memberUserId,
    keyId: principal.kind === 'api_key' ? principal.credentialId : null,
    allowedModels: principal.policy?.allowedModels ?? null,
  };
}
