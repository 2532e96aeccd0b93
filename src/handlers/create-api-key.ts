import type { GrantParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import type { Principal } from '../auth/principal.js';
import type { DbOrTrx } from '../db/database.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeKeyCreation, requireAccountToken } from '../auth/key-scopes.js';
import { requireManager } from '../auth/member-roles.js';
import { GatewayError } from '../core/gateway-error.js';
import { findMembership } from '../repositories/organizations.js';
import { memberActor } from '../services/organizations.js';
import { createKey, describeKeys } from '../services/api-keys.js';
import { parseKeyKind, parseKeySettings, type WireKeySettings } from '../services/key-settings.js';
import { toWireApiKey } from './wire-api-key.js';

type CreateKeyBody = WireKeySettings & { organization_id?: string; member_id?: string };

export function createApiKey(parts: GrantParts): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    const body = (api.request.requestBody ?? {}) as CreateKeyBody;
    const kind = parseKeyKind(body.kind);
    // Before the settings are read: a credential that may not create keys learns nothing else about its request.
    authorizeKeyCreation(principal, kind);
    const owner = await keyOwner(parts.db, principal, body);
    const now = parts.now();
    const settings = parseKeySettings(body, now);
    const { row, secret } = await createKey(parts.db, {
      ...owner,
      settings,
      kind,
      now,
      maxKeys: parts.config.maxKeysPerAccount,
    });
    const [view] = await describeKeys(parts.db, [row], now);
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { ...toWireApiKey(view), key: secret };
  };
}

/**
 * Whose key it is: an organization the caller's member belongs to (another than the credential's own only with the
 * account token), and the caller's member unless an owner or admin names another member of it.
 */
async function keyOwner(
  db: DbOrTrx,
  principal: Principal,
  body: CreateKeyBody,
): Promise<{ organizationId: string; memberUserId: string }> {
  const organizationId = body.organization_id ?? principal.organizationId;
  if (organizationId !== principal.organizationId)
    requireAccountToken(principal, 'Making a key of another organization');
  const actor = await memberActor(db, principal, organizationId);
  const memberUserId = body.member_id ?? actor.userId;
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
